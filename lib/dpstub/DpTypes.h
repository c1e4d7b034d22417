//===- DpTypes.h - Recognising dp:: types in the AST ------------*- C++ -*-===//
#pragma once

#include "dpstub/CallSite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Type.h"

#include <optional>

namespace dpstub {

/// The dp::NAME<...> class template specialization behind T (references
/// and cv-qualifiers stripped), or null.
const clang::ClassTemplateSpecializationDecl *dpSpecialization(clang::QualType T,
                                                               llvm::StringRef Name);

/// Whether D is the dp library's or the standard library's own code (or in a
/// system header): it brings its own device code, and dpstub neither marks
/// it nor looks into it.
bool isLibraryDecl(const clang::Decl *D, const clang::SourceManager &SM);

/// The DP rank of T: N for dp::field<N,T>, Rf for dp::partial_view, `rank`
/// for a user type with a constant static `rank` and an operator[]; else 0.
int dpRank(clang::QualType T, const clang::ASTContext &Ctx);

/// True for dp::field<N, T> (and so for every view of a field).
bool isDpField(clang::QualType T);
/// A dp::rows<T> (dp::borrowed_rows::rows()): an array of rows' view,
/// moved where the launch runs; whether its elements are const.
bool isDpRows(clang::QualType T);
bool dpRowsElementConst(clang::QualType T);

/// The element type of a dp::field (with its const, if any).
clang::QualType fieldElementType(clang::QualType T);

/// The compute rank of a dp::grid<N>, if T is one.
std::optional<int> gridRank(clang::QualType T);

/// The kind of a special index token type, if T is one.
std::optional<IndexKind> indexToken(clang::QualType T);

/// True when T (refs/cv stripped) is dp::index<Rank>.
bool isDpIndex(clang::QualType T, int Rank);

/// The rank and kind of a compute domain type (dp::grid<N>,
/// dp::tiled_grid<N, T...>, dp::where_domain<N, P>, dp::triangle_domain<P>),
/// with a tiled grid's tile extents; nothing for any other type.
std::optional<std::pair<int, Domain>> computeDomain(clang::QualType T, const clang::ASTContext &Ctx);

/// True for dp::exec_options, a call-site's execution options.
bool isExecOptions(clang::QualType T);
/// True for dp::tile_group<Rank>.
bool isTileGroup(clang::QualType T, int Rank);

/// T of dp::tile_static<T>, or a null type.
clang::QualType tileStaticType(clang::QualType T);

/// T printed as users write it ("const dp::field<1, float> &").
std::string printType(clang::QualType T, const clang::ASTContext &Ctx);

} // namespace dpstub
