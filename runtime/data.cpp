// Data regions (data.hpp): which live region holds which data block, the
// checks on their clauses, and the transfers at their ends.

#include <dp/data.hpp>
#include <dp/error.hpp>
#include <dp/rt/profile.hpp>

#include <atomic>
#include <exception>
#include <map>
#include <mutex>

namespace dp::detail {

namespace {

/// One data block held by live regions: the clause they hold it with, and
/// how many do (nested regions naming it the same way).
struct hold {
  data_kind kind;
  int regions;
};

struct region_registry {
  std::mutex mutex;
  std::map<const storage *, hold> held;
};
region_registry &registry() {
  static region_registry r;
  return r;
}

const device_data_ops *(*&device_data_source())() {
  static const device_data_ops *(*which)() = nullptr;
  return which;
}

/// Where a clause's field is: "copy(c, #2)" for a region's clause text.
std::string clause_text(const std::vector<data_clause> &clauses) {
  std::string s = "dp::data_region(";
  for (std::size_t c = 0; c < clauses.size(); ++c) {
    s += (c ? ", " : "") + std::string(data_kind_name(clauses[c].kind)) + "(";
    for (std::size_t f = 0; f < clauses[c].blocks.size(); ++f)
      s += (f ? ", #" : "#") + std::to_string(f + 1);
    s += ")";
  }
  return s + ")";
}

std::string position(const data_clause &c, std::size_t f) {
  return std::string(data_kind_name(c.kind)) + "'s field #" + std::to_string(f + 1);
}

} // namespace

const char *data_kind_name(data_kind k) {
  switch (k) {
  case data_kind::copyin:
    return "copyin";
  case data_kind::copy:
    return "copy";
  case data_kind::copyout:
    return "copyout";
  case data_kind::create:
    return "create";
  }
  return "?";
}

const device_data_ops *device_data() {
  const auto which = device_data_source();
  return which ? which() : nullptr;
}
void set_device_data(const device_data_ops *(*which)()) { device_data_source() = which; }

namespace {
std::atomic<host_memory_ref (*)()> &page_locked_source() {
  static std::atomic<host_memory_ref (*)()> source{nullptr};
  return source;
}
} // namespace

host_memory_ref page_locked_memory() {
  const auto source = page_locked_source().load(std::memory_order_acquire);
  return source ? source() : nullptr;
}
void set_page_locked_memory(host_memory_ref (*source)()) {
  page_locked_source().store(source, std::memory_order_release);
}

void open_region(const std::vector<data_clause> &clauses) {
  // Check everything before holding anything: a refused region holds nothing.
  std::vector<std::pair<storage *, data_kind>> opened;
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    std::map<const storage *, std::string> named;
    for (const data_clause &c : clauses)
      for (std::size_t f = 0; f < c.blocks.size(); ++f) {
        const storage *s = c.blocks[f].get();
        if (!s)
          continue; // a default-constructed field: no data to hold
        const std::string here = position(c, f);
        const auto [at, fresh] = named.emplace(s, here);
        if (!fresh)
          throw error(clause_text(clauses) + ": " + here + " is " + at->second +
                      " again (the same data, perhaps through a view): a region names a field once");
        const auto h = registry().held.find(s);
        if (h != registry().held.end() && h->second.kind != c.kind)
          throw error(clause_text(clauses) + ": " + here + " is held by a live region as " +
                      data_kind_name(h->second.kind) + "; a region inside it may name it only as " +
                      data_kind_name(h->second.kind) + " (or leave it out)");
      }
    for (const data_clause &c : clauses)
      for (const storage_ref &b : c.blocks)
        if (b.get()) {
          hold &h = registry().held.try_emplace(b.get(), hold{c.kind, 0}).first->second;
          if (++h.regions == 1)
            opened.emplace_back(b.get(), c.kind); // the outermost region moves its data
        }
  }
  const device_data_ops *ops = device_data();
  if (!ops)
    return; // call-sites run on the host: nothing to move
  static const std::string opening = "dp::data_region (opening)";
  const dp::rt::profile::site_scope charged(&opening); // a profile's row for its transfers
  try {
    for (const auto &[block, kind] : opened)
      if (kind == data_kind::copyin || kind == data_kind::copy)
        ops->to_device(*block, nullptr);
      else
        ops->assume_device(*block);
  } catch (...) {
    close_region(clauses); // the data stays where it was; the region holds nothing
    throw;
  }
}

void close_region(const std::vector<data_clause> &clauses) noexcept(false) {
  std::vector<std::pair<storage *, data_kind>> closed;
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    for (const data_clause &c : clauses)
      for (const storage_ref &b : c.blocks) {
        const auto h = b.get() ? registry().held.find(b.get()) : registry().held.end();
        if (h == registry().held.end())
          continue;
        if (--h->second.regions == 0) {
          registry().held.erase(h);
          closed.emplace_back(b.get(), c.kind);
        }
      }
  }
  const device_data_ops *ops = device_data();
  if (!ops)
    return;
  static const std::string closing = "dp::data_region (closing)";
  const dp::rt::profile::site_scope charged(&closing);
  // Every block is seen to; the first error (a launch that failed before
  // its data could come back) is thrown after, and that block keeps its
  // device copy: nothing is lost.
  std::exception_ptr first;
  for (const auto &[block, kind] : closed)
    try {
      if (kind == data_kind::copy || kind == data_kind::copyout)
        ops->to_host(*block, nullptr);
      block->release_device();
    } catch (...) {
      if (!first)
        first = std::current_exception();
    }
  if (first)
    std::rethrow_exception(first);
}

void update_host_block(storage *block, queue_state *q) {
  const device_data_ops *ops = device_data();
  if (!block)
    return;
  static const std::string update = "dp::update_host";
  const dp::rt::profile::site_scope charged(&update);
  if (ops)
    ops->to_host(*block, q);
  else if (!q)
    block->make_host_current(); // waits for a host queue's task writing it
}

void update_device_block(storage *block, queue_state *q) {
  static const std::string update = "dp::update_device";
  const dp::rt::profile::site_scope charged(&update);
  if (const device_data_ops *ops = device_data(); ops && block)
    ops->to_device(*block, q);
}

bool present_block(const storage *block) {
  if (!block)
    return false;
  if (device_data())
    return block->mirror() && block->device_current();
  std::lock_guard<std::mutex> lock(registry().mutex);
  return registry().held.count(block) != 0;
}

} // namespace dp::detail
