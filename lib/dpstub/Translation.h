//===- Translation.h - One translation unit, translated ---------*- C++ -*-===//
//
// Runs every rule over a parsed translation unit and produces the result as
// values: the call-site models, the edits by file, the stub header text.
// Nothing here writes files.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/CallSite.h"

#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Core/Replacement.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dpstub {

/// A diagnostic as --list reports it.
struct ListedDiagnostic {
  std::string Level; ///< "error", "warning", "note"
  Location Loc;
  std::string Message;
};

/// A call-site in --list: its model when it was translated.
struct ListedCallSite {
  CallSite Model;
  bool Translated = false;
  unsigned EndLine = 0;
};

/// Everything the tool learned about one translation unit.
struct TranslationResult {
  std::string MainFile;          ///< absolute path of the source
  bool ParseFailed = false;      ///< errors from the compiler: nothing is written
  bool HasErrors = false;        ///< errors from dpstub
  std::vector<ListedCallSite> CallSites;
  std::vector<ListedDiagnostic> Diagnostics;
  /// Edits by absolute file path (the source, and headers it includes).
  std::map<std::string, clang::tooling::Replacements> Edits;
  /// Each edited file's content as parsed (in-place mode refuses to write a
  /// file that changed since).
  std::map<std::string, std::string> Parsed;
  std::string StubHeaderName; ///< "foo.cpp.dpstub.hpp", beside the source
  std::string StubHeader;     ///< its text; empty when there is no call-site
};

/// What a run asks of one translation unit.
struct TranslationOptions {
  /// Only report (--list): call-sites keep the positions they have now and
  /// no edit is planned.
  bool ListOnly = false;
};

/// A frontend action that fills a TranslationResult.
std::unique_ptr<clang::FrontendAction> makeTranslateAction(const TranslationOptions &Opts,
                                                           TranslationResult &Out);

} // namespace dpstub
