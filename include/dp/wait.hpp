/// \file
/// dp::wait_all(): waiting for every launch still running.
#pragma once

namespace dp {

/// Waits until every launch enqueued so far has finished, on every queue;
/// throws the first error of one that no wait has reported yet (a dp::error
/// naming the call-site that launched it). Call-sites may return before
/// their work is done; host access to the data they use waits by itself,
/// so this is for timing, and for errors nothing else would report.
///
///     dp::forall(g, kernel, a);   // may return before the device is done
///     dp::wait_all();             // it is done now
void wait_all();

namespace rt::detail {
/// What wait_all() calls: each executor registers its wait when it is made
/// (a handful in a process; wait_all() copies nothing to call them).
void on_wait_all(void (*wait)());
} // namespace rt::detail

} // namespace dp
