// A "device" copy of a storage block in host memory that counts the
// transfers: the GPU's stand-in for the coherence tests.
#pragma once

#include <dp/dp.hpp>

#include <cstring>
#include <memory>
#include <vector>

namespace dp_test {

/// The transfers one mirror made; they outlive it (the storage deletes its
/// mirror when it goes).
struct transfer_counts {
  int to_host = 0, to_device = 0;
};

class counting_mirror final : public dp::detail::device_mirror {
public:
  explicit counting_mirror(std::size_t bytes,
                           std::shared_ptr<transfer_counts> counts = std::make_shared<transfer_counts>())
      : counts(std::move(counts)), to_host(this->counts->to_host), to_device(this->counts->to_device),
        bytes_(bytes) {}
  void *device_data() const override { return const_cast<char *>(bytes_.data()); }
  void copy_to_host(void *host, std::size_t n) override {
    ++to_host;
    std::memcpy(host, bytes_.data(), n);
  }
  void copy_rows_to_host(void *host, std::size_t row_bytes, std::size_t pitch, std::size_t rows) override {
    ++to_host;
    for (std::size_t r = 0; r < rows; ++r)
      std::memcpy(static_cast<char *>(host) + r * pitch, bytes_.data() + r * pitch, row_bytes);
  }
  dp::detail::device_fill copy_to_device(const void *host, std::size_t n, void *) override {
    ++to_device;
    std::memcpy(bytes_.data(), host, n);
    return {}; // done: it no longer reads host memory, and the copy is there
  }
  const std::shared_ptr<transfer_counts> counts;
  int &to_host;
  int &to_device;

private:
  std::vector<char> bytes_;
};

} // namespace dp_test
