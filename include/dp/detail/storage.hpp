/// \file
/// The shared, reference-counted data block behind dp::field, and the
/// host/device coherence state it carries.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <type_traits>
#include <memory>
#include <vector>

#include "../config.hpp"
#include "completion.hpp"

namespace dp::detail {

/// A copy to the device under way: while it still reads host memory
/// (null when it no longer does), and until the device copy holds it
/// (null when it does already).
struct device_fill {
  pending reads_host;
  pending filled;
};

/// Page-locked host memory for fields' host copies, where call-sites run
/// on a device: a block in it crosses the bus in one asynchronous copy on
/// the queue's stream, with no copy by the calling thread and no wait for
/// the device (rt/device/transfers.hpp). The runtime of a translated
/// program whose call-sites run on a device installs its device's (a
/// caching allocator over cudaMallocHost / hipHostMalloc, or the emulated
/// device's stand-in); elsewhere blocks come from the C heap.
class host_memory {
public:
  virtual ~host_memory() = default;
  /// `bytes` of page-locked memory, or null when there is none to give
  /// (the block comes from the C heap then).
  virtual void *allocate(std::size_t bytes) noexcept = 0;
  /// Gives back a block `allocate` gave.
  virtual void deallocate(void *p, std::size_t bytes) noexcept = 0;
  /// deallocate() of a block a copy to a device may still read until
  /// `reading` is done: not handed out again before (here: waited for).
  virtual void deallocate_after(void *p, std::size_t bytes, const pending &reading) noexcept {
    reading->wait_at_end();
    deallocate(p, bytes);
  }
};
using host_memory_ref = std::shared_ptr<host_memory>;

/// Where new blocks' page-locked memory comes from: the installed
/// source's answer (null: none, the C heap). runtime/data.cpp.
host_memory_ref page_locked_memory();
/// Installs the source (the launch runtime, before main); null: none.
void set_page_locked_memory(host_memory_ref (*source)());

/// A backend's copy of a storage block. The runtime creates one the first
/// time a field is used on a device (told whether the block's host memory
/// is page-locked); the storage owns it from then on.
class device_mirror {
public:
  virtual ~device_mirror() = default;
  /// Device address of the block.
  virtual void *device_data() const = 0;
  /// Copies the device block into `host` (bytes long) and returns when the
  /// copy is done. The storage has waited for the block's writer first.
  virtual void copy_to_host(void *host, std::size_t bytes) = 0;
  /// copy_to_host with the block's writer not yet waited for: the copy
  /// ordered behind `writer` on the device, the host waiting once, for
  /// the copy; `writer` is then done. False, with nothing done, where the
  /// device cannot order the copy behind it (a host task writes).
  virtual bool copy_to_host_after(void *, std::size_t, const completion &) { return false; }
  /// copy_to_host of `rows` rows of `row_bytes`, `pitch` bytes apart in
  /// both copies, leaving the host's bytes between them as they are (a
  /// block over rows with other memory between them: storage::set_rows).
  virtual void copy_rows_to_host(void *host, std::size_t row_bytes, std::size_t pitch, std::size_t rows) = 0;
  /// copy_rows_to_host behind `writer`, as copy_to_host_after.
  virtual bool copy_rows_to_host_after(void *, std::size_t, std::size_t, std::size_t, const completion &) {
    return false;
  }
  /// Starts copying `host` into the device block on `queue` (the launch's,
  /// so that the launch follows it; null: the device's default queue).
  virtual device_fill copy_to_device(const void *host, std::size_t bytes, void *queue) = 0;
  /// Starts setting the device block's first `bytes` to zero on `queue`
  /// (as copy_to_device), where the block's data is zeros nobody wrote (a
  /// value-initialised field): no transfer, no host memory read. `filled`
  /// is then when the device block holds them. False, with nothing done,
  /// where the device cannot (the zeros are copied then).
  virtual bool zero_on_device(std::size_t, void *, pending &) { return false; }
  /// Gives the device block back to the device while `writer`, `fill` and
  /// `readers` (null or done ones aside: the work still using it) may run,
  /// where all of that is this device's work on one queue: free at once
  /// for later work there, for other queues once it is done; the host
  /// waits for none of it. The mirror then holds no block. False, with
  /// nothing done, where the device cannot order it so.
  virtual bool free_behind(const pending &, const pending &, const std::vector<pending> &) noexcept {
    return false;
  }
  /// A new block of this device holding a copy of this one's first
  /// `bytes`, copied on the device behind `writer` (null: nothing still
  /// writes this block); `copied` is then the copy's completion.
  /// `locked`: the new block's host memory is page-locked. Null, with
  /// nothing done, where the device cannot.
  virtual device_mirror *copy_on_device(std::size_t, const pending &, bool, pending &) { return nullptr; }
};

class storage;
/// Drops a reference to a borrowed block; the last one takes it out of
/// the registry of borrowed memory (runtime/borrow.cpp) and deletes it.
void release_borrowed(storage *s) noexcept;
/// Says on stderr that the results for the `bytes` of a caller's memory
/// at p (dp::borrow) were lost, and why, then aborts. runtime/borrow.cpp.
[[noreturn]] void borrowed_results_lost(const void *p, std::size_t bytes, const char *why) noexcept;

/// One allocation of field elements plus which copy (host / device) is
/// current, and the launches still writing or reading it. Type-erased so
/// the runtime can move bytes without knowing T.
///
/// Launches may still be running when a call-site returns: a launch that
/// writes the block leaves its completion as the block's writer, one that
/// reads it as a reader. Host access waits for exactly what it needs: a
/// read for the writer (then copies back if the device holds the data), a
/// write for the writer and every reader. The fast paths are one flag each.
class storage {
public:
  storage(const storage &) = delete;
  storage &operator=(const storage &) = delete;

