/// \file
/// What a call-site's enqueued work uses, for an executor to settle once
/// the work is enqueued: each data block it touched records the work's
/// completion (as its writer or as a reader, so host access waits for
/// exactly what it needs), and each dp::scalar it delivers to waits for it.
#pragma once


#include "../detail/completion.hpp"
#include "../detail/small_vector.hpp"
#include "../detail/storage.hpp"
#include "../scalar.hpp"

namespace dp::rt {

class launch_uses {
public:
  /// The work uses `block`, writing it or not.
  void note(dp::detail::storage *block, bool writes) {
    for (touch &t : touched_)
      if (t.block == block) {
        t.writes = t.writes || writes;
        return;
      }
    touched_.push_back({block, writes});
  }
  /// The work delivers a result into `s`: access to it waits for the work.
  template <class T> void delivers(dp::scalar<T> &s) {
    scalars_.push_back({&s, [](void *p, const dp::detail::pending &done) {
                          dp::detail::scalar_access::later(*static_cast<dp::scalar<T> *>(p), done);
                        }});
  }
  /// The work delivers into `s` behind the work s waits for now, on the
  /// same queue: access to it waits for this work instead, with no wait.
  template <class T> void delivers_after(dp::scalar<T> &s) {
    scalars_.push_back({&s, [](void *p, const dp::detail::pending &done) {
                          dp::detail::scalar_access::replace(*static_cast<dp::scalar<T> *>(p), done);
                        }});
  }
  /// The work is enqueued and `done` is its completion (null: it ran
  /// already, and nothing waits): every use records it. `on_device`: the
  /// blocks it writes are written on the device.
  void settle(const dp::detail::pending &done, bool on_device) {
    if (done) {
      for (const touch &t : touched_)
        if (t.writes)
          t.block->launch_writes(done, on_device);
        else
          t.block->launch_reads(done);
      for (const later_scalar &s : scalars_)
        s.set(s.scalar, done);
    }
    touched_.clear();
    scalars_.clear();
  }

private:
  struct touch {
    dp::detail::storage *block;
    bool writes;
  };
  struct later_scalar {
    void *scalar;
    void (*set)(void *, const dp::detail::pending &);
  };
  dp::detail::small_vector<touch, 16> touched_;
  dp::detail::small_vector<later_scalar, 2> scalars_;
};

} // namespace dp::rt
