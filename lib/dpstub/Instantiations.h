//===- Instantiations.h - One stub for a template's call-site --*- C++ -*-===//
//
// A call-site in a function template is matched once per instantiation.
// When every instantiation converts its arguments the same way, one stub
// serves them all: the types that differ become the stub's type parameters.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/CallSite.h"

#include <optional>
#include <string>
#include <vector>

namespace dpstub {

/// Merges the models of a call-site's instantiations into Merged. Nothing
/// on success; otherwise why one stub cannot serve them (the conversions,
/// or the kernel called by name, differ).
std::optional<std::string> mergeInstantiations(const std::vector<CallSite> &Models,
                                               CallSite &Merged);

} // namespace dpstub
