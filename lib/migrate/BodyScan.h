//===- BodyScan.h - What a loop body touches --------------------*- C++ -*-===//
//
// One walk over a loop nest's body collects what analysis decides from:
// the variables from outside it (read, written, their address taken), the
// array elements it reads and writes (with their subscripts, whether a
// condition guards them and which inner loops enclose them), the calls it
// makes, and the statements that would leave the loop early.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// How an expression is used where it stands.
struct UseMode {
  bool Read = false, Write = false;
  bool Address = false; ///< its address is taken (&x), or it binds a non-const reference
};

/// The part of an element E (`a[k]`) an expression reaches: E climbed
/// through parentheses, `.` members and subscripts of member arrays
/// (`a[k].w`, `a[k].keys[j]`). Decays when it ends in a member array
/// handed on as a pointer (`a[k].keys`): the decay is returned.
const clang::Expr *elementPart(const clang::Expr *E, clang::ASTContext &Ctx, bool &Decays);

/// The element E reaches through the subscripts it is the base of
/// (`a[i][j]` for the `a` of it; E itself when none), and how many.
const clang::Expr *subscriptedElement(const clang::Expr *E, clang::ASTContext &Ctx, int *Subscripts = nullptr);

/// The mode of E in its parents: assigned, incremented, read, ... (of the
/// element, for the part of it the expression reaches).
UseMode useMode(const clang::Expr *E, clang::ASTContext &Ctx);