  /// A block of n elements, each a copy of init: in page-locked memory
  /// where the runtime gives some (page_locked_memory), else on the C heap.
  template <class U> static storage *create(std::size_t n, const U &init) {
    static_assert(!std::is_const<U>::value, "storage holds mutable elements");
    storage *s = new storage(n * sizeof(U));
    try {
      s->fill(n, init);
    } catch (...) {
      delete s; // frees the memory; no element is left built
      throw;
    }
    return s;
  }

  /// n elements of a trivially copyable U left as the heap gives them,
  /// for a caller that writes every one before anything reads them (a
  /// copy of the caller's memory: dp::borrow_read's, dp::borrowed_rows'
  /// gather). A large calloc costs a pass over the memory (or its pages
  /// faulted in zeroed) that the copy then makes again.
  template <class U> static storage *create_for_overwrite(std::size_t n) {
    static_assert(!std::is_const<U>::value && std::is_trivially_copyable<U>::value,
                  "storage for overwrite holds mutable, trivially copyable elements");
    storage *s = new storage(n * sizeof(U));
    try {
      s->acquire_host(false);
    } catch (...) {
      delete s;
      throw;
    }
    s->count_ = n;
    return s;
  }

  /// A block over `bytes` of memory the caller owns at p (dp::borrow):
  /// never freed here; before it goes, the data is made current at p.
  static storage *borrow(void *p, std::size_t bytes) {
    storage *s = new storage(bytes);
    s->host_ = p;
    s->borrowed_ = true;
    return s;
  }

  /// The block's data is its rows alone, each `row_bytes` long and
  /// `pitch` bytes after the one before (a borrowed dp::borrowed_rows'):
  /// the bytes between them are not the block's, and no copy from the
  /// device writes them. Set before any copy.
  void set_rows(std::size_t row_bytes, std::size_t pitch) noexcept {
    row_bytes_ = row_bytes;
    pitch_ = pitch;
  }
  /// True when set_rows gave the block rows with other memory between.
  bool has_gaps() const noexcept { return pitch_ > row_bytes_; }

  void retain() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }

