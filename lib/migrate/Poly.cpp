//===- Poly.cpp - Integer polynomials over loop-invariant symbols ---------===//

#include "Poly.h"

#include <algorithm>
#include <limits>

namespace dpstub::migrate {

namespace {
/// Coefficients stay within 62 bits: sums of a few never overflow int64.
constexpr std::int64_t Limit = std::int64_t(1) << 62;

bool inRange(std::int64_t V) { return V > -Limit && V < Limit; }
} // namespace

std::int64_t absOf(std::int64_t V) {
  if (V == std::numeric_limits<std::int64_t>::min())
    return std::numeric_limits<std::int64_t>::max();
  return V < 0 ? -V : V;
}

Poly Poly::constant(std::int64_t C) {
  Poly P;
  P.add({}, C);
  return P;
}

Poly Poly::symbol(int Id) {
  Poly P;
  P.add({Id}, 1);
  return P;
}

Poly Poly::invalid() {
  Poly P;
  P.Valid = false;
  return P;
}

void Poly::add(const Monomial &M, std::int64_t C) {
  if (!Valid || C == 0)
    return;
  std::int64_t &Slot = Terms[M];
  std::int64_t Sum;
  if (__builtin_add_overflow(Slot, C, &Sum) || !inRange(Sum)) {
    Valid = false;
    Terms.clear();
    return;
  }
  Slot = Sum;
  if (Slot == 0)
    Terms.erase(M);
}

bool Poly::isConstant() const {
  return Valid && (Terms.empty() || (Terms.size() == 1 && Terms.begin()->first.empty()));
}

std::int64_t Poly::constantTerm() const { return coefficient({}); }

std::optional<std::int64_t> Poly::asConstant() const {
  if (!isConstant())
    return std::nullopt;
  return constantTerm();
}

std::int64_t Poly::coefficient(const Monomial &M) const {
  auto It = Terms.find(M);
  return It == Terms.end() ? 0 : It->second;
}

Poly Poly::operator+(const Poly &O) const {
  if (!Valid || !O.Valid)
    return invalid();
  Poly R = *this;
  for (const auto &[M, C] : O.Terms)
    R.add(M, C);
  return R;
}

Poly Poly::operator-() const { return times(-1); }

Poly Poly::operator-(const Poly &O) const { return *this + (-O); }

Poly Poly::times(std::int64_t K) const {
  if (!Valid)
    return invalid();
  Poly R;
  for (const auto &[M, C] : Terms) {
    std::int64_t P;
    if (__builtin_mul_overflow(C, K, &P) || !inRange(P))
      return invalid();
    R.add(M, P);
  }
  return R;
}

Poly Poly::operator*(const Poly &O) const {
  if (!Valid || !O.Valid)
    return invalid();
  Poly R;
  for (const auto &[MA, CA] : Terms)
    for (const auto &[MB, CB] : O.Terms) {
      std::int64_t P;
      if (__builtin_mul_overflow(CA, CB, &P) || !inRange(P))
        return invalid();
      Monomial M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      std::sort(M.begin(), M.end());
      R.add(M, P);
      if (!R.Valid)
        return R;
    }
  return R;
}

std::string Poly::str(const std::function<std::string(int)> &Name, bool Spaced) const {
  const char *Times = Spaced ? " * " : "*";
  if (!Valid)
    return "?";
  if (Terms.empty())
    return "0";
  std::string S;
  // Highest degree first, the constant last: "n*m - n + 3"; as source
  // text, of one degree the positive terms first ("n - i", not "-i + n").
  std::vector<std::pair<Monomial, std::int64_t>> Ordered(Terms.begin(), Terms.end());
  std::stable_sort(Ordered.begin(), Ordered.end(), [&](const auto &A, const auto &B) {
    if (A.first.size() != B.first.size())
      return A.first.size() > B.first.size();
    return Spaced && A.second > 0 && B.second < 0;
  });
  for (const auto &[M, C] : Ordered) {
    const bool Negative = C < 0;
    const std::int64_t Abs = absOf(C);
    if (S.empty())
      S += Negative ? "-" : "";
    else
      S += Negative ? " - " : " + ";
    std::string Factors;
    for (int Id : M)
      Factors += (Factors.empty() ? "" : Times) + Name(Id);
    if (Factors.empty())
      S += std::to_string(Abs);
    else
      S += (Abs == 1 ? "" : std::to_string(Abs) + Times) + Factors;
  }
  return S;
}

bool provablyPositive(const Poly &P) {
  std::optional<std::int64_t> C = P.asConstant();
  return C && *C >= 1;
}

} // namespace dpstub::migrate
