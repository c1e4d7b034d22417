//===- Aliasing.h - Loops over pointers a caller may pass twice -*- C++ -*-===//
//
// A loop over a caller's pointers borrows each (dp::borrow), and C lets
// the caller pass one array as two of them (`axpy(n, a, y, y)`). A field
// a call-site writes cannot also be one of its arguments, so a pointer
// the loop only reads is borrowed with dp::borrow_read, which copies it
// when it overlaps memory the call-site writes: the loop then reads the
// values from before it. That is what the original computed when every
// iteration reads such a pointer before it writes anything it may alias.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/LoopModel.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <vector>

namespace dpstub::migrate {

class ArrayData; // ArrayData.h

/// Whether every read of Read in one run of Body (an iteration) comes
/// before every write through Written: the reads are in statements before
/// the first one that names a written pointer, or on the right of that
/// statement's assignment (`y[i] += a * x[i];`), none in a loop around it.
bool readsBeforeWrites(const clang::Stmt *Body, const clang::VarDecl *Read,
                       const std::vector<const clang::VarDecl *> &Written);

/// Whether the call-site borrows A, a pointer M only reads, with
/// dp::borrow_read: beside other borrowed pointers, when the loop writes
/// none of them, or when it is a directive's loop (whose iterations the
/// directive calls independent) that reads A before it writes them. A
/// plain loop's independence was proved for distinct arrays: no copy.
bool readsThroughCopy(const LoopModel &M, const ArrayUse &A);

/// The fields M writes that a caller may pass as the field A it only reads
/// (one of the two a parameter of the file's function, `step(state,
/// state)`, of one group, ArrayData::mayBeOne; neither `restrict`), when a
/// directive's loop reads A before it writes them: the call-site then
/// reads dp::read_apart(A, them...), a copy when they are one. None
/// otherwise (a plain loop's independence was proved for distinct arrays,
/// and local pointers are one only after `a = b`: the call-site's
/// aliasing check says when they are).
std::vector<const clang::VarDecl *> readApartFrom(const LoopModel &M, const ArrayUse &A, const ArrayData &Arrays);

} // namespace dpstub::migrate