  void release() noexcept {
    if (borrowed_) {
      release_borrowed(this); // the registry finds borrowed blocks by address
      return;
    }
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      destroy(this);
  }
  /// Drops one reference; true when it was the last (the caller deletes).
  bool drop() noexcept { return refs_.fetch_sub(1, std::memory_order_acq_rel) == 1; }
  /// Deletes a block whose last reference is gone. Out of line: every
  /// field's destructor releases, and the host's row loops inline all they
  /// call (DP_FLATTEN); with the block's destructor inlined there, GCC
  /// compiled NPB SP's translation for more than 14 minutes, not 2.7.
  DP_NOINLINE static void destroy(storage *s) noexcept { delete s; }

  /// Host address of the block (not necessarily current: see host_current).
  void *host_data() const noexcept { return host_; }
  /// True when the block's host memory is page-locked (page_locked_memory).
  bool page_locked() const noexcept { return locked_ != nullptr; }
  std::size_t bytes() const noexcept { return bytes_; }

  /// True when the host may read the block now: its copy is current, no
  /// launch still writes it and no recording (dp::record) is writing it.
  bool host_current() const noexcept { return host_current_ && !held_; }
  /// True when the host may write the block now: as host_current, and no
  /// device copy to mark stale, no launch still reading it.
  bool host_exclusive() const noexcept { return host_exclusive_; }
  /// True while the device copy holds the data (or will, once its writer
  /// is done).
  bool device_current() const noexcept { return device_current_; }

  /// Brings the host copy up to date: waits for the block's writer, then
  /// copies from the device if the device holds the data.
  void make_host_current() {
    if (held_)
      held_->wait(); // a recording writes the block: its error, naming both
    if (writer_ && writer_on_device_ && !host_current_ && device_current_ && mirror_ && bytes_ > 0 &&
        copy_back_behind_writer())
      return;
    wait_for_writer();
    if (!host_current_) {
      if (device_current_ && mirror_ && bytes_ > 0) // no bytes, nothing to move
        copy_from_device();
      host_current_ = true;
    }
    update();
  }
  /// What a host access needs before it reads (writes) the block, and
  /// nothing when the host may already: the test inline, the waits and
  /// copies out of it. Element access, host launches' arguments and the
  /// host loops over raw pointers all go through these two.
  void ready_for_host_read() {
    if (!host_current())
      make_host_current();
  }
  void ready_for_host_write() {
    if (!host_exclusive()) // only then: keeps writes free of shared stores
      host_wrote();
  }
  /// The host is about to write: the host copy made current, every launch
  /// reading the block waited for, the device copy stale.
  void host_wrote() {
    make_host_current();
    wait_for_readers();
    device_current_ = false;
    zeros_ = false;
    update();
  }

  /// The caller wrote the `bytes` at `offset` of a borrowed block's host
  /// memory through its own pointer (dp::update_device over a pointer):
  /// they are the data there, the rest is what the current copy holds
  /// (brought from the device first where the device holds it). Every
  /// launch using the block is waited for; the host copy is then
  /// current, the device copy stale.
  void host_wrote_directly(std::size_t offset, std::size_t bytes) {
    if (held_)
      held_->wait();
    wait_for_writer();
    if (!host_current_ && device_current_ && mirror_ && bytes < bytes_) {
      auto *at = static_cast<unsigned char *>(host_) + offset;
      std::vector<unsigned char> written(at, at + bytes);
      copy_from_device();
      if (bytes > 0)
        std::memcpy(at, written.data(), bytes);
    }
    host_current_ = true;
    wait_for_readers();
    device_current_ = false;
    zeros_ = false;
    update();
  }

