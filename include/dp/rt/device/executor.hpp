/// \file
/// The executor of a device: the GPU (through the vendor layer, gpu/device.hpp)
/// or the emulated device (emulated/device.hpp: host memory standing in for
/// device memory, a task queue for the stream). Everything here is plain
/// host code over the device layer's narrow interface (raw allocate and
/// free, copies, launches, events, vendor primitives), so the bookkeeping a
/// GPU runs (cached memory, field mirrors, completions, counters) runs and
/// is tested on the emulated device too.
///
/// A Device layer provides (each queue_type holds a dp::detail::marks_slot
/// `marks`):
///   queue_type                          an in-order queue (a stream)
///   queue_type &default_queue()
///   static void *allocate(size_t)       raw device memory; dp::error when out
///   static void deallocate(void *)
///   static void *pinned_allocate(size_t)   raw page-locked host memory
///   static void pinned_deallocate(void *)
///   void copy_to_host(queue, host, dev, bytes, registered)    blocks until done
///   bool copy_to_device(queue, dev, host, bytes, registered)  true: reads host memory until the queue gets there
///   bool register_host(host, bytes), unregister_host(host)    page-locks a field's host memory in place
///                                       (the path each copy takes: device/transfers.hpp)
///   void copy_to_pinned(queue, slot, dev, bytes)         enqueued (slot: page-locked)
///   void copy_within(queue, to, from, bytes)             enqueued, device memory to device memory
///   void zero_fill(queue, dev, bytes)                    enqueued, device memory set to zeros
///   event_type, new_event(), destroy_event(e), record_event(queue, e),
///   event_done(e), event_wait(e, site), event_wait_quietly(e),
///   queue_wait(queue, e)                events, as device/marks.hpp uses them
///   void host_wait_in(queue, pending)   the queue follows work of no device of its kind
///   void synchronize(queue, site)       the host waits for the queue's work
///   void synchronize_quietly()          every queue's work done, errors ignored (at exit)
///   site_range                          a call-site's profiler range (NVTX), made from its name
///   device_limits limits()
/// and the launches and vendor primitives the device patterns call.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../../detail/completion.hpp"
#include "../../detail/pool.hpp"
#include "../../detail/small_vector.hpp"
#include "../../detail/storage.hpp"
#include "../counters.hpp"
#include "../launch_uses.hpp"
#include "marks.hpp"
#include "../profile.hpp"
#include "../stub/dispatch.hpp"
#include "../plan/plan.hpp"
#include "../stub/table.hpp"
#include "../../wait.hpp"
#include "memory.hpp"
#include "transfers.hpp"

