//===- Poly.h - Integer polynomials over loop-invariant symbols -*- C++ -*-===//
//
// The arithmetic of subscripts and loop bounds in migration: a sum of
// integer multiples of monomials over symbols (loop-invariant integers the
// tool cannot fold, such as a row length `n`). `(v * nk + k) * ni + i` is
// nk*ni*v + ni*k + i once its loop variables are terms of their own
// (Dependence.h). Plain C++ with no clang types, so that the dependence
// test can be property-tested on its own.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// A product of symbols (ids, sorted; repeated for powers); empty is 1.
using Monomial = std::vector<int>;

/// A polynomial with integer coefficients over symbols. Arithmetic that
/// would overflow 62 bits makes it invalid (the caller treats an invalid
/// polynomial as an expression it cannot reason about).
class Poly {
public:
  Poly() = default;
  /// The constant C.
  static Poly constant(std::int64_t C);
  /// The symbol Id.
  static Poly symbol(int Id);
  /// An invalid polynomial (overflow, or unknown).
  static Poly invalid();

  bool valid() const { return Valid; }
  bool isConstant() const;
  /// The constant term (0 when there is none).
  std::int64_t constantTerm() const;
  /// The value when constant.
  std::optional<std::int64_t> asConstant() const;
  bool isZero() const { return Valid && Terms.empty(); }

  Poly operator+(const Poly &O) const;
  Poly operator-(const Poly &O) const;
  Poly operator*(const Poly &O) const;
  Poly operator-() const;
  Poly times(std::int64_t K) const;
  bool operator==(const Poly &O) const { return Valid == O.Valid && Terms == O.Terms; }
  bool operator!=(const Poly &O) const { return !(*this == O); }

  /// The coefficient of monomial M (0 when absent).
  std::int64_t coefficient(const Monomial &M) const;
  /// The terms, monomial to non-zero coefficient, in a fixed order.
  const std::map<Monomial, std::int64_t> &terms() const { return Terms; }

  /// "2*n*m - n + 3", symbols named by Name; Spaced: "2 * n * m - n + 3",
  /// as source text is written.
  std::string str(const std::function<std::string(int)> &Name, bool Spaced = false) const;

private:
  std::map<Monomial, std::int64_t> Terms;
  bool Valid = true;
  void add(const Monomial &M, std::int64_t C);
};

/// True when P is provably >= 1 for every value of its symbols (it is a
/// constant of at least 1). Sound, not complete.
bool provablyPositive(const Poly &P);

/// The absolute value of an integer; saturates at INT64_MAX.
std::int64_t absOf(std::int64_t V);

} // namespace dpstub::migrate