  /// The device copy, or null before the first device use.
  device_mirror *mirror() const noexcept { return mirror_; }
  /// Installs the device copy (taken over) and marks it stale.
  void attach_mirror(device_mirror *m) {
    delete mirror_;
    mirror_ = m;
    fill_.reset();
    host_read_.reset();
    device_current_ = false;
    update();
  }
  /// Brings the device copy up to date (a copy from the host if stale) on
  /// `queue`, before the launches that follow there (null: the device's
  /// default queue).
  void make_device_current(void *queue = nullptr) {
    if (device_current_)
      return;
    if (zeros_ && bytes_ > 0) { // nothing wrote the block: zeros set on the device
      pending zeroed;
      if (mirror_->zero_on_device(bytes_, queue, zeroed)) {
        fill_ = std::move(zeroed);
        device_current_ = true;
        update();
        return;
      }
    }
    if (writer_ && !writer_on_device_)
      wait_for_writer(); // a host task still writing the host copy
    make_host_current();
    if (bytes_ == 0) { // an empty block (a borrow of no element): nothing to move
      device_current_ = true;
      update();
      return;
    }
    device_fill copy = mirror_->copy_to_device(host_, bytes_, queue);
    if (copy.reads_host) {
      host_read_ = copy.reads_host; // the block's end waits for it
      add_reader(std::move(copy.reads_host)); // host writes wait until it has read
    }
    fill_ = std::move(copy.filled); // other queues' launches wait until it is there
    device_current_ = true;
    update();
  }
  /// The device copy declared current without a transfer (a data region's
  /// copyout and create: the block's contents before it are dead, so its
  /// device storage starts as it is). Needs a mirror.
  void assume_device_current() {
    if (device_current_)
      return;
    if (writer_ && !writer_on_device_)
      wait_for_writer();
    device_current_ = true;
    zeros_ = false;
    update();
  }
  /// Frees the device copy where the host copy is current (after the
  /// launches using it are done); keeps it where it is the only current
  /// copy. True when it was freed.
  bool release_device() {
    if (!mirror_ || pins_ > 0) // a recording's graph holds its address
      return false;
    if (writer_)
      wait_for_writer();
    if (device_current_ && !host_current_)
      return false;
    wait_for_readers();
    if (fill_)
      fill_->wait();
    fill_.reset();
    host_read_.reset(); // a reader, done
    delete mirror_;
    mirror_ = nullptr;
    device_current_ = false;
    update();
    return true;
  }
  /// Makes `to`, a new block of as many bytes whose host memory holds
  /// nothing yet (create_for_overwrite), a copy of this one made on the
  /// device, where the device's copy is the only current one (a
  /// dp::read_apart of a field a kernel wrote): behind this block's
  /// writer, with no transfer. `to`'s device copy is then its current
  /// one, the copy its writer and one of this block's readers. False,
  /// with nothing done, where the host's copy is current (a host copy
  /// costs nothing more), a recording holds the block, its rows have
  /// gaps, or the device cannot.
  bool copy_on_device_into(storage &to) {
    if (held_ || !mirror_ || !device_current_ || host_current_ || has_gaps() || bytes_ == 0 ||
        to.bytes_ != bytes_ || to.mirror_ || (writer_ && !writer_on_device_))
      return false;
    pending copied;
    device_mirror *m = mirror_->copy_on_device(bytes_, writer_, to.page_locked(), copied);
    if (!m)
      return false;
    to.attach_mirror(m);
    to.launch_writes(copied, true);
    launch_reads(std::move(copied));
    return true;
  }

  /// A copy of the device block into host memory is under way until
  /// `done` (dp::update_host on a queue): the host copy is current then.
  void host_copy_pending(pending done) {
    writer_ = std::move(done);
    writer_on_device_ = false;
    host_current_ = false;
    zeros_ = false;
    update();
  }
  /// A launch writes the block: on the device (its copy becomes the only
  /// current one) or, for a host task, in host memory. `done` is its
  /// completion; null when it is done already.
  void launch_writes(pending done, bool on_device) {
    writer_ = std::move(done);
    writer_on_device_ = on_device;
    readers_.clear(); // launches before a writer are done when it is
    fill_.reset();    // and so is the copy that filled the device block
    zeros_ = false;
    device_current_ = on_device;
    host_current_ = on_device ? false : !writer_;
    update();
  }
  /// A launch reads the block until `done`.
  void launch_reads(pending done) {
    if (done)
      add_reader(std::move(done));
    update();
  }
  /// A device launch wrote the data, and is done: the host copy is stale.
  void device_wrote() { launch_writes(nullptr, true); }

