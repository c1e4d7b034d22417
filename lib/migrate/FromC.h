//===- FromC.h - A C source's migration, made C++ ----------------*- C++ -*-===//
//
// dp is C++, so the migration of a C source is C++: the C the user wrote
// around and inside the converted loops must be C++ too. What C allows
// and C++ does not, in the main file, is either edited into C++ (an
// implicit conversion from `void *` or to an enum gets its cast, a
// library function called without its header gets the header, `restrict`
// becomes `__restrict`) or reported where it stands, as an error: then
// nothing is written.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/Text.h"

#include "clang/AST/ASTContext.h"

#include <set>
#include <string>

namespace dpstub {
class Reporter;
}

namespace dpstub::migrate {

/// What makes a C unit's migrated text C++: casts and `__restrict` as
/// edits (none where another edit already rewrites the place: a `malloc`
/// that becomes a field has no cast to gain), headers to include, and an
/// error for each construct no edit makes C++ (a call with no declaration
/// in view, a K&R-style definition, a declaration named by a C++ keyword).
struct CxxFromC {
  std::set<std::string> Headers; ///< "string.h", for the library functions called undeclared
};
CxxFromC planCxxFromC(clang::ASTContext &Ctx, EditList &E, Reporter &Diags);

} // namespace dpstub::migrate
