//===- StubHeader.h - The stub header of a translation unit ----*- C++ -*-===//
#pragma once

#include "dpstub/CallSite.h"

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <string>
#include <vector>

namespace dpstub {

/// The header beside a rewritten source: launcher declarations (first
/// inclusion), then every call-site's stub and launcher (second inclusion),
/// in namespace dpstub::<Namespace>. Reads only the models. IsMacro says
/// which names the source defines as macros: those the stubs spell are
/// kept aside (push_macro, #undef) while each part is read, since the
/// definitions come at the source's end, after its macros (NPB FT's
/// `#define A 1220703125.0` against a template's `class... A`).
std::string renderStubHeader(const std::vector<CallSite> &CallSites, llvm::StringRef SourceName,
                             llvm::StringRef Namespace,
                             const std::function<bool(llvm::StringRef)> &IsMacro = nullptr);

} // namespace dpstub
