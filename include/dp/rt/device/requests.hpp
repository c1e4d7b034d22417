/// \file
/// The shape of a call-site's device work, recorded: every kernel launch
/// (the rank of the positions its threads compute, its dispatch mode, its
/// launches and threads) and every vendor algorithm (which one, whether it
/// reads a raw pointer or which iterator, how many items of what size).
/// What a GPU pays for shows here on a CPU, on the emulated device (which
/// makes the same requests a GPU's layer makes): a test can assert that a
/// dense full reduce is one vendor reduce over a pointer, or that a rank-6
/// forall over whole fields is one launch of rank-1 threads, long before a
/// GPU run.
///
///     dp::rt::request_log log; // records while it lives
///     dp::reduce(...);
///     for (const dp::rt::device_request &r : log.requests()) ...
///
/// Recording costs one atomic load per request when no log lives.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "partial_results.hpp"

#include "../stub/iterators.hpp"

namespace dp::rt {

/// One request of a call-site to the device layer.
struct device_request {
  enum class kind { kernel, vendor };
  kind what_kind = kind::kernel;
  std::string site;   ///< the call-site ("dp::reduce at file.cpp:12:5")
  std::string what;   ///< a kernel's name ("stub", "tiled stub", ...) or a vendor algorithm's
  std::string input;  ///< vendor: "pointer", or the iterator's view ("values at row positions<2>")
  std::string output; ///< vendor, where noted: "pointer", or the writer ("position writer")
  int rank = 0;       ///< kernel: the rank of the positions its threads compute
  dispatch_mode mode = no_mode; ///< kernel: the dispatch mode (docs/runtime.md)
  std::int64_t launches = 0;    ///< kernel: launches of the plan
  std::int64_t threads = 0;     ///< kernel: physical threads over every launch
  std::int64_t items = 0;       ///< kernel: its plan's points (tiles when tiled); vendor: items
  std::size_t item_bytes = 0;   ///< vendor: bytes of one input item as read
  /// Points of the call-site's domain whose values it reads: its domain's
  /// size for a pass over the data, 0 for a pass over partial results
  /// (passes over the data = the sum over the call-site's requests / its
  /// domain's size).
  std::int64_t data_points = 0;
  /// Kernel, a chained scan: tiles chained along the scanned dimension
  /// (each waits for the carry of those before it), and how many of them
  /// a tile's look-back reads at once.
  std::int64_t chained_tiles = 0;
  std::int64_t look_back_window = 0;
  /// Kernel: bytes of the data a thread loads at once, when it loads the
  /// elements itself (a vector over dense rows); 0 when the map loads
  /// them, one element at a time.
  std::size_t load_bytes = 0;
  /// Kernel, a tiled reduce's fold: tiles side by side in one group.
  std::int64_t tiles_per_group = 0;
};

/// What a kernel's request says beyond its plan (device_request).
struct kernel_notes {
  std::int64_t chained_tiles = 0;
  std::int64_t look_back_window = 0;
  std::size_t load_bytes = 0;
  std::int64_t tiles_per_group = 0;
};

class request_log;

namespace detail {
inline std::atomic<request_log *> &active_request_log() {
  static std::atomic<request_log *> log{nullptr};
  return log;
}
} // namespace detail

/// Records every device request made while it lives (one log at a time;
/// requests from any thread).
class request_log {
public:
  request_log() { detail::active_request_log().store(this, std::memory_order_release); }
  ~request_log() { detail::active_request_log().store(nullptr, std::memory_order_release); }
  request_log(const request_log &) = delete;
  request_log &operator=(const request_log &) = delete;

  /// Every request so far, in the order they were made.
  std::vector<device_request> requests() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_;
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    requests_.clear();
  }
  void add(device_request r) {
    std::lock_guard<std::mutex> lock(mutex_);
    requests_.push_back(std::move(r));
  }

private:
  mutable std::mutex mutex_;
  std::vector<device_request> requests_;
};

/// True while a request_log lives.
inline bool logging_requests() {
  return detail::active_request_log().load(std::memory_order_acquire) != nullptr;
}

/// Adds a request to the living log, if any.
inline void note_request(device_request r) {
  if (request_log *log = detail::active_request_log().load(std::memory_order_acquire))
    log->add(std::move(r));
}

