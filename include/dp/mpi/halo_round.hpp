/// \file
/// One round of a halo exchange over its fields, their types erased: where
/// each field is packed and unpacked (host memory or the device copy) and
/// where the messages live (host memory, or device memory when MPI takes
/// device pointers). Header-only: the device work compiles with the
/// translation unit's compiler (nvcc, hipcc, or the host's for the
/// emulated device).
#pragma once

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../detail/storage.hpp"
#include "../rt/executors.hpp"
#include "transfer.hpp"

namespace dp::mpi::detail {

/// Where an exchange reads a field's owned values: on the device when its
/// device copy is current and the host's is not (no whole-field copy to
/// the host), else in host memory.
inline bool pack_on_device(const dp::detail::storage *s) {
  return s && s->mirror() && s->device_current() && !s->host_current();
}
/// Where it writes the halo: on the device when its device copy is
/// current (the next launch finds it there), else in host memory.
inline bool unpack_on_device(const dp::detail::storage *s) {
  return s && s->mirror() && s->device_current();
}
/// Whether messages of device-resident fields go to MPI as device
/// pointers: DP_MPI_GPU_AWARE when set, else what MPI reports (CUDA builds:
/// MPIX_Query_cuda_support), else not.
inline bool device_pointers_to_mpi() {
  static const bool yes = [] {
    const int setting = gpu_aware_setting();
    if (setting >= 0)
      return setting == 1;
#if defined(DP_COMPILER_CUDA)
    return mpi_reports_cuda_aware();
#else
    return false;
#endif
  }();
  return yes;
}

/// One field of a round.
struct halo_field {
  dp::detail::storage *storage = nullptr;
  std::shared_ptr<void> keep;         ///< the field handle, alive for the round
  std::function<void()> host_read;    ///< makes the host copy current
  std::function<void()> host_write;   ///< ... and writable
  std::vector<std::vector<block>> send, recv; ///< per peer, in the host layout

  static std::size_t bytes(const std::vector<block> &blocks) {
    std::size_t n = 0;
    for (const block &b : blocks)
      n += b.bytes();
    return n;
  }
  /// A block of the host layout, moved onto the device copy.
  block on_device(const block &b) const {
    return b.rebased(static_cast<char *>(storage->host_data()),
                     static_cast<char *>(storage->mirror()->device_data()));
  }
};

/// A round's device work: one launch on the device's default queue.
class device_work {
public:
  using device = dp::rt::build_device;
  explicit device_work(const char *site)
      : ex_(dp::rt::device_executor<device>::get()), site_(site),
        launch_(ex_, site_, ex_.default_queue(), dp::rt::launch_hints{}) {}
  device &layer() { return ex_.device(); }
  typename device::queue_type &queue() { return launch_.queue(); }
  dp::rt::device_launch<device> &launch() { return launch_; }
  dp::rt::block_cache &cache() { return ex_.cache(); }
  /// The work waits for what else uses the field (its writer; its readers
  /// too when it writes).
  void after(const halo_field &f, bool writes) {
    launch_.wait_for(f.storage->foreign_work(&launch_.queue(), writes));
  }

private:
  dp::rt::device_executor<device> &ex_;
  std::string site_; ///< the launch refers to it
  dp::rt::device_launch<device> launch_;
};

/// A round in flight: started by exchange_begin, finished by exchange_end.
class halo_round {
public:
  halo_round(MPI_Comm comm, int tag, const std::vector<int> &peers, std::vector<halo_field> fields)
      : fields_(std::move(fields)), peers_(peers.size()) {
    for (std::size_t k = 0; k < peers.size(); ++k)
      peers_[k].rank = peers[k];
    lay_out();
    direct_ = device_pointers_to_mpi() && !fields_.empty();
    for (const halo_field &f : fields_)
      direct_ = direct_ && pack_on_device(f.storage);
    if (direct_)
      begin_direct();
    else
      begin_staged();
    messages_ = std::make_unique<round>(comm, tag, peers_, "exchange");
  }
  ~halo_round() {
    messages_.reset(); // waits for messages still under way
    release(nullptr);
  }
  halo_round(const halo_round &) = delete;
  halo_round &operator=(const halo_round &) = delete;

