/// \file
/// The registry of borrowed memory (dp::borrow): which live blocks lie
/// over which of the caller's addresses.
#include "dp/borrow.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "dp/data.hpp"
#include "dp/detail/reused_vector.hpp"
#include "dp/error.hpp"

namespace dp::detail {
namespace {
/// The rows one written dp::borrowed_rows holds: `row_bytes` from each
/// of `starts` (sorted), all within [lo, hi); `rows`, `first` and
/// `offset` name the handle for its release.
struct rows_hold {
  const void *const *rows = nullptr;
  std::int64_t first = 0;
  std::size_t offset = 0, row_bytes = 0;
  std::uintptr_t lo = 0, hi = 0;
  /// (In memory an earlier handle's starts left: a grid's rows at every
  /// call-site would otherwise be fresh pages each time.)
  reused_vector<std::uintptr_t> starts{0};

  /// The first of its rows overlapping the `bytes` at `at`, or 0.
  std::uintptr_t over(std::uintptr_t at, std::size_t bytes) const {
    if (at >= hi || at + bytes <= lo)
      return 0;
    auto next = std::upper_bound(starts->begin(), starts->end(), at);
    if (next != starts->begin() && *std::prev(next) + row_bytes > at)
      return *std::prev(next);
    return next != starts->end() && *next < at + bytes ? *next : 0;
  }
};

struct borrowed_registry {
  std::mutex mutex;
  std::map<std::uintptr_t, storage *> blocks; ///< by first address; none empty
  /// Holds dp::enter_data took on the block starting at each address.
  std::map<std::uintptr_t, std::size_t> entered;
  /// The rows each written dp::borrowed_rows handle over rows apart holds
  /// (copies it may write back): one entry a handle, few alive at once.
  std::vector<rows_hold> gathered;
};
borrowed_registry &borrowed() {
  static borrowed_registry r;
  return r;
}
std::string hex(std::uintptr_t at) {
  std::ostringstream os;
  os << std::hex << at;
  return os.str();
}
std::string range_text(std::uintptr_t at, std::size_t bytes) {
  std::ostringstream os;
  os << "the " << bytes << " bytes at 0x" << std::hex << at;
  return os.str();
}

/// What the live blocks say of the `bytes` at `at` (the registry locked):
/// the block that serves them (holding all of them: OpenMP's present
/// table serves a section of a mapped range), else one that overlaps
/// them, else neither. Only the block starting last at or before the
/// range and the first starting inside it can overlap it.
struct fit {
  storage *serves = nullptr;
  std::uintptr_t overlap_at = 0;
  storage *overlaps = nullptr;
};
fit fit_of(const borrowed_registry &r, std::uintptr_t at, std::size_t bytes) {
  fit f;
  auto next = r.blocks.upper_bound(at);
  if (next != r.blocks.begin()) {
    auto before = std::prev(next);
    const std::uintptr_t end = before->first + before->second->bytes();
    if (at + bytes <= end && !before->second->has_gaps()) {
      f.serves = before->second;
      return f;
    }
    // A block over rows with others' memory between them holds nothing
    // but its rows: a range inside it overlaps it.
    if (end > at) {
      f.overlap_at = before->first;
      f.overlaps = before->second;
      return f;
    }
  }
  if (next != r.blocks.end() && next->first < at + bytes) {
    f.overlap_at = next->first;
    f.overlaps = next->second;
  }
  return f;
}

/// The block for a borrow no live block overlaps otherwise (f from
/// fit_of, the registry locked): the one that serves it, or a new one.
storage *adopt(borrowed_registry &r, void *p, std::size_t bytes, const fit &f) {
  if (f.serves) {
    f.serves->retain();
    return f.serves;
  }
  storage *s = storage::borrow(p, bytes);
  r.blocks.emplace(reinterpret_cast<std::uintptr_t>(p), s);
  return s;
}

} // namespace

namespace {
/// The gathered rows overlapping the `bytes` at `at` (the registry
/// locked): the first such row's address, or 0.
std::uintptr_t gathered_over(const borrowed_registry &r, std::uintptr_t at, std::size_t bytes) {
  for (const rows_hold &h : r.gathered)
    if (const std::uintptr_t row = h.over(at, bytes))
      return row;
  return 0;
}

/// Whether a live block overlaps the `bytes` at `at` (the registry
/// locked).
using block_iterator = std::map<std::uintptr_t, storage *>::const_iterator;
/// The first live block overlapping the `bytes` at `at` (the registry
/// locked): blocks from it on overlap them while they start before their
/// end. r.blocks.end() when none does.
block_iterator first_block_over(const borrowed_registry &r, std::uintptr_t at, std::size_t bytes) {
  auto it = r.blocks.upper_bound(at);
  if (it != r.blocks.begin() && std::prev(it)->first + std::prev(it)->second->bytes() > at)
    return std::prev(it);
  return it != r.blocks.end() && it->first < at + bytes ? it : r.blocks.end();
}
bool any_block_over(const borrowed_registry &r, std::uintptr_t at, std::size_t bytes) {
  return first_block_over(r, at, bytes) != r.blocks.end();
}

/// The rows' starts (`offset` bytes into each of rows[first .. end)), and
/// the span from the lowest to the highest one's end.
rows_hold span_of(const void *const *rows, std::int64_t first, std::int64_t end, std::size_t offset,
                  std::size_t row_bytes) {
  rows_hold h;
  h.rows = rows;
  h.first = first;
  h.offset = offset;
  h.row_bytes = row_bytes;
  std::vector<std::uintptr_t> &starts = *h.starts;
  starts.reserve(static_cast<std::size_t>(end - first));
  for (std::int64_t i = first; i < end; ++i)
    starts.push_back(reinterpret_cast<std::uintptr_t>(rows[i]) + offset);
  if (!std::is_sorted(starts.begin(), starts.end()))
    std::sort(starts.begin(), starts.end());
  if (!starts.empty()) {
    h.lo = starts.front();
    h.hi = starts.back() + row_bytes;
  }
  return h;
}
} // namespace

namespace {
/// borrow_block for `who` (the call the user wrote, which its error names).
storage *block_for(void *p, std::size_t bytes, const char *who, const char *verb) {
  if (bytes == 0)
    return storage::borrow(p, 0); // overlaps nothing
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  borrowed_registry &r = borrowed();
  std::lock_guard<std::mutex> lock(r.mutex);
  const fit f = fit_of(r, at, bytes);
  if (f.overlaps)
    throw error(std::string(who) + ": " + range_text(at, bytes) + " overlap " +
                range_text(f.overlap_at, f.overlaps->bytes()) +
                ", which a live field borrowed, without lying inside them; " + verb + " the whole range once");
  if (const std::uintptr_t row = gathered_over(r, at, bytes))
    throw error(std::string(who) + ": " + range_text(at, bytes) + " overlap the row at 0x" + hex(row) +
                ", which a live dp::borrowed_rows copied and will write back; borrow them once");
  return adopt(r, p, bytes, f);
}
} // namespace

void hold_gathered_rows(const void *const *rows, std::int64_t first, std::int64_t end, std::size_t offset,
                        std::size_t row_bytes) {
  if (row_bytes == 0 || end <= first)
    return;
  // One look at the registry for the rows' span; row by row only where
  // something lies in it.
  rows_hold h = span_of(rows, first, end, offset, row_bytes);
  borrowed_registry &r = borrowed();
  std::lock_guard<std::mutex> lock(r.mutex);
  const bool blocks = any_block_over(r, h.lo, h.hi - h.lo);
  const bool holds = gathered_over(r, h.lo, h.hi - h.lo) != 0;
  bool self = false; // two of its own rows overlap
  for (std::size_t k = 1; k < h.starts->size() && !self; ++k)
    self = (*h.starts)[k - 1] + row_bytes > (*h.starts)[k];
  if (!blocks && !holds && !self) {
    r.gathered.push_back(std::move(h));
    return;
  }
  std::string clash;
  std::int64_t i = first;
  for (; i < end && clash.empty(); ++i) {
    const auto at = reinterpret_cast<std::uintptr_t>(rows[i]) + offset;
    const fit f = fit_of(r, at, row_bytes);
    bool earlier = false; // a row of this handle before it overlaps it
    for (std::int64_t k = first; self && k < i && !earlier; ++k) {
      const auto other = reinterpret_cast<std::uintptr_t>(rows[k]) + offset;
      earlier = other < at + row_bytes && at < other + row_bytes;
    }
    if (f.serves || f.overlaps)
      clash = "a live field borrowed";
    else if (gathered_over(r, at, row_bytes) || earlier)
      clash = "a live dp::borrowed_rows (or this one, at another row) copied and will write back";
  }
  if (clash.empty()) {
    r.gathered.push_back(std::move(h));
    return;
  }
  throw error("dp::borrowed_rows: row " + std::to_string(i - 1) + ", " +
              range_text(reinterpret_cast<std::uintptr_t>(rows[i - 1]) + offset, row_bytes) + ", lies in memory " +
              clash +
              "; an array of rows the call-site writes cannot also be borrowed otherwise");
}

void release_gathered_rows(const void *const *rows, std::int64_t first, std::int64_t end,
                           std::size_t offset) noexcept {
  if (end <= first)
    return;
  borrowed_registry &r = borrowed();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto it = r.gathered.begin(); it != r.gathered.end(); ++it)
    if (it->rows == rows && it->first == first && it->offset == offset) {
      r.gathered.erase(it);
      return;
    }
}

