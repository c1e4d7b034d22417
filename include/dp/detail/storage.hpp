/// \file
/// The shared, reference-counted data block behind dp::field, and the
/// host/device coherence state it carries.
#pragma once

#include <atomic>
#include <cstddef>
#include <new>
#include <type_traits>

#include "../config.hpp"

namespace dp::detail {

/// A backend's copy of a storage block. The runtime creates one the first
/// time a field is used on a device; the storage owns it from then on.
class device_mirror {
public:
  virtual ~device_mirror() = default;
  /// Device address of the block.
  virtual void *device_data() const = 0;
  /// Copies the device block into `host` (bytes long).
  virtual void copy_to_host(void *host, std::size_t bytes) = 0;
  /// Copies `host` into the device block.
  virtual void copy_to_device(const void *host, std::size_t bytes) = 0;
};

/// One allocation of field elements plus which copy (host / device) is
/// current. Type-erased so the runtime can move bytes without knowing T.
class storage {
public:
  storage(const storage &) = delete;
  storage &operator=(const storage &) = delete;

  /// A block of n elements, each a copy of init.
  template <class U> static storage *create(std::size_t n, const U &init) {
    static_assert(!std::is_const<U>::value, "storage holds mutable elements");
    auto *s = new storage(n * sizeof(U));
    const std::size_t bytes = n * sizeof(U);
    U *data = static_cast<U *>(::operator new(bytes > 0 ? bytes : 1));
    std::size_t built = 0;
    try {
      for (; built < n; ++built)
        new (data + built) U(init);
    } catch (...) {
      for (std::size_t i = 0; i < built; ++i)
        data[i].~U();
      ::operator delete(data);
      delete s;
      throw;
    }
    s->host_ = data;
    s->destroy_ = [](void *p, std::size_t count) {
      U *typed = static_cast<U *>(p);
      for (std::size_t i = 0; i < count; ++i)
        typed[i].~U();
      ::operator delete(p);
    };
    s->count_ = n;
    return s;
  }

  void retain() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
  void release() noexcept {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }

  /// Host address of the block (not necessarily current: see host_current).
  void *host_data() const noexcept { return host_; }
  std::size_t bytes() const noexcept { return bytes_; }

  /// False while a device wrote the data and the host copy is stale.
  bool host_current() const noexcept { return host_current_; }
  /// False while the host wrote the data after the device copy was made.
  bool device_current() const noexcept { return device_current_; }

  /// Brings the host copy up to date (a copy from the device if stale).
  void make_host_current() {
    if (host_current_)
      return;
    mirror_->copy_to_host(host_, bytes_);
    host_current_ = true;
  }
  /// Host writes are about to happen: the device copy becomes stale.
  void host_wrote() noexcept { device_current_ = false; }

  /// The device copy, or null before the first device use.
  device_mirror *mirror() const noexcept { return mirror_; }
  /// Installs the device copy (taken over) and marks it stale.
  void attach_mirror(device_mirror *m) {
    delete mirror_;
    mirror_ = m;
    device_current_ = false;
  }
  /// Brings the device copy up to date (a copy from the host if stale).
  void make_device_current() {
    if (device_current_)
      return;
    make_host_current();
    mirror_->copy_to_device(host_, bytes_);
    device_current_ = true;
  }
  /// A device launch wrote the data: the host copy becomes stale.
  void device_wrote() noexcept {
    device_current_ = true;
    host_current_ = false;
  }

private:
  explicit storage(std::size_t bytes) : bytes_(bytes) {}
  ~storage() {
    delete mirror_;
    destroy_(host_, count_);
  }

  std::atomic<long> refs_{1};
  void *host_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t count_ = 0;
  void (*destroy_)(void *, std::size_t) = nullptr;
  device_mirror *mirror_ = nullptr;
  bool host_current_ = true;
  bool device_current_ = false;
};

/// Owning reference to a storage. Reference counting happens on the host
/// only; in device code the reference is inert (device copies of fields are
/// made by the runtime and never own anything).
class storage_ref {
public:
  DP_HOST_DEVICE storage_ref() noexcept {}
  /// Adopts a freshly created storage (its count is already 1).
  explicit storage_ref(storage *s) noexcept : s_(s) {}
  DP_HOST_DEVICE storage_ref(const storage_ref &o) noexcept : s_(o.s_) {
#if !DP_DEVICE_COMPILE
    if (s_)
      s_->retain();
#endif
  }
  DP_HOST_DEVICE storage_ref(storage_ref &&o) noexcept : s_(o.s_) {
    o.s_ = nullptr;
  }
  DP_HOST_DEVICE storage_ref &operator=(storage_ref o) noexcept {
    storage *t = s_;
    s_ = o.s_;
    o.s_ = t;
    return *this;
  }
  DP_HOST_DEVICE ~storage_ref() {
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
