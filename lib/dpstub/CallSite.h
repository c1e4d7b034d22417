//===- CallSite.h - The model of one data-parallel call-site -----*- C++ -*-===//
//
// Analysis fills these plain structs; renderers (stub header, rewritten
// call-site, --list JSON, the language server's hover) read only them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace dpstub {

/// The conversions of an argument to its kernel parameter.
enum class Conversion {
  SpecialIndex,
  ElementalProjection,
  PartialProjection,
  BroadcastField,
  BroadcastScalar,
};

/// "elemental projection", ...
const char *toString(Conversion C);

/// Which special index a token or implicit parameter asks for: the index
/// value (_index), the tile's index (_tile_index), the index within the
/// tile (_local_index), or the whole dp::tile_group (_tile).
enum class IndexKind { Global, Tile, Local, Group };

/// The kind of compute domain a call-site runs over.
enum class DomainKind { Grid, Tiled, Where, LowerTriangle, UpperTriangle };
const char *toString(DomainKind K);

/// The compute domain of a call-site.
struct Domain {
  DomainKind Kind = DomainKind::Grid;
  std::string Type;                     ///< "dp::tiled_grid<2, 16, 16>"
  std::vector<long long> Tile;          ///< a tiled grid's tile extents
  /// The type of each dp::tile_static object the kernel (or what it calls)
  /// declares, one entry per object: the stub's tile memory holds them all.
  std::vector<std::string> TileStatics;
  bool Barrier = false;                 ///< the kernel synchronises its tile
  bool isTiled() const { return Kind == DomainKind::Tiled; }
  bool isTriangle() const {
    return Kind == DomainKind::LowerTriangle || Kind == DomainKind::UpperTriangle;
  }
};

/// How a kernel (or an operator, or a comparator) is spelled at the call-site.
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
  unsigned Position = 0;      ///< 0-based among the kernel's arguments
  std::string Text;           ///< the user's expression, as written
  std::string ActualType;     ///< e.g. "dp::field<2, float>"
  int ActualRank = 0;         ///< Ra
  bool ActualIsField = false; ///< a dp::field (or view) rather than a user type
  /// A dp::rows (an array of rows' view): broadcast, moved by the launch
  /// (its rows written unless ElementConst).
  bool ActualIsRows = false;
  std::string ElementType;    ///< field element type, without const ("float")
  bool ElementConst = false;  ///< a read_only view (element type const)
  std::string FormalType;     ///< e.g. "const dp::field<1, float> &"
  bool FormalElementConst = false; ///< a known field formal over const elements
  std::string FormalName;     ///< the parameter's name, may be empty
  int FormalRank = 0;         ///< Rf
  bool FormalKnown = true;    ///< false for generic (auto) parameters
  Conversion Conv = Conversion::BroadcastScalar;
  IndexKind Index = IndexKind::Global; ///< for SpecialIndex
  bool Writable = false;      ///< read-write access (written back)
  /// In a template whose instantiations give this argument different types:
  /// the stub's type parameter standing for them ("T0"), else empty.
  std::string TypeParam;
  /// Every type the instantiations give it, for the stub's comment.
  std::vector<std::string> InstantiatedTypes;
  Location Loc;
};

/// The kernel of a call-site: the forall kernel, the map function `f` of a
/// reduce or scan, the comparator of a sort.
struct Kernel {
  KernelKind Kind = KernelKind::Lambda;
  std::string Name;      ///< qualified name of a free function / class
  std::string Signature; ///< "void sum_rows(double &c, const dp::field<1, double> &a)"
  bool Mutable = false;  ///< a mutable lambda: captured fields are writable
  bool Generic = false;  ///< operator() is a template (auto parameters)
  bool ImplicitIndex = false; ///< first parameter receives the index implicitly
  /// Its body is `return x;` of its one parameter, which takes a field's
  /// element unconverted: it hands the element on as it is.
  bool ReturnsItsElement = false;
  /// Its body, or a function of the user's it calls, holds a loop: the
  /// host's rows compile it into fewer row loops (hostOneRowLoop).
  bool Loops = false;
};

