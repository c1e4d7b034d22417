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
#include <optional>
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
  /// Every file the parse read (absolute, sorted): what the translation
  /// depends on, for a dependency file.
  std::vector<std::string> Inputs;
  /// A selection was given for this file and held no call-site.
  bool SelectionEmpty = false;
};

/// A range of a source, as clang-refactor's --selection gives it: 1-based
/// lines and columns, the end inclusive.
struct Selection {
  std::string File; ///< absolute path
  unsigned BeginLine = 0, BeginColumn = 0, EndLine = 0, EndColumn = 0;
};

/// Parses "file:line:col[-line:col]"; an error says what is wrong.
llvm::Expected<Selection> parseSelection(llvm::StringRef Text);

/// What a run asks of one translation unit.
struct TranslationOptions {
  /// Only report (--list): call-sites keep the positions they have now and
  /// no edit is planned.
  bool ListOnly = false;
  /// Translate only the dp:: call-sites that overlap this range (launches
  /// translated before are always kept).
  std::optional<Selection> Only;
};

/// A frontend action that fills a TranslationResult.
std::unique_ptr<clang::FrontendAction> makeTranslateAction(const TranslationOptions &Opts,
                                                           TranslationResult &Out);

} // namespace dpstub
