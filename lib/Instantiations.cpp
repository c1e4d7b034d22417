//===- Instantiations.cpp - One stub for a template's call-site -----------===//

#include "dpstub/Instantiations.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace dpstub {

namespace {

std::string accessWords(const Argument &A) {
  return A.Conv == Conversion::SpecialIndex ? "value" : A.Writable ? "read-write" : "read-only";
}

/// How two instantiations' conversions differ, in words; empty when they
/// are the same.
std::string withArticle(const std::string &Noun) {
  return (Noun.find_first_of("aeiou") == 0 ? "an " : "a ") + Noun;
}

std::string difference(const CallSite &A, const CallSite &B) {
  if (A.ComputeRank != B.ComputeRank)
    return "the compute rank is " + std::to_string(A.ComputeRank) + " in one instantiation and " +
           std::to_string(B.ComputeRank) + " in another";
  if (A.Args.size() != B.Args.size())
    return "the number of arguments differs";
  if (A.K.ImplicitIndex != B.K.ImplicitIndex || A.K.Mutable != B.K.Mutable ||
      A.K.Kind != B.K.Kind)
    return "the kernel differs";
  if (A.K.Kind == KernelKind::FreeFunction && A.K.Name != B.K.Name)
    return "its kernel is a different function in each instantiation (" + A.K.Name + ", " +
           B.K.Name + ")";
  if (A.Op.Kind != B.Op.Kind || A.Op.Name != B.Op.Name)
    return "its operator is a different function in each instantiation";
  if (A.Out.Rank != B.Out.Rank)
    return "the result's rank differs";
  if (A.Dom.Kind != B.Dom.Kind)
    return "the compute domain is " + withArticle(toString(A.Dom.Kind)) +
           " in one instantiation and " + withArticle(toString(B.Dom.Kind)) + " in another";
  if (A.Dom.Tile != B.Dom.Tile)
    return "the tile is '" + A.Dom.Type + "' in one instantiation and '" + B.Dom.Type +
           "' in another";
  if (A.Order != B.Order)
    return "the comparator's order is natural in one instantiation only";
  for (size_t I = 0; I < A.Args.size(); ++I) {
    const Argument &X = A.Args[I], &Y = B.Args[I];
    const std::string Which = "argument " + std::to_string(I + 1) + " is ";
    if (X.Conv != Y.Conv || X.ActualRank != Y.ActualRank || X.FormalRank != Y.FormalRank)
      return Which + "a " + toString(X.Conv) + " of rank " + std::to_string(X.ActualRank) +
             " in one instantiation and a " + toString(Y.Conv) + " of rank " +
             std::to_string(Y.ActualRank) + " in another";
    if (X.Writable != Y.Writable || X.FormalKnown != Y.FormalKnown)
      return Which + accessWords(X) + " in one instantiation and " + accessWords(Y) + " in another";
    if (X.ActualIsField != Y.ActualIsField || X.ElementConst != Y.ElementConst ||
        X.Index != Y.Index)
      return Which + "'" + X.ActualType + "' in one instantiation and '" + Y.ActualType +
             "' in another";
  }
  return "";
}

void addOnce(std::vector<std::string> &List, const std::string &S) {
  if (std::find(List.begin(), List.end(), S) == List.end())
    List.push_back(S);
}

} // namespace

std::optional<std::string> mergeInstantiations(const std::vector<CallSite> &Models,
                                               CallSite &Merged) {
  Merged = Models.front();
  for (const CallSite &Other : Models)
    if (std::string Why = difference(Merged, Other); !Why.empty())
      return Why;
  std::vector<std::string> Signatures, ResultTypes;
  for (const CallSite &M : Models) {
    addOnce(Signatures, M.K.Signature);
    addOnce(ResultTypes, M.Out.Type);
  }
  // The tile memory holds what any instantiation declares: each type as
  // many times as the instantiation declaring the most objects of it.
  Merged.Dom.TileStatics.clear();
  for (const CallSite &M : Models) {
    for (const std::string &T : M.Dom.TileStatics) {
      const auto Have = llvm::count(Merged.Dom.TileStatics, T);
      if (llvm::count(M.Dom.TileStatics, T) > Have)
        Merged.Dom.TileStatics.push_back(T);
    }
    Merged.Dom.Barrier |= M.Dom.Barrier;
  }
  Merged.K.Signature = llvm::join(Signatures, " | ");
  Merged.Out.Type = llvm::join(ResultTypes, " | ");
  for (size_t I = 0; I < Merged.Args.size(); ++I) {
    Argument &A = Merged.Args[I];
    A.InstantiatedTypes.clear();
    std::vector<std::string> Formals;
    bool Differs = false;
    for (const CallSite &M : Models) {
      const Argument &B = M.Args[I];
      addOnce(A.InstantiatedTypes, B.ActualType);
      addOnce(Formals, B.FormalType);
      Differs |= A.ActualIsField ? B.ElementType != A.ElementType : B.ActualType != A.ActualType;
    }
    A.FormalType = llvm::join(Formals, " | ");
    if (Differs && A.Conv != Conversion::SpecialIndex)
      A.TypeParam = "T" + std::to_string(A.Position);
  }
  return std::nullopt;
}

} // namespace dpstub