/// The combining operator `r` of a reduce or scan.
struct Operator {
  std::string Text;          ///< as written: "std::plus<>()"
  KernelKind Kind = KernelKind::FunctionObject;
  std::string Name;          ///< a free function's qualified name (called by name)
  bool Library = false;      ///< from the standard library (needs no marking)
};

/// The order a sort's comparator gives, when the tool can see it.
enum class SortOrder {
  Custom,    ///< any strict weak ordering: a merge sort with the comparator
  Ascending, ///< the natural `<` of an arithmetic key: a radix sort
  Descending ///< the natural `>` of an arithmetic key: a radix sort
};
const char *toString(SortOrder O);

/// The kind of a call-site: which dp:: function it calls.
enum class CallKind { Forall, Reduce, Scan, Sort };
/// "forall", "reduce", "scan", "sort": as in dp::NAME and the stub names.
const char *toString(CallKind K);

/// What a reduce, scan or sort writes: its scalar or field.
struct Result {
  std::string Text;        ///< as written
  std::string Type;        ///< "dp::scalar<double>", "dp::field<2, float>"
  std::string ElementType; ///< "double"
  int Rank = 0;            ///< 0 for a scalar
};

/// One call-site, analysed.
struct CallSite {
  CallKind Kind = CallKind::Forall;
  int Dim = -1;                ///< reduce<Dim>, scan<Dim>, sort<Dim>; -1 for a full reduce
  Location Loc;
  int ComputeRank = 0;
  Domain Dom;
  /// The rank the stub is launched at: a forall over a triangle launches
  /// the numbers of its points (rank 1), everything else the compute rank.
  int launchedRank() const { return Kind == CallKind::Forall && Dom.isTriangle() ? 1 : ComputeRank; }
  Kernel K;
  Operator Op;                 ///< reduce and scan
  Result Out;                  ///< reduce, scan and sort
  SortOrder Order = SortOrder::Custom;
  std::vector<Argument> Args;
  std::string StubName; ///< "forall_20_3": unique within the translation unit
  /// The __global__ stub's name, what profilers show:
  /// "dp_forall__jacobi_cpp__21" (the column appended when another
  /// call-site of the kind shares the line). Stable across re-translation.
  std::string KernelName;
  /// The execution options the call-site passes first ("dp::on(q).when(n >
  /// 64)"), as written; empty when it passes none.
  std::string Options;

  /// "dp::forall", "dp::reduce<2>".
  std::string spelling() const {
    return std::string("dp::") + toString(Kind) + (Dim >= 0 ? "<" + std::to_string(Dim) + ">" : "");
  }
  /// True when the kernel can tell the tile it runs in: it takes a tile
  /// token (dp::_tile, dp::_tile_index or dp::_local_index).
  bool seesTile() const {
    for (const Argument &A : Args)
      if (A.Conv == Conversion::SpecialIndex && A.Index != IndexKind::Global)
        return true;
    return false;
  }
  /// True when the kernel sees where in its tile it runs but nothing of
  /// the tile's other threads: tile or local indices and no dp::_tile (so
  /// no barrier and no dp::tile_static).
  bool seesTilePlaceOnly() const {
    for (const Argument &A : Args)
      if (A.Conv == Conversion::SpecialIndex && A.Index == IndexKind::Group)
        return false;
    return seesTile();
  }
  /// True when the host's rows compile the kernel into one row loop per
  /// position type (dp::rt::looping), not one per row counter too, nor a
  /// merged walk: a kernel that loops itself does enough at an element
  /// that what those save does not show, and its loops were compiled up to
  /// nine times. (A forall's, over a domain that is not tiled.)
  bool hostOneRowLoop() const { return K.Loops && Kind == CallKind::Forall && !Dom.isTiled(); }
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