namespace dp::rt {

/// One device's state: its layer (queues, vendor handles), its cache of
/// device memory, its cache of page-locked slots for results read back and
/// its cache of page-locked memory for fields' host copies.
/// Shared by the executor, every mirror and every read-back in flight, so
/// a field destroyed after the executor (a static one) still gives its
/// memory back to a live cache. When the last holder goes, every queue's
/// work is waited for and everything cached is freed: a block still
/// allocated then was never given back (report_memory_at_exit).
template <class Device> struct device_state {
  Device device;
  block_cache cache{&Device::allocate, &Device::deallocate, counter::device_bytes};
  block_cache pinned{&Device::pinned_allocate, &Device::pinned_deallocate, counter::pinned_bytes};
  /// Fields' host memory: sizes as asked above 64 KiB (a field is not
  /// rounded up to twice its size), and at most 1 GiB kept idle.
  block_cache host_blocks{&Device::pinned_allocate, &Device::pinned_deallocate,
                          counter::pinned_bytes, std::size_t(1) << 16, std::size_t(1) << 30};
  device_state() = default;
  device_state(const device_state &) = delete;
  device_state &operator=(const device_state &) = delete;
  ~device_state() {
    device.synchronize_quietly();
    host_blocks.trim();
    pinned.trim();
    cache.trim();
  }
};

/// Fields' page-locked host memory (dp::detail::host_memory), from the
/// device's cache. Each block it gives holds the device's state, so a
/// field outliving the executor (a static one) still gives its memory back
/// to a live cache.
template <class Device> class page_locked_blocks final : public dp::detail::host_memory {
public:
  explicit page_locked_blocks(std::shared_ptr<device_state<Device>> state)
      : state_(std::move(state)) {}
  void *allocate(std::size_t bytes) noexcept override {
    try {
      return state_->host_blocks.allocate(bytes, nullptr);
    } catch (...) { // the driver said no: the block comes from the C heap
      return nullptr;
    }
  }
  void deallocate(void *p, std::size_t) noexcept override {
    state_->host_blocks.release(p, nullptr, nullptr);
  }
  /// Handed out again (to the host: no queue's work follows the copy)
  /// once the copy is done.
  void deallocate_after(void *p, std::size_t, const dp::detail::pending &reading) noexcept override {
    state_->host_blocks.release(p, &state_->host_blocks, reading);
  }

private:
  std::shared_ptr<device_state<Device>> state_;
};

/// Once a device's state is gone: device and page-locked memory still
/// allocated is a leak of the runtime's, said on stderr; with
/// DP_TRACE_DISPATCH=1 the line is printed when there is none too, so a
/// test can require it (a program whose state never goes prints nothing).
inline void report_memory_at_exit(const char *device) {
  const counts now = counters();
  const std::int64_t dev = now[counter::device_bytes];
  const std::int64_t pinned = now[counter::pinned_bytes] + now[counter::registered_bytes];
  if (dev != 0 || pinned != 0)
    std::fprintf(stderr,
                 "dp: %s: %lld bytes of device memory and %lld bytes of page-locked memory "
                 "were never given back\n",
                 device, static_cast<long long>(dev), static_cast<long long>(pinned));
  if (detail::tracing())
    std::fprintf(stderr, "dp-memory: %s at exit: %lld device bytes, %lld pinned bytes live\n",
                 device, static_cast<long long>(dev), static_cast<long long>(pinned));
}

/// A result copied from the device into a page-locked slot on a queue, and
/// from the slot into host memory by the first wait. The slot belongs to
/// the completion: however it ends (waited for, or dropped unwaited when a
/// later write replaces it as a block's writer), its destructor gives the
/// slot back, free for other queues once the copy is done.
template <class Device> class read_back_completion final : public dp::detail::completion {
public:
  read_back_completion(std::shared_ptr<device_state<Device>> state, dp::detail::pending copied,
                       const void *queue, void *slot, void *host, std::size_t bytes)
      : state_(std::move(state)), copied_(std::move(copied)), queue_(queue), slot_(slot),
        host_(host), bytes_(bytes) {}
  ~read_back_completion() override { state_->pinned.release(slot_, queue_, copied_); }
  read_back_completion(const read_back_completion &) = delete;
  read_back_completion &operator=(const read_back_completion &) = delete;

  void wait() override {
    if (!delivered_) {
      copied_->wait();
      deliver();
    }
  }
  void wait_quietly() noexcept override {
    if (!delivered_) {
      copied_->wait_quietly();
      deliver();
    }
  }
  void wait_at_end() noexcept override {
    if (!delivered_) {
      copied_->wait_at_end();
      deliver();
    }
  }
  bool done() const override { return delivered_ || copied_->done(); }
  const void *queue() const override { return queue_; }
  const completion *device_work() const override { return copied_->device_work(); }

private:
  void deliver() noexcept {
    std::memcpy(host_, slot_, bytes_);
    delivered_ = true;
  }
  std::shared_ptr<device_state<Device>> state_;
  dp::detail::pending copied_;
  const void *queue_;
  void *slot_, *host_;
  std::size_t bytes_;
  bool delivered_ = false;
};

/// The completion of the work enqueued on `queue` so far: a mark
/// (device/marks.hpp), which records an event only once somebody needs
/// one. `site` (a literal or a call-site's name) names it in errors.
template <class Device>
dp::detail::pending mark_in(Device &device, typename Device::queue_type &queue, const char *site) {
  mark_book<Device> &book = marks_of(device, queue);
  return dp::detail::make_pooled<mark<Device>>(book, &queue, book.mark(), site);
}

/// A field's data block on a device: a block of the device's cache, filled
/// and read back through the device's queue.
template <class Device> class cached_mirror final : public dp::detail::device_mirror {
public:
  /// A block taken for work on `first` (the queue of the launch that made
  /// the mirror): the cache hands out what that queue may use at once.
  /// `locked`: the block's host memory is page-locked from the start.
  cached_mirror(std::shared_ptr<device_state<Device>> state, std::size_t bytes,
                typename Device::queue_type &first, bool locked)
      : state_(std::move(state)), queue_(&state_->device.default_queue()),
        data_(state_->cache.allocate(bytes > 0 ? bytes : 1, &first)), locked_(locked) {}
  /// The storage waits for every transfer before it deletes its mirror,
  /// and for the launches using the block unless free_behind gave it back.
  ~cached_mirror() override {
    if (registered_) {
      state_->device.unregister_host(registered_);
      count(counter::registered_bytes, -static_cast<std::int64_t>(registered_bytes_));
    }
    state_->cache.release(data_, queue_, nullptr);
  }
  void *device_data() const override { return data_; }
  void copy_to_host(void *host, std::size_t bytes) override { copy_to_host_on(*queue_, host, bytes); }
  void copy_rows_to_host(void *host, std::size_t row_bytes, std::size_t pitch, std::size_t rows) override {
    copy_rows_to_host_on(*queue_, host, row_bytes, pitch, rows);
  }
  bool copy_to_host_after(void *host, std::size_t bytes,
                          const dp::detail::completion &writer) override {
    return after(writer, [&](typename Device::queue_type &q) { copy_to_host_on(q, host, bytes); });
  }
  bool copy_rows_to_host_after(void *host, std::size_t row_bytes, std::size_t pitch, std::size_t rows,
                               const dp::detail::completion &writer) override {
    return after(writer, [&](typename Device::queue_type &q) { copy_rows_to_host_on(q, host, row_bytes, pitch, rows); });
  }
  /// copy(q) on a queue q of the device that runs it behind `writer`'s
  /// launch; false, with nothing done, where none can.
  template <class Copy> bool after(const dp::detail::completion &writer, const Copy &copy) {
    const auto *m = dynamic_cast<const mark<Device> *>(writer.device_work());
    if (!m || m->known_done())
      return false;
    // On the writer's queue where it is that queue's last work. Behind
    // later work there the copy would wait for that too: it goes on the
    // default queue instead, following the writer by an event on the
    // device (the default queue's own later work it follows anyway),
    // where an event recorded already marks the writer's place. A queue's
    // events are recorded when needed, covering all its work so far, so
    // one recorded now would follow the later work as well: then the copy
    // waits behind that work on the writer's queue, with no event.
    typename Device::queue_type *q = nullptr;
    if (m->queue() == static_cast<const void *>(queue_)) {
      q = queue_;
    } else if (!(q = m->queue_if_last())) {
      if (m->followed_alone()) {
        m->follow_in(*queue_); // an event wait on the device, not a host wait
        q = queue_;
      } else if (!(q = m->open_queue())) {
        return false;
      }
    }
    copy(*q);
    m->done_by_later_wait();
    return true;
  }
  bool free_behind(const dp::detail::pending &writer, const dp::detail::pending &fill,
                   const std::vector<dp::detail::pending> &readers) noexcept override {
    // The last of the work still using the block, where all of it is this
    // device's marks on one queue.
    const dp::detail::pending *last = nullptr;
    const mark<Device> *last_mark = nullptr;
    bool one_queue = true;
    auto consider = [&](const dp::detail::pending &p) {
      if (!p || !one_queue)
        return;
      const auto *m = dynamic_cast<const mark<Device> *>(p->device_work());
      if (m && m->known_done())
        return;
      if (!m || (last_mark && last_mark->queue() != m->queue())) {
        one_queue = false;
        return;
      }
      if (!last_mark || last_mark->place() < m->place()) {
        last = &p;
        last_mark = m;
      }
    };
    consider(writer);
    consider(fill);
    for (const dp::detail::pending &r : readers)
      consider(r);
    if (!one_queue)
      return false;
    if (last)
      state_->cache.release(data_, last_mark->queue(), *last);
    else
      state_->cache.release(data_, queue_, nullptr);
    data_ = nullptr;
    return true;
  }
  /// A new block filled from this one on the device: on the writer's
  /// queue, which runs it after the writer (the default queue where
  /// nothing still writes). A writer that is no work of this device (a
  /// host task) leaves it to the host's copy.
  dp::detail::device_mirror *copy_on_device(std::size_t bytes, const dp::detail::pending &writer, bool locked,
                                            dp::detail::pending &copied) override {
    typename Device::queue_type *q = queue_;
    if (writer && !writer->done()) {
      const auto *m = dynamic_cast<const mark<Device> *>(writer->device_work());
      if (!m)
        return nullptr;
      if (!m->known_done() && !(q = m->open_queue()))
        return nullptr; // its queue is gone
    }
    auto to = std::make_unique<cached_mirror>(state_, bytes, *q, locked);
    state_->device.copy_within(*q, to->data_, data_, bytes);
    copied = mark_in(state_->device, *q, "dp: a copy on the device");
    return to.release();
  }
  bool zero_on_device(std::size_t bytes, void *queue, dp::detail::pending &filled) override {
    auto *q = queue_or_own(queue);
    state_->device.zero_fill(*q, data_, bytes);
    filled = mark_in(state_->device, *q, "dp: zeros set on the device");
    return true;
  }
  dp::detail::device_fill copy_to_device(const void *host, std::size_t bytes,
                                         void *queue) override {
    auto *q = queue_or_own(queue);
    // Uploaded before: the host wrote the block since (its device copy was
    // current, and host access through a non-const field made it stale).
    const bool again = uploads_ > 0;
    if (again)
      count(counter::reuploads);
    ++uploads_;
    const bool in_place = page_locked_for(const_cast<void *>(host), bytes);
    if (!in_place) // the calling thread (or the driver) stages it as the bus empties
      count(counter::transfer_waits);
    bool reads_later = false;
    profile::timed_transfer(
        state_->device, *q, profile::category::to_device, bytes,
        [&] { reads_later = state_->device.copy_to_device(*q, data_, host, bytes, in_place); },
        again);
    dp::detail::pending filled = mark_in(state_->device, *q, "dp: a copy to the device");
    return {reads_later ? filled : nullptr, filled};
  }

private:
  /// The queue a storage names (a launch's), or the mirror's own.
  typename Device::queue_type *queue_or_own(void *queue) const {
    return queue ? static_cast<typename Device::queue_type *>(queue) : queue_;
  }
  void copy_rows_to_host_on(typename Device::queue_type &q, void *host, std::size_t row_bytes, std::size_t pitch,
                            std::size_t rows) {
    profile::timed_transfer(state_->device, q, profile::category::to_host, row_bytes * rows, [&] {
      state_->device.copy_rows_to_host(q, host, data_, row_bytes, pitch, rows);
    });
  }
  void copy_to_host_on(typename Device::queue_type &q, void *host, std::size_t bytes) {
    const bool in_place = page_locked_for(host, bytes);
    profile::timed_transfer(state_->device, q, profile::category::to_host, bytes, [&] {
      state_->device.copy_to_host(q, host, data_, bytes, in_place);
    });
  }
  /// Whether `host` (the block's host memory) is page-locked for this
  /// transfer: from the start when the storage's memory is, else
  /// registered from the block's second transfer on (device/transfers.hpp)
  /// when the layer can. Counts the path the transfer takes, here for
  /// every layer alike: other than in place, the calling thread (or the
  /// driver, on it) copies every byte through staging memory.
  bool page_locked_for(void *host, std::size_t bytes) {
    if (locked_)
      return true;
    const int before = transfers_++;
    if (!registered_ && should_register(bytes, before) &&
        state_->device.register_host(host, bytes)) {
      registered_ = host;
      registered_bytes_ = bytes;
      count(counter::host_registrations);
      count(counter::registered_bytes, static_cast<std::int64_t>(bytes));
    }
    const bool in_place = registered_ != nullptr;
    if (path_of(bytes, in_place) == transfer_path::staged)
      count(counter::staged_copies);
    if (!in_place)
      count(counter::host_copy_bytes, static_cast<std::int64_t>(bytes));
    return in_place;
  }

  std::shared_ptr<device_state<Device>> state_;
  typename Device::queue_type *queue_;
  void *data_;
  bool locked_;
  int transfers_ = 0, uploads_ = 0;
  void *registered_ = nullptr;
  std::size_t registered_bytes_ = 0;
};

/// The executor of one device kind: its state, made on first use.
template <class Device> class device_executor {
public:
  using queue_type = typename Device::queue_type;
  static device_executor &get() {
    static device_executor ex;
    return ex;
  }
  /// Waits for the default queue's work (dp::wait_all(): each dp::queue
  /// waits for its own); throws an error not yet reported.
  void wait() { state_->device.synchronize(default_queue(), "dp::wait_all"); }
  Device &device() { return state_->device; }
  block_cache &cache() { return state_->cache; }
  /// The page-locked slots results are read back through.
  block_cache &pinned() { return state_->pinned; }
  queue_type &default_queue() { return state_->device.default_queue(); }
  /// A mirror for `block`, from the cache, first used on `queue`.
  dp::detail::device_mirror *mirror(const dp::detail::storage &block, queue_type &queue) {
    return new cached_mirror<Device>(state_, block.bytes(), queue, block.page_locked());
  }
  /// Where fields' host memory comes from while call-sites run here.
  const std::shared_ptr<page_locked_blocks<Device>> &host_memory() const { return host_memory_; }
  /// `queue`'s later work follows `work` (other queues'): a mark of this
  /// device (a read-back's copy included) by its event (an event wait on a
  /// GPU's stream, a waiting task on the emulated device); other work (a
  /// host task's) the layer's way, which on a GPU blocks the host
  /// (counted: host_follows).
  void follow(queue_type &queue, const std::vector<dp::detail::pending> &work) {
    for (const dp::detail::pending &p : work) {
      if (const auto *m = dynamic_cast<const mark<Device> *>(p->device_work())) {
        m->follow_in(queue);
      } else {
        count(counter::host_follows);
        state_->device.host_wait_in(queue, p);
      }
    }
  }
  /// Copies `bytes` of device memory at `dev` to `host` behind the queue's
  /// work: `host` holds them once the completion is waited for. Into
  /// page-locked memory (`host_locked`: a field's, page_locked_memory) one
  /// asynchronous copy, nothing for the host to copy after; elsewhere
  /// through a page-locked slot, which the first wait copies from.
  dp::detail::pending read_back(queue_type &queue, void *host, const void *dev,
                                std::size_t bytes, bool host_locked = false) {
    count(counter::to_host_bytes, static_cast<std::int64_t>(bytes));
    count(counter::to_host_copies);
    if (host_locked) {
      state_->device.copy_to_pinned(queue, host, dev, bytes);
      return mark_in(state_->device, queue, "dp: a copy to the host");
    }
    count(counter::host_copy_bytes, static_cast<std::int64_t>(bytes)); // the slot's, delivered
    void *slot = state_->pinned.allocate(bytes > 0 ? bytes : 1, &queue);
    state_->device.copy_to_pinned(queue, slot, dev, bytes);
    return dp::detail::make_pooled<read_back_completion<Device>>(
        state_, mark_in(state_->device, queue, "dp: a result to the host"), &queue, slot, host,
        bytes);
  }

private:
  device_executor()
      : state_(new device_state<Device>(), [](device_state<Device> *s) {
          delete s;
          report_memory_at_exit(Device::name);
        }),
        host_memory_(std::make_shared<page_locked_blocks<Device>>(state_)) {
    detail::on_wait_all([] { get().wait(); });
  }
  std::shared_ptr<device_state<Device>> state_;
  std::shared_ptr<page_locked_blocks<Device>> host_memory_;
};

/// One call-site's work on a device: the queue it goes on, the copies of
/// its data there (made current on that queue, after other queues' work on
/// them), the temporaries it takes from the cache (given back, stream-
/// ordered, when it is enqueued) and, once it is, its completion, which
/// every block it used records. Its patterns are device/forall.hpp,
/// device/reduce.hpp and device/pencils.hpp; host/executor.hpp is its
/// counterpart on the host, device/recorder.hpp its recording variant.
template <class Device> class device_launch {
public:
  using queue_type = typename Device::queue_type;
  using device_type = Device;
  /// `site`: the call-site's name, which outlives the launch.
  device_launch(device_executor<Device> &ex, const std::string &site, queue_type &queue,
                launch_hints hints)
      : ex_(ex), queue_(queue), site_(site), range_(site_), hints_(hints) {}
  /// A name made on the spot would not outlive the launch.
  device_launch(device_executor<Device> &, std::string &&, queue_type &, launch_hints) = delete;
  device_launch(device_executor<Device> &, const char *, queue_type &, launch_hints) = delete;
  ~device_launch() { release(nullptr); } // an error before the end: nothing was enqueued
  device_launch(const device_launch &) = delete;
  device_launch &operator=(const device_launch &) = delete;

  Device &device() { return ex_.device(); }
  queue_type &queue() { return queue_; }
  const queue_type &queue() const { return queue_; }
  const std::string &site() const { return site_; }
  /// The call-site's launch-shape hints.
  const launch_hints &hints() const { return hints_; }

  /// Where the work finds `data` (an element of `block`): in the block's
  /// device copy, made on first use and made current on this queue (a copy
  /// only when it is stale) after other queues' work on the block.
  void *place(dp::detail::storage *block, void *data, bool writes) {
    if (!block)
      return data; // an unowned view: already where it must be
    wait_for(block->foreign_work(&queue_, writes));
    void *at = device_storage(block, data);
    block->make_device_current(&queue_); // a copy only when it is stale
    uses_.note(block, writes);
    return at;
  }
  /// Where `data` (an element of block) is in the block's device copy.
  static void *device_address(dp::detail::storage *block, void *data) {
    const std::ptrdiff_t offset =
        static_cast<char *>(data) - static_cast<char *>(block->host_data());
    return static_cast<char *>(block->mirror()->device_data()) + offset;
  }

  /// The launch waits for other queues' work it depends on: the device's
  /// queue follows another's mark (an event wait on a GPU's stream, a
  /// waiting task on the emulated device); other work (a host task's) the
  /// layer waits for its way.
  void wait_for(const std::vector<dp::detail::pending> &work) { ex_.follow(queue_, work); }

  /// `bytes` at `dev` to `host` behind this call-site's work (read_back).
  dp::detail::pending read_back(void *host, const void *dev, std::size_t bytes) {
    return ex_.read_back(queue_, host, dev, bytes);
  }

  /// Device memory for this call-site's temporaries (vendor scratch, sort
  /// buffers, results), valid for the work it enqueues.
  void *scratch(std::size_t bytes) {
    void *p = ex_.cache().allocate(bytes > 0 ? bytes : 1, &queue_);
    taken_.push_back(p);
    return p;
  }
  template <class T> T *scratch_of(std::size_t n) { return static_cast<T *>(scratch(sizeof(T) * n)); }

  /// Everything is enqueued: its completion (recorded once), which the
  /// blocks it used record, with the temporaries given back behind it.
  const dp::detail::pending &finish() {
    if (!done_) {
      done_ = mark_in(ex_.device(), queue_, site_.c_str());
      release(done_);
      uses_.settle(done_, true);
    }
    return done_;
  }

  /// DP_PROFILE: a stamp of where the queue is, what the queue is, where
  /// the work runs.
  profile::stamp_ptr stamp() { return ex_.device().stamp(queue_); }
  const char *queue_kind() const { return Device::queue_kind; }
  const char *runs_on() const { return Device::name; }

protected:
  /// Where `data` (an element of block) is in the block's device storage,
  /// made on first use (its contents untouched).
  void *device_storage(dp::detail::storage *block, void *data) {
    if (!block->mirror())
      block->attach_mirror(ex_.mirror(*block, queue_));
    return device_address(block, data);
  }
  /// Hands every temporary taken so far to `keep` instead of giving it
  /// back when the work is enqueued.
  template <class Keep> void hand_over_scratch(Keep &&keep) {
    for (void *p : taken_)
      keep(p);
    taken_.clear();
  }

private:
  void release(const dp::detail::pending &after) {
    for (void *p : taken_)
      ex_.cache().release(p, &queue_, after);
    taken_.clear();
  }
  device_executor<Device> &ex_;
  queue_type &queue_;
  const std::string &site_;
  typename Device::site_range range_; ///< the profiler's range of the call-site (NVTX on a GPU)
  launch_hints hints_;
  dp::detail::small_vector<void *, 8> taken_;
  launch_uses uses_;
  dp::detail::pending done_;
};

} // namespace dp::rt