/// How a vendor algorithm's input reads, by its type: "pointer" for a raw
/// pointer, else the view an offset_iterator wraps (input_view_name,
/// specialised below for each view of stub/iterators.hpp).
template <class View> struct input_view_name {
  static std::string get() { return "iterator"; }
};
template <class View> struct input_view_name<offset_iterator<View>> {
  static std::string get() { return input_view_name<View>::get(); }
};
template <class T, class Map, class Positions>
struct input_view_name<mapped_values<T, Map, Positions>> {
  static std::string get() { return "values at " + input_view_name<Positions>::get(); }
};
template <class T, class Map, class Positions>
struct input_view_name<present_values<T, Map, Positions>> {
  static std::string get() { return "present values at " + input_view_name<Positions>::get(); }
};
template <int N> struct input_view_name<row_positions<N>> {
  static std::string get() { return "row positions<" + std::to_string(N) + ">"; }
};
template <int Rc, class E> struct input_view_name<element_positions<Rc, E>> {
  static std::string get() { return "elements"; }
};
template <int N> struct input_view_name<linear_positions<N>> {
  static std::string get() { return "linear positions<" + std::to_string(N) + ">"; }
};
template <int N, int Dim> struct input_view_name<pencil_positions<N, Dim>> {
  static std::string get() {
    return "pencil positions<" + std::to_string(N) + ", " + std::to_string(Dim) + ">";
  }
};
template <int N, int Dim> struct input_view_name<pencil_keys<N, Dim>> {
  static std::string get() {
    return "pencil keys<" + std::to_string(N) + ", " + std::to_string(Dim) + ">";
  }
};

/// An iterator's type as a plain one: a restrict-qualified pointer (a
/// projection's base, DP_RESTRICT) is the pointer.
template <class It> struct unrestricted { using type = It; };
template <class T> struct unrestricted<T *DP_RESTRICT> { using type = T *; };
template <class It> using unrestricted_t = typename unrestricted<std::decay_t<It>>::type;

/// "pointer" for a raw pointer (restrict-qualified or not), else what Name
/// says of the iterator.
template <template <class> class Name, class It> std::string pointer_or() {
  using I = unrestricted_t<It>;
  if constexpr (std::is_pointer<I>::value)
    return "pointer";
  else
    return Name<I>::get();
}
template <class In> std::string input_name() { return pointer_or<input_view_name, In>(); }

/// How a vendor algorithm's output writes, by its type: "pointer" for a
/// raw pointer (stores the vendor may vectorise), else the writer.
template <class Out> struct output_view_name {
  static std::string get() { return "iterator"; }
};
template <class T, class Positions, int N> struct output_view_name<position_writer<T, Positions, N>> {
  static std::string get() { return "position writer"; }
};
template <int N, int Dim, class T, class Op, class V>
struct output_view_name<pencil_result_writer<N, Dim, T, Op, V>> {
  static std::string get() { return "combining writer"; }
};
template <class Out> std::string output_name() { return pointer_or<output_view_name, Out>(); }

/// The call-site's data points among `n` values of `Map`.
template <class Map> std::int64_t data_points_of(std::int64_t n) {
  return partial_results<Map>::value ? 0 : n;
}

/// A vendor algorithm's request: `n` items read through `In` (and written
/// through `Out`, when given), of which `data_points` are the call-site's
/// data.
template <class In, class Out = void>
void note_vendor(const std::string &site, const char *algorithm, std::int64_t n,
                 std::int64_t data_points) {
  if (!logging_requests())
    return;
  device_request r;
  r.what_kind = device_request::kind::vendor;
  r.site = site;
  r.what = algorithm;
  r.input = input_name<In>();
  if constexpr (!std::is_void<Out>::value)
    r.output = output_name<Out>();
  r.items = n;
  r.item_bytes = sizeof(typename std::iterator_traits<unrestricted_t<In>>::value_type);
  r.data_points = data_points;
  note_request(std::move(r));
}

/// A one-dimensional kernel over `n` items, a thread each (the gathers and
/// scatters around a sort), reading `data_points` of the call-site's data.
inline void note_stride_kernel(const std::string &site, const char *kernel, std::int64_t n,
                               std::int64_t data_points) {
  if (!logging_requests())
    return;
  device_request r;
  r.site = site;
  r.what = kernel;
  r.rank = 1;
  r.launches = 1;
  r.threads = n;
  r.items = n;
  r.data_points = data_points;
  note_request(std::move(r));
}

/// A kernel's request: a plan of rank-R positions (any launch_plan) of
/// groups of `shape` threads (a tiled launch's are not its plan's) that
/// read `data_points` of the call-site's data, and its notes.
template <int R, class Plan>
void note_kernel(const std::string &site, const char *kernel, const Plan &plan,
                 const std::array<std::int64_t, 3> &shape, std::int64_t data_points,
                 const kernel_notes &notes = {}) {
  if (!logging_requests())
    return;
  device_request r;
  r.chained_tiles = notes.chained_tiles;
  r.look_back_window = notes.look_back_window;
  r.load_bytes = notes.load_bytes;
  r.tiles_per_group = notes.tiles_per_group;
  r.site = site;
  r.what = kernel;
  r.rank = R;
  r.mode = plan.mode;
  r.launches = static_cast<std::int64_t>(plan.pieces.size());
  const std::int64_t per_group = shape[0] * shape[1] * shape[2];
  for (const auto &piece : plan.pieces)
    r.threads += piece.groups[0] * piece.groups[1] * piece.groups[2] * per_group;
  r.items = 1;
  for (int d = 0; d < R; ++d)
    r.items *= plan.domain[d];
  r.data_points = data_points;
  note_request(std::move(r));
}

} // namespace dp::rt