  /// What a launch on `queue` must wait for before it uses the block: its
  /// writer, or the copy still filling its device block, when another
  /// queue runs it, and, when the launch writes too, every reader on
  /// another queue (a queue runs its own work in order).
  std::vector<pending> foreign_work(const void *queue, bool writes) const {
    std::vector<pending> out;
    if (writer_ && writer_->queue() != queue && !writer_->done())
      out.push_back(writer_);
    if (fill_ && fill_->queue() != queue && !fill_->done())
      out.push_back(fill_);
    if (writes)
      for (const pending &r : readers_)
        if (r->queue() != queue && !r->done())
          out.push_back(r);
    return out;
  }
  /// True when a launch still writing the block writes its device copy.
  bool written_on_device() const noexcept { return writer_ && writer_on_device_; }

  /// While dp::record records a call-site writing the block, host access
  /// is a misuse: it waits for `guard`, whose wait throws the error naming
  /// both. null: host access as before.
  void hold(pending guard) {
    held_ = std::move(guard);
    update();
  }
  /// A recording's graph addresses the block's device copy: it stays where
  /// it is (release_device keeps it) until every pin is gone.
  void pin_device() noexcept { ++pins_; }
  void unpin_device() noexcept { --pins_; }

  /// The launch still writing the block, if any.
  const pending &writer() const noexcept { return writer_; }
  /// The launches still reading it.
  const std::vector<pending> &readers() const noexcept { return readers_; }

private:
  explicit storage(std::size_t bytes) : bytes_(bytes) {}
  ~storage() {
    // A borrowed block a launch still writes goes back behind it on the
    // device: the host waits once, for the copy (give_back_behind_writer).
    const bool given = borrowed_ && writer_ && give_back_behind_writer();
    // Launches still using the block finish before it goes (or, on a
    // device, before its device copy is used again); an error they had
    // stays with their queue for its next wait. A block of no bytes (a
    // loop of no iteration borrowed nothing) holds nothing they touch.
    if (bytes_ > 0 && !free_device_behind_users(given)) {
      if (writer_)
        writer_->wait_at_end();
      for (const pending &r : readers_)
        r->wait_at_end();
      if (fill_)
        fill_->wait_at_end();
    }
    if (borrowed_) {
      if (!given)
        give_back();
      delete mirror_;
      return; // the memory is the caller's
    }
    delete mirror_;
    if (destroy_)
      destroy_(host_, count_);
    if (locked_ && host_read_)
      locked_->deallocate_after(host_, bytes_, host_read_);
    else if (locked_)
      locked_->deallocate(host_, bytes_);
    else
      std::free(host_);
  }

  /// A borrowed block's end, its launches done: the caller's memory gets
  /// what the device holds. A copy back that fails (a device fault, which
  /// a launch that failed leaves too) has no later wait to report it, and
  /// the caller's data would be wrong without a word: it stops the
  /// program, with its message, unless an exception is already on its way
  /// out. The launches were waited for quietly, as any block's (their
  /// errors stay with their queue), so this costs no wait the copy does not.
  void give_back() noexcept {
    giving_back([&] {
      if (device_current_ && !host_current_ && mirror_ && bytes_ > 0)
        copy_from_device();
    });
  }
  /// give_back() before the launch still writing the block is waited for:
  /// the copy ordered behind it on the device (copy_back_behind_writer).
  /// False, with nothing done, where the device cannot order it so. A
  /// failure (the launch's error, which the copy's wait reports as the
  /// launch's) is handled as give_back's.
  bool give_back_behind_writer() noexcept {
    if (!device_current_ || host_current_ || !mirror_ || bytes_ == 0)
      return false;
    bool ordered = true; // a failure is reported (or one on its way out is the report)
    giving_back([&] { ordered = copy_back_behind_writer(); });
    return ordered;
  }
  /// The block's end where only device work still uses it (no host task,
  /// no copy into its host memory, no borrowed results to copy back after
  /// the writer; given: they went back already): its device copy goes
  /// back to the device behind that work (device_mirror::free_behind). A
  /// copy still reading its host memory is waited for where that memory
  /// goes back at once (the caller's, the C heap's, or elements to
  /// destroy first); page-locked memory of the runtime's goes back behind
  /// it instead (host_memory::deallocate_after). False, with nothing
  /// done, where the host must wait for the launches.
  bool free_device_behind_users(bool given) noexcept {
    if (!mirror_ || (borrowed_ && writer_ && !given) || (writer_ && !writer_on_device_))
      return false;
    if (!mirror_->free_behind(writer_, fill_, readers_))
      return false;
    if (host_read_ && (borrowed_ || !locked_ || destroy_)) {
      host_read_->wait_at_end();
      host_read_.reset();
    }
    return true;
  }
  /// Runs a borrowed block's copy back; what it throws stops the program.
  template <class Copy> void giving_back(const Copy &copy) noexcept {
    try {
      copy();
    } catch (const std::exception &e) {
      results_lost(e.what());
    } catch (...) {
      results_lost("an unknown exception");
    }
  }
  void results_lost(const char *why) noexcept {
    if (std::uncaught_exceptions() == 0)
      borrowed_results_lost(host_, bytes_, why);
  }