  /// Waits for the messages and writes every field's halo.
  void finish() {
    messages_->complete();
    if (direct_)
      finish_direct();
    else
      finish_staged();
  }

private:
  /// Where peer k's bytes of field i start in its message (fields follow
  /// one another in each message).
  std::size_t offset(std::size_t i, std::size_t k, bool sending) const {
    return (sending ? out_at_ : in_at_)[i * peers_.size() + k];
  }
  void lay_out() {
    const std::size_t P = peers_.size();
    out_at_.resize(fields_.size() * P);
    in_at_.resize(fields_.size() * P);
    for (std::size_t k = 0; k < P; ++k) {
      std::size_t out = 0, in = 0;
      for (std::size_t i = 0; i < fields_.size(); ++i) {
        out_at_[i * P + k] = out;
        in_at_[i * P + k] = in;
        out += halo_field::bytes(fields_[i].send[k]);
        in += halo_field::bytes(fields_[i].recv[k]);
      }
      peers_[k].out_bytes = out;
      peers_[k].in_bytes = in;
    }
  }

  // Staged: messages in host memory; each field packed on the device (and
  // its bytes read back) or in host memory.
  void begin_staged() {
    const std::size_t P = peers_.size();
    out_.resize(P);
    in_.resize(P);
    for (std::size_t k = 0; k < P; ++k) {
      out_[k].resize(peers_[k].out_bytes);
      in_[k].resize(peers_[k].in_bytes);
      peers_[k].out = out_[k].data();
      peers_[k].in = in_[k].data();
    }
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      halo_field &f = fields_[i];
      std::size_t total = 0;
      for (std::size_t k = 0; k < P; ++k)
        total += halo_field::bytes(f.send[k]);
      if (total == 0)
        continue;
      if (pack_on_device(f.storage)) {
        std::vector<char> packed(total);
        device_work w("dp::mpi::exchange_begin");
        w.after(f, false);
        char *staging = static_cast<char *>(w.launch().scratch(total));
        std::size_t at = 0;
        for (std::size_t k = 0; k < P; ++k)
          for (const block &b : f.send[k]) {
            dp::rt::pack_block(w.launch(), f.on_device(b), staging + at);
            at += b.bytes();
          }
        dp::detail::pending back = w.launch().read_back(packed.data(), staging, total);
        f.storage->launch_reads(w.launch().finish());
        back->wait();
        at = 0;
        for (std::size_t k = 0; k < P; ++k) {
          const std::size_t n = halo_field::bytes(f.send[k]);
          std::memcpy(out_[k].data() + offset(i, k, true), packed.data() + at, n);
          at += n;
        }
      } else {
        f.host_read();
        for (std::size_t k = 0; k < P; ++k) {
          char *o = out_[k].data() + offset(i, k, true);
          for (const block &b : f.send[k]) {
            dp::rt::pack(b, o);
            o += b.bytes();
          }
        }
      }
    }
  }
  void finish_staged() {
    const std::size_t P = peers_.size();
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      halo_field &f = fields_[i];
      std::size_t total = 0;
      for (std::size_t k = 0; k < P; ++k)
        total += halo_field::bytes(f.recv[k]);
      if (total == 0)
        continue;
      if (unpack_on_device(f.storage)) {
        std::vector<char> in(total);
        std::size_t at = 0;
        for (std::size_t k = 0; k < P; ++k) {
          const std::size_t n = halo_field::bytes(f.recv[k]);
          std::memcpy(in.data() + at, in_[k].data() + offset(i, k, false), n);
          at += n;
        }
        device_work w("dp::mpi::exchange_end");
        w.after(f, true);
        char *staging = static_cast<char *>(w.launch().scratch(total));
        const bool reads_later = w.layer().copy_to_device(w.queue(), staging, in.data(), total);
        at = 0;
        for (std::size_t k = 0; k < P; ++k)
          for (const block &b : f.recv[k]) {
            dp::rt::unpack_block(w.launch(), staging + at, f.on_device(b));
            at += b.bytes();
          }
        const dp::detail::pending &done = w.launch().finish();
        f.storage->launch_writes(done, true);
        if (reads_later)
          done->wait(); // `in` is read until the copy has run
      } else {
        f.host_write();
        for (std::size_t k = 0; k < P; ++k) {
          const char *p = in_[k].data() + offset(i, k, false);
          for (const block &b : f.recv[k]) {
            dp::rt::unpack(p, b);
            p += b.bytes();
          }
        }
      }
    }
  }

  // Direct: MPI reads and writes device memory; every field is packed
  // there, and the host never holds a byte.
  void begin_direct() {
    device_work w("dp::mpi::exchange_begin");
    std::size_t out_total = 0, in_total = 0;
    for (const peer_message &m : peers_)
      out_total += m.out_bytes, in_total += m.in_bytes;
    queue_ = &w.queue();
    cache_ = &w.cache();
    dev_out_ = static_cast<char *>(cache_->allocate(out_total ? out_total : 1, queue_));
    dev_in_ = static_cast<char *>(cache_->allocate(in_total ? in_total : 1, queue_));
    for (const halo_field &f : fields_)
      w.after(f, false);
    std::size_t out_at = 0, in_at = 0;
    for (std::size_t k = 0; k < peers_.size(); ++k) {
      peers_[k].out = dev_out_ + out_at;
      peers_[k].in = dev_in_ + in_at;
      char *o = dev_out_ + out_at;
      for (const halo_field &f : fields_)
        for (const block &b : f.send[k]) {
          dp::rt::pack_block(w.launch(), f.on_device(b), o);
          o += b.bytes();
        }
      out_at += peers_[k].out_bytes;
      in_at += peers_[k].in_bytes;
    }
    const dp::detail::pending packed = w.launch().finish();
    for (const halo_field &f : fields_)
      f.storage->launch_reads(packed);
    packed->wait(); // MPI reads the packed bytes next
  }
  void finish_direct() {
    device_work w("dp::mpi::exchange_end");
    std::vector<char> host; // for a field the host wrote since exchange_begin
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      halo_field &f = fields_[i];
      const bool device = unpack_on_device(f.storage);
      if (device)
        w.after(f, true);
      else if (host.empty()) {
        std::size_t in_total = 0;
        for (const peer_message &m : peers_)
          in_total += m.in_bytes;
        host.resize(in_total);
        w.layer().copy_to_host(w.queue(), host.data(), dev_in_, in_total);
      }
      if (!device)
        f.host_write();
      std::size_t in_at = 0;
      for (std::size_t k = 0; k < peers_.size(); ++k) {
        std::size_t at = in_at + offset(i, k, false);
        for (const block &b : f.recv[k]) {
          if (device)
            dp::rt::unpack_block(w.launch(), dev_in_ + at, f.on_device(b));
          else
            dp::rt::unpack(host.data() + at, b);
          at += b.bytes();
        }
        in_at += peers_[k].in_bytes;
      }
    }
    const dp::detail::pending done = w.launch().finish();
    for (const halo_field &f : fields_)
      if (unpack_on_device(f.storage))
        f.storage->launch_writes(done, true);
    release(done);
  }
  /// The direct round's device buffers back to the cache, free once `after`.
  void release(const dp::detail::pending &after) {
    if (!cache_)
      return;
    cache_->release(dev_out_, queue_, after);
    cache_->release(dev_in_, queue_, after);
    cache_ = nullptr;
  }

  std::vector<halo_field> fields_;
  std::vector<peer_message> peers_;
  std::vector<std::size_t> out_at_, in_at_; // offset(): per field, per peer
  std::vector<std::vector<char>> out_, in_; // staged
  bool direct_ = false;
  dp::rt::block_cache *cache_ = nullptr;    // direct
  const void *queue_ = nullptr;
  char *dev_out_ = nullptr, *dev_in_ = nullptr;
  std::unique_ptr<round> messages_;
};

} // namespace dp::mpi::detail