storage *borrow_block(void *p, std::size_t bytes) { return block_for(p, bytes, "dp::borrow", "borrow"); }

storage *borrow_block_if_free(void *p, std::size_t bytes) { return borrow_rows_block_if_free(p, bytes, 0, 0); }

storage *borrow_rows_block_if_free(void *p, std::size_t bytes, std::size_t row_bytes, std::size_t pitch) {
  if (bytes == 0)
    return storage::borrow(p, 0);
  borrowed_registry &r = borrowed();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  const fit f = fit_of(r, at, bytes);
  if (f.overlaps || gathered_over(r, at, bytes))
    return nullptr;
  storage *s = adopt(r, p, bytes, f);
  if (s != f.serves) // new: its rows alone (a block serving the span keeps its data, gaps and all)
    s->set_rows(row_bytes, pitch);
  return s;
}

namespace {
/// The live blocks overlapping the `bytes` at `at`, each held (so that
/// they stay alive once the lock is gone).
std::vector<storage_ref> blocks_over(std::uintptr_t at, std::size_t bytes) {
  std::vector<storage_ref> over;
  borrowed_registry &r = borrowed();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto it = first_block_over(r, at, bytes); it != r.blocks.end() && it->first < at + bytes; ++it) {
    it->second->retain();
    over.emplace_back(it->second);
  }
  return over;
}
} // namespace

