//===- ArrayData.h - Arrays that can become dp::fields ----------*- C++ -*-===//
//
// A loop moves to a device only with its data: every array it touches
// must become a dp::field, so that dp's coherence follows every access.
// That is possible where the array's allocation and every use are in the
// main file: raw pointers from malloc/calloc/new[] (and their free /
// delete[]), std::vector, C arrays (`double g[N][M]` becomes rank 2),
// and the pointer parameters they are passed to. Variables that hand one
// array to another (a parameter, `tmp = a`, std::swap) form a group,
// converted whole or not at all. A host use dpstub cannot follow (an
// external function, a null test, pointer arithmetic handed to a call)
// gets `.data()`, which makes the host copy current before it runs; a use
// that keeps a pointer beyond the statement refuses the group, with the
// place named.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/BodyScan.h"
#include "migrate/LoopModel.h"
#include "migrate/OffsetPointer.h"
#include "migrate/Text.h"

#include "clang/AST/ASTContext.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// One array variable of the main file.
struct ArrayVar {
  enum class Kind { Pointer, CArray, Vector } K = Kind::Pointer;
  const clang::VarDecl *Var = nullptr;
  int Rank = 1;
  clang::QualType Element;          ///< with its const, if any
  int Group = -1;
  /// An array of rows (`float **a`, read as a[i][j]; Rank 2, Element the
  /// rows' values): never a field, since its rows may lie anywhere, but a
  /// loop may borrow it row by row (dp::borrowed_rows). Rank 3 for an
  /// array of such arrays (`double ***u`, read as u[i][j][k]).
  bool Rows = false;
  /// Holds device memory (`acc_create`, `acc_deviceptr`, ...): the host
  /// cannot read it, so no call-site may borrow it.
  bool Device = false;
  /// Allocated on the device alone (`acc_malloc`, `omp_target_alloc`):
  /// a dp::field, as for malloc, since only device code touched it; its
  /// being handed to a function (acc_memcpy_to_device) is refused.
  bool DeviceAllocated = false;
};

/// The extents of the C array type T, outermost first, when every one is
/// a constant greater than 0 (`double u[13][13][13][5]`); none otherwise.
std::optional<std::vector<std::uint64_t>> constantExtents(clang::QualType T, const clang::ASTContext &Ctx);

/// True when V is a C array of static storage the program keeps whole
/// (a namespace-scope or class-static array of constant extents, every
/// one known: `static double u[13][13][13][5]`): a call-site may borrow
/// all of it (dp::borrow over the grid of its extents), where it cannot
/// become a field (declared in a header --migrate does not edit, or
/// extern, defined in another file).
bool wholeStaticArray(const clang::VarDecl *V);

/// The extents of the C array V, outermost first, as written (a macro's
/// as its value); none when one is not written out (`double a[] = {...}`).
std::optional<std::vector<std::string>> writtenExtents(const clang::VarDecl *V, const clang::ASTContext &Ctx);

/// True when T can be a dp::field's element: an arithmetic type, a
/// trivially copyable class, or a C struct of such members (its bytes
/// cross to a device).
bool plainElement(clang::QualType T);

/// True when T is a type parameter of a template around Where (a member
/// function's class template, a function template) whose every instance
/// in the file gives it a plain element type (`T` of a `Stream<T>` made
/// for float and double): memory of T's borrows, and a scalar of T
/// reduces, in the template's text, for each instance.
bool plainTemplateParameter(clang::QualType T, const clang::DeclContext *Where);

/// True when T is a type parameter of a template around Where and Holds
/// of every instance's type for it (plainTemplateParameter with another
/// test: arithmetic, for a reduction's operator).
bool templateParameterAlways(clang::QualType T, const clang::DeclContext *Where,
                             const std::function<bool(clang::QualType)> &Holds);

/// The parameter a call's argument Index reaches when that parameter can
/// become a field with the array handed to it (the two are then one
/// group): an array parameter of a function of the main file, as written
/// (a function template's one instance reaches the template's). Null
/// otherwise.
const clang::ParmVarDecl *fieldParameter(const clang::CallExpr *C, unsigned Index,
                                         const clang::SourceManager &SM);

/// The type E is handed on as, when E is a block of an array (a
/// subscript chain short of its rank: NPB BT's `lhs[i][j][k][AA]`, a
/// 5x5 block of a rank-6 array) that decays to a pointer a call takes as
/// an argument (`double (*)[5]`); a null type otherwise.
clang::QualType handedBlock(const clang::Expr *E, clang::ASTContext &Ctx);

/// True when the element E's address is an argument of a call (NPB LU's
/// `exact(i, j, k, &u[i][j][k][0])`).
bool handedElementAddress(const clang::Expr *E, clang::ASTContext &Ctx);

/// The arrays of the main file, their groups and their rewrites.
class ArrayData {
public:
  /// Scans the main file of Ctx.
  explicit ArrayData(clang::ASTContext &Ctx);
  ~ArrayData();

  /// The unit's data members read by their names, as variables
  /// (BodyScan.h): their arrays borrow, never become fields.
  const MemberVars &memberVars() const;
  /// The unit's offset pointers (OffsetPointer.h), decided once each.
  const OffsetPointers &offsetPointers() const;

  /// V's entry, if V is an array variable of the main file.
  const ArrayVar *find(const clang::VarDecl *V) const;
  /// Whether the arrays A and B (of the file, distinct) may be one array at
  /// run time: they are of one group (a caller may pass one array to both
  /// parameters, or one pointer may be assigned the other).
  bool mayBeOne(const clang::VarDecl *A, const clang::VarDecl *B) const;
  /// Why V's group cannot become dp::fields; empty when it can.
  const Refusal &refusal(const clang::VarDecl *V) const;
  /// Why V itself cannot (its group's reason may be another member's);
  /// empty when nothing refused V itself.
  const Refusal &ownRefusal(const clang::VarDecl *V) const;
  /// `dp::field<2, double>` (Const: with a const element).
  std::string fieldType(const clang::VarDecl *V, bool Const) const;
  /// The field's element type alone (`double`, `const double`).
  std::string elementType(const clang::VarDecl *V, bool Const) const;
  /// Every variable of the groups of these (what becomes a dp::field).
  std::set<const clang::VarDecl *> members(const std::set<const clang::VarDecl *> &Vars) const;
  /// The edits turning the groups of these variables into dp::fields.
  void convert(const std::set<const clang::VarDecl *> &Vars, EditList &Out) const;
  /// V's edits between the offsets Begin and End of the main file: its
  /// accesses there made element accesses (`a[i]` -> `a(i)`).
  std::vector<TextEdit> editsWithin(const clang::VarDecl *V, unsigned Begin, unsigned End) const;

  struct Impl; ///< the scan's state (ArrayData.cpp)

private:
  std::unique_ptr<Impl> P;
};

} // namespace dpstub::migrate
