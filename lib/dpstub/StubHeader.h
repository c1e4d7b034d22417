//===- StubHeader.h - The stub header of a translation unit ----*- C++ -*-===//
#pragma once

#include "dpstub/CallSite.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace dpstub {

/// The header beside a rewritten source: launcher declarations (first
/// inclusion), then every call-site's stub and launcher (second inclusion),
/// in namespace dpstub::<Namespace>. Reads only the models.
std::string renderStubHeader(const std::vector<CallSite> &CallSites, llvm::StringRef SourceName,
                             llvm::StringRef Namespace);

} // namespace dpstub