  /// The block's host memory: page-locked where the runtime gives some,
  /// else from the C heap (zeroed there when `zero`). Throws bad_alloc.
  void acquire_host(bool zero) {
    const std::size_t bytes = bytes_ > 0 ? bytes_ : 1;
    if (host_memory_ref source = page_locked_memory())
      if (void *p = source->allocate(bytes)) {
        host_ = p;
        locked_ = std::move(source);
        return;
      }
    host_ = zero ? std::calloc(bytes, 1) : std::malloc(bytes);
    if (!host_)
      throw std::bad_alloc();
  }

  /// Acquires the host memory and builds n copies of init in it; what it
  /// built is undone when it throws, the memory left to the destructor.
  template <class U> void fill(std::size_t n, const U &init) {
    bool zero = false;
    if constexpr (std::is_trivially_copyable<U>::value) {
      unsigned char bytes[sizeof(U)] = {};
      zero = std::memcmp(&init, bytes, sizeof(U)) == 0;
    }
    acquire_host(zero);
    U *data = static_cast<U *>(host_);
    if (zero) {
      // Zero elements (value-initialised fields, the default) of a trivial
      // type: from the C heap, calloc's pages arrive zeroed when first
      // touched, by the first call-site's threads; page-locked memory is
      // zeroed here. That memory is a device's (call-sites run on one):
      // the block remembers its zeros, and the device sets its copy to
      // zeros itself instead of a copy of these (zero_on_device). On the
      // C heap no device is in use, and the block stays host-exclusive
      // from the start, as host threads writing it at once rely on.
      if (page_locked()) {
        std::memset(host_, 0, bytes_);
        zeros_ = true;
        update();
      }
    } else {
      std::size_t built = 0;
      try {
        if constexpr (std::is_nothrow_copy_constructible<U>::value)
          std::uninitialized_fill_n(data, n, init); // a memset or a vector loop
        else // counted, for the copies to undo when one throws
          for (; built < n; ++built)
            new (data + built) U(init);
      } catch (...) {
        for (std::size_t i = 0; i < built; ++i)
          data[i].~U();
        throw;
      }
    }
    if constexpr (!std::is_trivially_destructible<U>::value)
      destroy_ = [](void *p, std::size_t count) {
        U *typed = static_cast<U *>(p);
        for (std::size_t i = 0; i < count; ++i)
          typed[i].~U();
      };
    count_ = n;
  }

