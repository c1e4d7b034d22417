// The model of migration's nests (Dependence.h) evaluated by brute
// force, for property tests: every point at which an access happens, the
// element it touches; and short builders for nests.
#pragma once

#include "migrate/Dependence.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace dpstub::migrate::nest_model {

/// A value for every symbol; evaluates polynomials.
using Values = std::map<int, std::int64_t>;

inline std::int64_t eval(const Poly &P, const Values &S) {
  std::int64_t V = 0;
  for (const auto &[M, C] : P.terms()) {
    std::int64_t T = C;
    for (int Id : M)
      T *= S.at(Id);
    V += T;
  }
  return V;
}

/// Every point at which access A happens: the parallel variables and the
/// inner ones whose loops enclose it, as values (a triangular inner loop
/// over [From, To) of the values before it), where its When holds.
inline void forEachPoint(const Nest &N, const Access &A, const Values &S,
                  const std::function<void(const std::vector<std::int64_t> &)> &F) {
  std::vector<std::int64_t> Value(N.Vars.size(), 0);
  auto Holds = [&] {
    if (!A.When)
      return true;
    return std::all_of(A.When->begin(), A.When->end(), [&](const Subscript &G) {
      std::int64_t X = eval(G.Const, S);
      for (size_t K = 0; K < G.Coef.size(); ++K)
        X += eval(G.Coef[K], S) * Value[K];
      return X >= 0;
    });
  };
  std::function<void(size_t)> Walk = [&](size_t V) {
    if (V == N.Vars.size())
      return Holds() ? F(Value) : void();
    const LoopVar &L = N.Vars[V];
    const bool Encloses = L.Parallel || std::count(A.Loops.begin(), A.Loops.end(), int(V));
    if (!Encloses)
      return Walk(V + 1);
    if (L.From) {
      auto At = [&](const Subscript &B) {
        std::int64_t X = eval(B.Const, S);
        for (size_t K = 0; K < B.Coef.size(); ++K)
          X += eval(B.Coef[K], S) * Value[K];
        return X;
      };
      for (std::int64_t X = At(*L.From), To = At(*L.To); X < To; ++X)
        Value[V] = X, Walk(V + 1);
      return;
    }
    for (std::int64_t K = 0, Count = eval(*L.Count, S); K < Count; ++K)
      Value[V] = eval(L.Lower, S) + L.Step * K, Walk(V + 1);
  };
  Walk(0);
}

inline std::vector<std::int64_t> element(const Access &A, const std::vector<std::int64_t> &Value,
                                  const Values &S) {
  std::vector<std::int64_t> E;
  for (const Subscript &D : A.Dims) {
    std::int64_t Sum = eval(D.Const, S);
    for (size_t V = 0; V < D.Coef.size(); ++V)
      Sum += eval(D.Coef[V], S) * Value[V];
    E.push_back(Sum);
  }
  return E;
}

inline Poly C(std::int64_t V) { return Poly::constant(V); }
inline Poly Sym(int Id) { return Poly::symbol(Id); }

/// A subscript sum(Coef[v] * v) + Const.
inline Subscript sub(std::vector<Poly> Coef, Poly Const) {
  Subscript S;
  S.Affine = true;
  S.Coef = std::move(Coef);
  S.Const = std::move(Const);
  return S;
}

inline LoopVar var(const char *Name, bool Parallel, Poly Count, Poly Lower = C(0), std::int64_t Step = 1) {
  LoopVar V;
  V.Name = Name;
  V.Parallel = Parallel;
  V.Count = std::move(Count);
  V.Lower = std::move(Lower);
  V.Step = Step;
  return V;
}

inline Access access(int Array, bool Write, std::vector<Subscript> Dims, const char *Text) {
  Access A;
  A.Array = Array;
  A.Write = Write;
  A.Dims = std::move(Dims);
  A.Text = Text;
  return A;
}

} // namespace dpstub::migrate::nest_model
