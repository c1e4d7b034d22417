//===- Allocations.h - What the program allocates, and how much -*- C++ -*-===//
//
// An array becomes a dp::field where dpstub sees its allocation and can
// tell its element count: `malloc`, `calloc`, `aligned_alloc`,
// `_mm_malloc`, `new T[n]`, the device allocators of OpenMP and OpenACC,
// and the program's own helpers around them (a one-statement helper
// returning one, or a wrapper of several statements whose only parameter
// is the bytes it allocates at least of). And where it sees the release
// that goes with them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <string>

namespace dpstub::migrate {

/// Whether A and B are one element type, qualifiers aside.
bool sameElement(clang::QualType A, clang::QualType B);

/// The element count, as text, of the allocation E makes of elements of
/// type Elem; none when E is not an allocation dpstub reads.
std::optional<std::string> allocationCount(const clang::Expr *E, clang::QualType Elem, clang::ASTContext &Ctx,
                                           int Depth = 0);

/// The call E is when it returns device memory (`(double *)
/// acc_malloc(n)`), or null.
const clang::CallExpr *deviceAllocation(const clang::Expr *E);

/// Whether C, a call to Name, releases device memory from an allocation
/// deviceAllocation reads, with the pointer its argument Index:
/// `acc_free(p)`, `omp_target_free(p, device)`.
bool freesDevice(const clang::CallExpr *C, unsigned Index, llvm::StringRef Name);

/// True when the function C calls only releases its parameter `Index`
/// (`template <class T> void dealloc(T *p) { delete[] p; }`, or free(p)).
bool releasesOnly(const clang::CallExpr *C, unsigned Index);

/// True when the function C calls only releases what its parameter
/// `Index`, a pointer to the array's pointer, points at, and sets that
/// pointer to null: LULESH's `template <typename T> void Release(T **p)
/// { if (*p != NULL) { free(*p); *p = NULL; } }`, called as `Release(&a)`.
bool releasesThrough(const clang::CallExpr *C, unsigned Index);

} // namespace dpstub::migrate
