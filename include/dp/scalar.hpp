/// \file
/// dp::scalar<T>: the holder of a full reduction's result.
#pragma once

#include "config.hpp"

namespace dp {

/// A single value that a dp::reduce combines into. Its value before the call
/// acts as the reduction's initial value.
///
///     dp::scalar<double> sum(0.0);
///     dp::reduce(g, std::plus<>(), sum, [](double x) { return x; }, A);
///     sum.get();
template <class T> class scalar {
public:
  using value_type = T;
  scalar() = default;
  explicit scalar(T init) : value_(init) {}
  const T &get() const { return value_; }
  void set(const T &v) { value_ = v; }

private:
  T value_{};
};

} // namespace dp
