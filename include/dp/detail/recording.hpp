/// \file
/// What dp::record keeps (graph.hpp): the call-sites a function made on
/// one queue, checked and kept in order instead of run, with the data they
/// use, so that a replay is one launch for the rules of dependencies and
/// coherence. Who kept them replays them: a generated stub's executor (a
/// device graph or a host queue's tasks, by the recorders of rt/device/
/// recorder.hpp and rt/host/recorder.hpp) or the host
/// reference of untranslated call-sites (reference/record_call.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "../scalar.hpp"
#include "completion.hpp"
#include "source_site.hpp"
#include "storage.hpp"

namespace dp::detail {

class queue_state;
class recording;

/// scalar_access::later with the scalar's type erased: how a replay makes
/// access to a dp::scalar<T> it writes wait for it.
template <class T> void later_erased(void *s, const pending &done) {
  scalar_access::later(*static_cast<dp::scalar<T> *>(s), done);
}

/// How a recording's call-sites are replayed: made by the first call-site
/// recorded, which also starts whatever keeps them (a stream capture).
class replayer {
public:
  virtual ~replayer() = default;
  /// What kind of replay this is ("a device graph", "host tasks", ...):
  /// two kinds in one recording are a dp::error.
  virtual const char *kind() const = 0;
  /// The recording is over: what kept its call-sites stops (the capture
  /// ends, the graph is built). `failed`: it ended by an error.
  virtual void end(bool failed) = 0;
  /// One replay on `target` (the recording's queue, or another).
  virtual void run(recording &r, queue_state &target) = 0;
};

/// The recording one dp::record makes.
class recording {
public:
  recording(std::shared_ptr<queue_state> queue, source_site at);
  ~recording();
  recording(const recording &) = delete;
  recording &operator=(const recording &) = delete;

  /// The recording this thread is making, if any.
  static recording *active() noexcept;
  /// "dp::record at file.cpp:30": how errors name it.
  const std::string &name() const { return name_; }
  queue_state &queue() const { return *queue_; }
  /// The recording's replayer, made by `make` for the first call-site;
  /// a dp::error naming `site` when it is of another kind than `kind`.
  template <class R, class Make> R &replay_by(const std::string &site, const char *kind, Make &&make) {
    if (!replayer_) {
      replayer_ = make();
      return static_cast<R &>(*replayer_);
    }
    if (std::string(replayer_->kind()) != kind)
      mixed(site, kind);
    return static_cast<R &>(*replayer_);
  }

  /// A call-site named `site` on the queue `q` (null: the default queue)
  /// is recorded: a dp::error unless q is the recording's.
  void call_site(const std::string &site, const queue_state *q);
  /// `site` uses `block`, writing it or not: a replay makes its copy
  /// current and orders itself after other queues' work on it, and host
  /// access to a block it writes is a dp::error until the recording ends.
  /// `on_device`: the recording's graph addresses its device copy.
  void use(const std::string &site, storage *block, bool writes, bool on_device);
  /// `site` combines into `s`: access to s waits for each replay, and is a
  /// dp::error while the recording is made.
  template <class T> void writes(const std::string &site, dp::scalar<T> &s) {
    for (const scalar_use &u : scalars_)
      if (u.scalar == &s)
        return;
    scalar_access::later(s, guard(site, "a dp::scalar"));
    scalars_.push_back({&s, &later_erased<T>,
                        [](void *p) { scalar_access::forget(*static_cast<dp::scalar<T> *>(p)); }});
  }
  /// A dp::error: `what` (a wait, a nested recording) is not allowed while
  /// the recording is made.
  [[noreturn]] void refuse(const std::string &what) const;
  /// refuse(what) when this thread makes a recording.
  static void refuse_if_active(const char *what);
  /// The recording a call-site named `site` on the queue `q` (null: the
  /// default queue) goes into, or null when this thread makes none; a
  /// dp::error (call_site) unless q is the recording's.
  static recording *of_call_site(const std::string &site, const queue_state *q);

  /// For replayers: the blocks used (writes: by some call-site) and the
  /// scalars written, with how to make access to one wait for a replay.
  struct block_use {
    storage *block;
    bool writes;
    bool on_device;
  };
  struct scalar_use {
    void *scalar;
    void (*later)(void *, const pending &);
    void (*unguard)(void *);
  };
  const std::vector<block_use> &blocks() const { return blocks_; }
  const std::vector<scalar_use> &scalars() const { return scalars_; }
  /// How many call-sites were recorded.
  std::size_t size() const { return sites_; }

  /// Starts recording on this thread (a dp::error inside another one).
  void begin();
  /// Stops it: what kept the call-sites ends, host access is free again.
  void end(bool failed);
  /// One replay on `target`; a dp::error inside a recording.
  void run(queue_state &target);

private:
  [[noreturn]] void mixed(const std::string &site, const char *kind) const;
  /// A completion whose wait is the dp::error of host access to what
  /// `site` writes (`what`: "a field", "a dp::scalar").
  pending guard(const std::string &site, const char *what) const;

  std::shared_ptr<queue_state> queue_;
  std::string name_;
  std::unique_ptr<replayer> replayer_;
  std::vector<block_use> blocks_;
  std::vector<storage_ref> kept_; ///< the blocks, kept alive with the recording
  std::vector<scalar_use> scalars_;
  std::size_t sites_ = 0;
  bool recording_ = false;
};

} // namespace dp::detail
