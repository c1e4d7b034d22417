//===- CallSite.h - The model of one data-parallel call-site -----*- C++ -*-===//
//
// Analysis fills these plain structs; renderers (stub header, rewritten
// call-site, --list JSON) read only them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace dpstub {

/// The conversions of SPEC section 3.
enum class Conversion {
  SpecialIndex,
  ElementalProjection,
  PartialProjection,
  BroadcastField,
  BroadcastScalar,
};

/// "elemental projection", ...
const char *toString(Conversion C);

/// Which special index a token or implicit parameter asks for.
enum class IndexKind { Global, Tile, Local };

/// How a kernel is spelled at the call-site.
enum class KernelKind { FreeFunction, Lambda, FunctionObject };
const char *toString(KernelKind K);

/// A source position, 1-based, as users see it.
struct Location {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string str() const; ///< "file:line:col"
};

/// One call-site argument and how the kernel receives it.
struct Argument {
  unsigned Position = 0;      ///< 0-based among the kernel arguments
  std::string Text;           ///< the user's expression, as written
  std::string ActualType;     ///< e.g. "dp::field<2, float>"
  int ActualRank = 0;         ///< Ra
  bool ActualIsField = false; ///< a dp::field (or view) rather than a user type
  std::string ElementType;    ///< field element type, without const ("float")
  bool ElementConst = false;  ///< a read_only view (element type const)
  std::string FormalType;     ///< e.g. "const dp::field<1, float> &"
  std::string FormalName;     ///< the parameter's name, may be empty
  int FormalRank = 0;         ///< Rf
  bool FormalKnown = true;    ///< false for generic (auto) parameters
  Conversion Conv = Conversion::BroadcastScalar;
  IndexKind Index = IndexKind::Global; ///< for SpecialIndex
  bool Writable = false;      ///< read-write access (written back)
  Location Loc;
};

/// The kernel of a call-site.
struct Kernel {
  KernelKind Kind = KernelKind::Lambda;
  std::string Name;      ///< qualified name of a free function / class
  std::string Signature; ///< "void sum_rows(double &c, const dp::field<1, double> &a)"
  bool Mutable = false;  ///< a mutable lambda: captured fields are writable
  bool Generic = false;  ///< operator() is a template (auto parameters)
  bool ImplicitIndex = false; ///< first parameter receives the index implicitly
};

/// One call-site, analysed.
struct CallSite {
  std::string Kind = "forall"; ///< forall, reduce, scan, sort
  Location Loc;
  int ComputeRank = 0;
  Kernel K;
  std::vector<Argument> Args;
  std::string StubName; ///< "forall_20_3": unique within the translation unit

  bool usesIndexValues() const {
    if (K.ImplicitIndex)
      return true;
    for (const Argument &A : Args)
      if (A.Conv == Conversion::SpecialIndex ||
          (A.Conv == Conversion::ElementalProjection && !A.ActualIsField))
        return true; // user indexable types are indexed by index values
    return false;
  }
};

} // namespace dpstub