/// The statement above S, or null.
const clang::Stmt *parentOf(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The first statement above S that is not a parenthesis or an implicit
/// cast; Child is the node just below it.
const clang::Stmt *meaningfulParent(const clang::Stmt *S, clang::ASTContext &Ctx,
                                    const clang::Stmt *&Child);

/// True for the variables migration treats as arrays: pointers to data,
/// C arrays, std::vector.
bool isArrayLike(clang::QualType T);

/// Every variable reference in S, in source order.
std::vector<const clang::DeclRefExpr *> namesIn(const clang::Stmt *S);

/// Every call in S (direct, through a pointer, of a member), in order.
std::vector<const clang::CallExpr *> callsIn(const clang::Stmt *S);

/// The body of every function the unit defines: at namespace scope, in
/// namespaces and `extern "C"` blocks, in classes, in templates.
std::vector<const clang::Stmt *> functionBodies(const clang::ASTContext &Ctx);

/// Whether S names one of Vars.
bool names(const clang::Stmt *S, const std::vector<const clang::VarDecl *> &Vars);

/// The data members a member function reads by their names (`a[i]` and
/// `size` for `this->a[i]` and `this->size`), and the members of other
/// objects reached from a variable (`m->x[i]`, `d.arr[i]`, `g.mesh->n`):
/// each stands in the analysis as a variable of its own (a VarDecl made
/// for it in its class, outside the AST's tree), so that a loop borrows a
/// member array and passes a member value as it does a pointer parameter
/// or a global's value. One per field (per path) for the unit. A path's
/// variable is named as the host writes it (`m->x`, which data clauses
/// name too); a kernel knows it as kernelName() (`m_x`).
class MemberVars {
public:
  explicit MemberVars(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  /// The variable of E when E names a data member through the implicit
  /// `this` (not `this->a`, whose text a kernel's parameter cannot take
  /// the place of), or is a path: members (`.`, `->`) from a variable to
  /// a pointer to data or a value of arithmetic type; else null.
  const clang::VarDecl *of(const clang::Expr *E) const;
  /// True for a member's variable (a path's too).
  bool isMember(const clang::VarDecl *V) const { return Fields.count(V) > 0; }
  /// The variable of an element accessor's member, when C calls one on a
  /// variable (`domain.x(i)`: accessedMember): the member array, named
  /// as the call names it (`domain.x`), which a loop borrows through the
  /// accessor (`&domain.x(0)`) and a kernel indexes as `domain_x(i)`.
  const clang::VarDecl *accessorOf(const clang::CXXMemberCallExpr *C) const;
  /// The variable a path starts from (`m` for `m->x`); null for others.
  const clang::VarDecl *rootOf(const clang::VarDecl *V) const {
    auto It = Roots.find(V);
    return It == Roots.end() ? nullptr : It->second;
  }

private:
  const clang::VarDecl *path(const clang::MemberExpr *M) const;
  const clang::VarDecl *accessor(const clang::MemberExpr *M) const;
  /// The variable standing for F, named Name, of F's type or Type.
  const clang::VarDecl *make(const clang::FieldDecl *F, llvm::StringRef Name, clang::QualType Type = {}) const;
  clang::ASTContext &Ctx;
  mutable std::map<const clang::FieldDecl *, const clang::VarDecl *> Vars;
  mutable std::map<const clang::MemberExpr *, const clang::VarDecl *> Seen; ///< path() of each expression
  /// By their first variable and text.
  mutable std::map<std::pair<const clang::VarDecl *, std::string>, const clang::VarDecl *> Paths;
  mutable std::map<const clang::VarDecl *, const clang::VarDecl *> Roots;
  /// By the variable called on and the member the accessor returns of.
  mutable std::map<std::pair<const clang::VarDecl *, const clang::FieldDecl *>, const clang::VarDecl *> Accessors;
  mutable std::set<const clang::VarDecl *> Fields;
};

/// The data member whose element M, an element accessor, returns: a
/// member function of one integer parameter whose whole body is `return
/// m[p];`, m a std::vector or pointer member of its class read through
/// the implicit `this` and p the parameter, returning a reference to that
/// element (LULESH's `Real_t& x(Index_t idx) { return m_x[idx]; }`), so
/// that `&obj.acc(k)` is `&obj.acc(0) + k`. Null for other functions.
const clang::FieldDecl *accessedMember(const clang::CXXMethodDecl *M);

/// Whether V stands for an accessor's member (MemberVars::accessorOf).
bool isAccessorVar(const clang::VarDecl *V);

/// The paths (MemberVars) S writes, outermost only, with their variables.
std::vector<std::pair<const clang::MemberExpr *, const clang::VarDecl *>> pathsIn(const clang::Stmt *S,
                                                                                  const MemberVars &Members);

/// An identifier made of a member path's text: each run of other
/// characters (`.`, `->`) becomes one `_` (`m_x` for `m->x`).
std::string pathIdentifier(llvm::StringRef Path);

/// Where the elements of V (an array, isArrayLike) start, as dp::borrow
/// takes them on the host: its name (`m->x`), `m.v.data()` for a
/// std::vector, `&m.x(0)` for an accessor's member.
std::string borrowedMemory(const clang::VarDecl *V);

/// V's name in a kernel: its own, or for a path's variable (MemberVars)
/// the path with `_` for its operators (`m_x` for `m->x`), with
/// `_member` after it while the unit uses that name.
std::string kernelName(const clang::VarDecl *V);

/// A use of a variable declared outside the body (or of a member, by its
/// name: the expression is then a MemberExpr).
struct VarRef {
  const clang::Expr *Ref = nullptr;
  const clang::VarDecl *Var = nullptr;
  UseMode Mode;
  bool Conditional = false; ///< under a condition, as ElementAccess's
};

/// An element access `a[e]`, `g[i][j]`, `v[e]` of an outside array.
struct ElementAccess {
  const clang::VarDecl *Array = nullptr;
  const clang::Expr *Whole = nullptr;              ///< the outermost subscript
  std::vector<const clang::Expr *> Indices;        ///< first dimension first
  UseMode Mode;
  bool Conditional = false;
  /// When conditional only through `if`s it is in the then-branch of (no
  /// else, loop, ternary or && around it): their conditions, outermost
  /// first. It happens exactly when all of them hold.
  std::vector<const clang::Expr *> Guards;
  std::vector<const clang::ForStmt *> InnerLoops;  ///< enclosing loops inside the body
  /// Through a member array of the element (`knodes[k].keys[j]`: Whole is
  /// `knodes[k]`), the whole expression; else null.
  const clang::Expr *Part = nullptr;
  /// Through an offset pointer (OffsetPointer.h: `row[j]` of `double *row
  /// = &a[e]`): that pointer, and the `e` its one index adds to where the
  /// pointer is made once, in its declaration; else null.
  const clang::VarDecl *Through = nullptr;
  const clang::Expr *Offset = nullptr;
};

/// Everything one walk finds.
struct BodyFacts {
  std::vector<VarRef> Refs;           ///< outside variables, arrays not indexed included
  std::vector<ElementAccess> Accesses;
  std::vector<const clang::CallExpr *> Calls;
  std::vector<const clang::Stmt *> Exits; ///< break/return/goto/throw/try leaving the loop
  bool ContinuesLoop = false;         ///< a continue of the scanned loop itself
  /// A break or continue anywhere (an inner loop's too): what follows it
  /// may not happen.
  bool Jumps = false;
  const clang::Stmt *ThisUse = nullptr;
  std::vector<const clang::ForStmt *> InnerLoops;
  std::vector<const clang::VarDecl *> StaticLocals;
  /// Offset pointers (OffsetPointer.h) the body declares, makes or uses.
  std::set<const clang::VarDecl *> OffsetPointers;
  /// An indexed expression whose base is not a variable (`s.a[i]`, `f()[i]`).
  const clang::Expr *OpaqueAccess = nullptr;
};

class OffsetPointers; // OffsetPointer.h

/// Walks Body (the innermost converted level's body; Headers are the
/// conditions and increments of the levels below the first, walked too),
/// its offset pointers those the unit's Offsets says.
BodyFacts scanBody(const clang::Stmt *Body, const std::vector<const clang::Stmt *> &Headers,
                   clang::ASTContext &Ctx, const OffsetPointers &Offsets, const MemberVars *Members = nullptr);

} // namespace dpstub::migrate