  /// The device copy into the host memory, the writer done: all of it,
  /// or where the block has gaps (set_rows) its rows alone.
  void copy_from_device() {
    if (!has_gaps()) {
      mirror_->copy_to_host(host_, bytes_);
      return;
    }
    mirror_->copy_rows_to_host(host_, row_bytes_, pitch_, rows());
  }
  /// set_rows' rows: the last one ends the block.
  std::size_t rows() const noexcept { return (bytes_ + pitch_ - row_bytes_) / pitch_; }
  void wait_for_writer() {
    if (!writer_)
      return;
    pending w = writer_; // kept if wait() throws: the data is still not there
    w->wait();
    writer_.reset();
    if (!writer_on_device_)
      host_current_ = true;
  }
  /// The copy back of a block a launch wrote, behind the launch on the
  /// device: one host wait, the copy's, where waiting for the launch and
  /// then copying made two. The launch's error (a GPU reports it to the
  /// copy too) is thrown as the launch's, naming its call-site.
  bool copy_back_behind_writer() {
    pending w = writer_;
    try {
      if (!(has_gaps() ? mirror_->copy_rows_to_host_after(host_, row_bytes_, pitch_, rows(), *w)
                       : mirror_->copy_to_host_after(host_, bytes_, *w)))
        return false;
    } catch (...) {
      w->wait();
      throw;
    }
    w->wait(); // done: reports its error, or returns at once
    writer_.reset();
    host_current_ = true;
    update();
    return true;
  }
  void wait_for_readers() {
    while (!readers_.empty()) {
      readers_.back()->wait();
      readers_.pop_back();
    }
  }
  void add_reader(pending p) {
    // One reader per queue is enough: a queue runs in order.
    for (pending &r : readers_)
      if (r->queue() == p->queue()) {
        r = std::move(p);
        return;
      }
    readers_.push_back(std::move(p));
  }
  void update() noexcept {
    host_current_ = host_current_ && !writer_;
    // A block of zeros nobody wrote is never written unannounced: the
    // first host write ends them (host_wrote), or the device would get
    // zeros the host no longer has.
    host_exclusive_ = host_current_ && !held_ && !device_current_ && readers_.empty() && !zeros_;
  }

  std::atomic<long> refs_{1};
  bool borrowed_ = false; ///< the memory is the caller's (dp::borrow)
  std::size_t row_bytes_ = 0, pitch_ = 0; ///< set_rows
  void *host_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t count_ = 0;
  void (*destroy_)(void *, std::size_t) = nullptr; ///< the elements' destructors, if they have any
  host_memory_ref locked_; ///< where the page-locked host memory came from; null: the C heap
  device_mirror *mirror_ = nullptr;
  bool host_current_ = true;
  bool host_exclusive_ = true;
  /// The block holds the zeros it was created with (a value-initialised
  /// field of a trivially copyable type, in a device's page-locked memory)
  /// and nothing has written it since: a device copy is zeros set on the
  /// device, not a transfer.
  bool zeros_ = false;
  bool device_current_ = false;
  pending writer_;
  bool writer_on_device_ = false;
  std::vector<pending> readers_;
  pending fill_; ///< the copy filling the device block, until it is done
  /// The last copy into the device block that reads the host memory as
  /// it runs (in place, from page-locked memory); done or not.
  pending host_read_;
  pending held_; ///< a recording writing the block, while it records
  int pins_ = 0; ///< recordings whose graphs address the device copy
};

/// Owning reference to a storage. Reference counting happens on the host
/// only; in device code the reference is inert (device copies of fields are
/// made by the runtime and never own anything).
class storage_ref {
public:
  DP_HOST_DEVICE storage_ref() noexcept {}
  /// Adopts a freshly created storage (its count is already 1).
  explicit storage_ref(storage *s) noexcept : s_(s) {}
  DP_HOST_DEVICE DP_INLINE storage_ref(const storage_ref &o) noexcept : s_(o.s_) {
#if !DP_DEVICE_COMPILE
    if (s_)
      s_->retain();
#endif
  }
  DP_HOST_DEVICE DP_INLINE storage_ref(storage_ref &&o) noexcept : s_(o.s_) {
    o.s_ = nullptr;
  }
  DP_HOST_DEVICE storage_ref &operator=(storage_ref o) noexcept {
    storage *t = s_;
    s_ = o.s_;
    o.s_ = t;
    return *this;
  }
  DP_HOST_DEVICE DP_INLINE ~storage_ref() {
#if !DP_DEVICE_COMPILE
    if (s_)
      s_->release();
#endif
  }
  DP_HOST_DEVICE storage *get() const noexcept { return s_; }
  /// A non-owning copy (what a device-side field holds).
  DP_HOST_DEVICE static storage_ref none() noexcept { return storage_ref(); }

private:
  storage *s_ = nullptr;
};

} // namespace dp::detail
