//===- Outputs.cpp - What a translation writes ----------------------------===//

#include "dpstub/Outputs.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <set>
#include <tuple>

namespace dpstub {

std::optional<std::string> readFile(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return std::nullopt;
  return (*Buf)->getBuffer().str();
}

std::string stubHeaderPath(const TranslationResult &Unit) {
  return (llvm::sys::path::parent_path(Unit.MainFile) + "/" + Unit.StubHeaderName).str();
}

namespace {
/// The files of (unit, plan) pairs: edits of one file merged, as several
/// units may mark the same helper header.
llvm::Expected<std::map<std::string, FileOutput>>
outputsOf(const std::vector<std::pair<const TranslationResult *, const TranslationPlan *>> &Plans) {
  std::map<std::string, std::set<std::tuple<unsigned, unsigned, std::string>>> Edits;
  std::map<std::string, std::string> Parsed;
  std::map<std::string, FileOutput> Out;
  for (const auto &[U, P] : Plans) {
    for (const auto &[File, Reps] : P->Edits)
      for (const clang::tooling::Replacement &R : Reps)
        Edits[File].insert({R.getOffset(), R.getLength(), R.getReplacementText().str()});
    for (const auto &[File, Text] : U->Parsed)
      Parsed.emplace(File, Text);
    if (!P->StubHeader.empty()) {
      const std::string Header = stubHeaderPath(*U);
      FileOutput &H = Out[Header];
      H.Before = readFile(Header);
      H.After = P->StubHeader;
      H.Edits = clang::tooling::Replacements(clang::tooling::Replacement(
          Header, 0, H.Before ? H.Before->size() : 0, P->StubHeader));
    }
  }
  for (const auto &[File, Set] : Edits) {
    std::optional<std::string> Before;
    if (auto It = Parsed.find(File); It != Parsed.end())
      Before = It->second;
    else
      Before = readFile(File);
    if (!Before)
      return llvm::createStringError("cannot read " + File);
    clang::tooling::Replacements Reps;
    for (const auto &[Offset, Length, Text] : Set)
      if (llvm::Error E = Reps.add(clang::tooling::Replacement(File, Offset, Length, Text)))
        return llvm::createStringError("conflicting edits in " + File + ": " +
                                       llvm::toString(std::move(E)));
    llvm::Expected<std::string> After = clang::tooling::applyAllReplacements(*Before, Reps);
    if (!After)
      return After.takeError();
    Out[File] = FileOutput{Before, *After, Reps};
  }
  return Out;
}
} // namespace

llvm::Expected<std::map<std::string, FileOutput>>
computeOutputs(const std::vector<const TranslationResult *> &Units) {
  std::vector<std::pair<const TranslationResult *, const TranslationPlan *>> Plans;
  for (const TranslationResult *U : Units)
    if (!U->ParseFailed && !U->HasErrors) // nothing is written for a unit that failed
      Plans.push_back({U, &U->Whole});
  return outputsOf(Plans);
}

llvm::Expected<std::map<std::string, FileOutput>> computeOutputs(const TranslationResult &Unit,
                                                                 const TranslationPlan &Plan) {
  return outputsOf({{&Unit, &Plan}});
}

} // namespace dpstub
