/// \file
/// Untranslated call-sites inside dp::record (graph.hpp): the host
/// reference keeps each one, checked, with its arguments held as a
/// translated call-site's are (fields by handle, dp::scalars by reference,
/// everything else copied now), and a replay runs them in order on the
/// host, so that a program behaves the same before and after translation.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../detail/call_info.hpp"
#include "../detail/recording.hpp"
#include "../error.hpp"
#include "../options.hpp"
#include "../scalar.hpp"
#include "aliasing.hpp"
#include "bound_kernel.hpp"

namespace dp::detail {

/// An argument as a replay passes it: a copy made at the recording (a
/// field's shares its data), or, for a dp::scalar, the scalar itself.
template <class A> class replay_arg {
public:
  explicit replay_arg(A &a) : value_(a) {}
  A &get() { return value_; }

private:
  std::remove_const_t<A> value_;
};
/// A kernel that is a function: its address.
template <class R, class... P> class replay_arg<R(P...)> {
public:
  explicit replay_arg(R (&f)(P...)) : f_(&f) {}
  R (&get())(P...) { return *f_; }

private:
  R (*f_)(P...);
};
template <class T> class replay_arg<scalar<T>> {
public:
  explicit replay_arg(scalar<T> &s) : s_(&s) {}
  scalar<T> &get() { return *s_; }

private:
  scalar<T> *s_;
};
template <class T> class replay_arg<const scalar<T>> {
public:
  explicit replay_arg(const scalar<T> &s) : s_(&s) {}
  const scalar<T> &get() { return *s_; }

private:
  const scalar<T> *s_;
};

/// The replays of untranslated call-sites: each runs now, on the host, in
/// the order recorded; an error names the recording, then the call-site.
class reference_replay final : public replayer {
public:
  static constexpr const char *kind_name = "untranslated call-sites";
  const char *kind() const override { return kind_name; }
  void end(bool) override {}
  void run(recording &r, queue_state &) override {
    for (const auto &[site, call] : calls_) {
      try {
        call();
      } catch (const std::exception &e) {
        throw dp::error(r.name() + ": " + named_by(site, e.what()));
      }
    }
  }
  void keep(std::string site, std::function<void()> call) {
    calls_.emplace_back(std::move(site), std::move(call));
  }

private:
  std::vector<std::pair<std::string, std::function<void()>>> calls_;
};

/// Keeps the call-site `call` in `rec` (the recording this thread makes):
/// its options, the `n` uses of data its arguments make, and
/// `run(args...)` to call at each replay. A dp::error when it is not on
/// the recording's queue.
template <class Run, class... A>
void keep_for_replay(recording &rec, const call_info &call, const exec_options *options,
                     const argument_use *uses, std::size_t n, Run run, A &...args) {
  const std::string site = call.name();
  rec.call_site(site, options ? options->queue_state().get() : nullptr);
  auto &replay = rec.replay_by<reference_replay>(
      site, reference_replay::kind_name, [] { return std::make_unique<reference_replay>(); });
  for (std::size_t i = 0; i < n; ++i)
    if (uses[i].block)
      rec.use(site, const_cast<storage *>(static_cast<const storage *>(uses[i].block)),
              uses[i].writable, false);
  replay.keep(site, [run, held = std::make_tuple(replay_arg<A>(args)...)]() mutable {
    std::apply([&](auto &...h) { run(h.get()...); }, held);
  });
}

/// The recording this thread makes (dp::record) keeps the untranslated
/// call-site `call`, if one is made: that recording, and the caller does
/// not run the call-site; null otherwise. `uses()` gives its arguments'
/// uses of data, the first `n` of which count (asked only then, so a
/// call-site made now pays nothing more); `run(args...)` is called at
/// each replay.
template <class Uses, class Run, class... A>
recording *kept_in_recording(const call_info &call, const exec_options *options, Uses uses,
                             std::size_t n, Run run, A &...args) {
  recording *rec = recording::active();
  if (rec) {
    const auto u = uses();
    keep_for_replay(*rec, call, options, u.data(), n, run, args...);
  }
  return rec;
}

/// kept_in_recording, true when the call-site was kept.
template <class Uses, class Run, class... A>
bool kept_for_replay(const call_info &call, const exec_options *options, Uses uses,
                     std::size_t n, Run run, A &...args) {
  return kept_in_recording(call, options, uses, n, run, args...) != nullptr;
}

/// kept_for_replay for a full reduce, which combines into `result` at each
/// replay (access to it waits for them).
template <class T, class Uses, class Run, class... A>
bool kept_reduce_for_replay(const call_info &call, const exec_options *options,
                            scalar<T> &result, Uses uses, std::size_t n, Run run, A &...args) {
  recording *rec = kept_in_recording(call, options, uses, n, run, args...);
  if (rec)
    rec->writes(call.name(), result);
  return rec != nullptr;
}

/// kept_for_replay for a call-site over pencils (reduce<Dim>, scan<Dim>):
/// the kernel's arguments as it uses them, and the result field written.
template <int N, class Run, class Domain, class R, class Result, class F, class... Args>
bool kept_pencils_for_replay(const call_info &call, const exec_options *options, Run run,
                             const Domain &domain, R &r, Result &result, F &f, Args &...args) {
  const auto uses = [&] {
    auto u = bound_kernel<N, F, Args...>::uses(args...);
    u.back() = {field_access::owner(result), true};
    return u;
  };
  return kept_for_replay(call, options, uses, sizeof...(Args) + 1, run, domain, r, result, f,
                         args...);
}

} // namespace dp::detail