void host_current_over(const void *p, std::size_t bytes) {
  if (bytes == 0)
    return;
  for (const storage_ref &s : blocks_over(reinterpret_cast<std::uintptr_t>(p), bytes))
    s.get()->make_host_current(); // waits for its writer: outside the lock
}

void host_current_over_rows(const void *const *rows, std::int64_t first, std::int64_t end, std::size_t offset,
                            std::size_t row_bytes) {
  if (row_bytes == 0 || end <= first)
    return;
  std::uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (std::int64_t i = first; i < end; ++i) {
    const auto at = reinterpret_cast<std::uintptr_t>(rows[i]) + offset;
    lo = std::min(lo, at);
    hi = std::max(hi, at + row_bytes);
  }
  {
    borrowed_registry &r = borrowed();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!any_block_over(r, lo, hi - lo))
      return; // no block lies anywhere near them: one look for all
  }
  for (std::int64_t i = first; i < end; ++i)
    host_current_over(static_cast<const char *>(rows[i]) + offset, row_bytes);
}

void enter_borrowed(void *p, std::size_t bytes) {
  storage *s = block_for(p, bytes, "dp::enter_data", "enter"); // held: released by exit_borrowed
  borrowed_registry &r = borrowed();
  std::lock_guard<std::mutex> lock(r.mutex);
  ++r.entered[reinterpret_cast<std::uintptr_t>(s->host_data())];
}

void exit_borrowed(const void *p) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  storage *s = nullptr;
  {
    borrowed_registry &r = borrowed();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto held = r.entered.find(at);
    if (held == r.entered.end())
      return; // not entered: nothing to do (OpenACC's exit data of absent data)
    if (--held->second == 0)
      r.entered.erase(held);
    s = r.blocks.at(at); // an entered block lives while its holds do
  }
  release_borrowed(s); // the last handle writes the data back
}

void update_host_over(const void *p, std::size_t bytes, queue_state *q) {
  for (const storage_ref &s : blocks_over(reinterpret_cast<std::uintptr_t>(p), bytes))
    update_host_block(s.get(), q);
}

void update_device_over(const void *p, std::size_t bytes, queue_state *q) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  for (const storage_ref &s : blocks_over(at, bytes)) {
    // The part of the block the host wrote: where the range meets it.
    const auto first = reinterpret_cast<std::uintptr_t>(s.get()->host_data());
    const std::uintptr_t from = at > first ? at : first;
    const std::uintptr_t to = std::min<std::uintptr_t>(at + bytes, first + s.get()->bytes());
    s.get()->host_wrote_directly(from - first, to - from);
    update_device_block(s.get(), q);
  }
}

void borrowed_results_lost(const void *p, std::size_t bytes, const char *why) noexcept {
  std::fprintf(stderr, "dp: error: the results for %s (dp::borrow) could not be written back: %s\n",
               range_text(reinterpret_cast<std::uintptr_t>(p), bytes).c_str(), why);
  std::abort();
}

void release_borrowed(storage *s) noexcept {
  {
    borrowed_registry &r = borrowed();
    std::lock_guard<std::mutex> lock(r.mutex); // no borrow_block shares it meanwhile
    if (!s->drop())
      return;
    if (s->bytes() > 0)
      r.blocks.erase(reinterpret_cast<std::uintptr_t>(s->host_data()));
  }
  storage::destroy(s); // writes the data back, outside the lock
}

} // namespace dp::detail
