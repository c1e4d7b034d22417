//===- HoistBorrows.cpp - Borrow blocks lifted out of serial loops --------===//

#include "migrate/HoistBorrows.h"

#include "migrate/BodyScan.h"
#include "migrate/Text.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"

#include <algorithm>
#include <map>

namespace dpstub::migrate {
namespace {

using namespace clang;

/// The loop whose body S is (directly, or as a statement of its block);
/// null where S stands elsewhere.
const ForStmt *loopAround(const Stmt *S, ASTContext &Ctx) {
  for (const DynTypedNode &P : Ctx.getParents(*S)) {
    if (const auto *F = P.get<ForStmt>())
      return F->getBody() == S ? F : nullptr;
    if (const auto *Block = P.get<CompoundStmt>())
      for (const DynTypedNode &PP : Ctx.getParents(*Block))
        if (const auto *F = PP.get<ForStmt>())
          return F->getBody() == Block ? F : nullptr;
    return nullptr;
  }
  return nullptr;
}

/// Whether S holds nothing but the call-sites CallSites and serial loops
/// (no directive of their own) holding the same; the serial loops found
/// go to Serial, the call-sites to Found.
bool holdsOnlyCallSites(const Stmt *S, const std::set<const ForStmt *> &CallSites,
                        const std::set<const ForStmt *> &CandidateLoops, std::vector<const ForStmt *> &Serial,
                        std::vector<const ForStmt *> &Found) {
  if (!S || isa<NullStmt>(S))
    return true;
  if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : Block->body())
      if (!holdsOnlyCallSites(Child, CallSites, CandidateLoops, Serial, Found))
        return false;
    return true;
  }
  const auto *F = dyn_cast<ForStmt>(S);
  if (!F)
    return false;
  if (CallSites.count(F)) {
    Found.push_back(F);
    return true;
  }
  if (CandidateLoops.count(F))
    return false;
  Serial.push_back(F);
  return holdsOnlyCallSites(F->getBody(), CallSites, CandidateLoops, Serial, Found);
}

/// Whether S uses Arrays only by reading their elements (`a[k]` read,
/// not assigned, stepped, addressed, nor the array handed on whole).
bool readsElementsOnly(const Stmt *S, const std::vector<const VarDecl *> &Arrays, ASTContext &Ctx) {
  if (!S)
    return true;
  for (const DeclRefExpr *R : namesIn(S)) {
    if (std::find(Arrays.begin(), Arrays.end(), R->getDecl()) == Arrays.end())
      continue;
    const Expr *E = subscriptedElement(R, Ctx);
    const UseMode Mode = useMode(E, Ctx);
    if (E == R || Mode.Write || Mode.Address)
      return false;
  }
  return true;
}

/// The local a borrow statement declares: `dp::field<1, double> dp_cv = ...`.
std::string declaredName(const std::string &Line) {
  const size_t Eq = Line.find(" = ");
  const size_t Space = Line.rfind(' ', Eq == std::string::npos ? 0 : Eq - 1);
  return Eq == std::string::npos || Space == std::string::npos ? Line : Line.substr(Space + 1, Eq - Space - 1);
}

} // namespace

std::vector<BorrowHoist> hoistBorrows(const std::vector<LoopModel> &Models, const std::vector<bool> &Live,
                                      const std::vector<Candidate> &Candidates,
                                      const std::vector<PragmaLine> &Pragmas, const BorrowLinesOf &LinesOf,
                                      ASTContext &Ctx) {
  std::set<const ForStmt *> CandidateLoops, CallSites; // a model's Outer is its candidate's Loop
  for (const Candidate &C : Candidates)
    CandidateLoops.insert(C.Loop);
  std::map<const ForStmt *, size_t> ModelOf;
  std::map<size_t, std::vector<std::string>> Lines;
  for (size_t I = 0; I < Models.size(); ++I) {
    if (!Live[I])
      continue;
    std::optional<std::vector<std::string>> L = LinesOf(Models[I]);
    if (!L)
      continue;
    CallSites.insert(Models[I].Outer);
    ModelOf[Models[I].Outer] = I;
    Lines[I] = std::move(*L);
  }
  // Each call-site's outermost serial loop holding only such call-sites
  // (each loop's body walked once, however many call-sites it holds).
  std::map<const ForStmt *, bool> Holds;
  const auto HoldsOnly = [&](const ForStmt *F) {
    auto [It, New] = Holds.try_emplace(F, false);
    if (New) {
      std::vector<const ForStmt *> Serial, Found;
      It->second = holdsOnlyCallSites(F->getBody(), CallSites, CandidateLoops, Serial, Found);
    }
    return It->second;
  };
  std::map<const ForStmt *, std::vector<size_t>> Groups;
  std::vector<const ForStmt *> Order;
  for (const auto &[I, L] : Lines) {
    const ForStmt *Best = nullptr;
    for (const ForStmt *Around = loopAround(Models[I].Outer, Ctx);
         Around && !CandidateLoops.count(Around) && HoldsOnly(Around); Around = loopAround(Around, Ctx))
      Best = Around;
    if (!Best)
      continue;
    if (!Groups.count(Best))
      Order.push_back(Best);
    Groups[Best].push_back(I);
  }
  std::vector<BorrowHoist> Hoists;
  for (const ForStmt *Loop : Order) {
    std::vector<const ForStmt *> Serial{Loop}, Found;
    holdsOnlyCallSites(Loop->getBody(), CallSites, CandidateLoops, Serial, Found);
    std::vector<size_t> Inside;
    for (const ForStmt *F : Found)
      Inside.push_back(ModelOf.at(F));
    // The arrays borrowed, each the same way by every call-site: plain
    // borrows first (a borrow_read names the written ones after it).
    std::vector<const VarDecl *> Arrays, Written;
    std::map<std::string, std::string> ByName;
    std::vector<std::string> Plain, Read;
    bool Same = true;
    for (size_t I : Inside) {
      for (const ArrayUse &A : Models[I].Arrays)
        if (!A.Borrowed.empty()) {
          for (const VarDecl *R : A.Var->redecls()) { // a reference names any of them
            Arrays.push_back(R);
            if (A.Written)
              Written.push_back(R);
          }
        }
      for (const std::string &Line : Lines.at(I)) {
        auto [It, New] = ByName.try_emplace(declaredName(Line), Line);
        if (!New) {
          Same &= It->second == Line;
          continue;
        }
        (Line.find("dp::borrow_read(") != std::string::npos ? Read : Plain).push_back(Line);
      }
    }
    if (!Same)
      continue;
    // The loops' headers run on the host between the call-sites: they
    // must not read what the call-sites write (what they only read, the
    // host's copy still holds: NPB BT's back-substitution, `for (i =
    // grid_points[0] - 2; ...)`), nor write what they borrow.
    bool Clean = true;
    for (const ForStmt *F : Serial)
      for (const Stmt *Part : {F->getInit(), static_cast<const Stmt *>(F->getCond()), static_cast<const Stmt *>(F->getInc())})
        Clean &= !names(Part, Written) && readsElementsOnly(Part, Arrays, Ctx);
    // Nor may a call-site's own bounds, evaluated on the host before it
    // launches, read what another one wrote.
    for (size_t I : Inside)
      for (const LoopLevel &L : Models[I].Levels)
        Clean &= !names(L.LowerExpr, Written) && !names(L.UpperExpr, Written) && !names(L.RunTimeStep, Written);
    // No directive inside but the call-sites' own, and none around it
    // (a region's threads would each run the loops).
    const std::optional<Span> LoopSpan = spanOf(Loop->getSourceRange(), Ctx);
    Clean &= LoopSpan.has_value();
    std::set<const PragmaLine *> Own;
    for (size_t I : Inside)
      Own.insert(Candidates[I].Pragma);
    for (const PragmaLine &P : Pragmas) {
      if (!Clean)
        break;
      if (P.Begin >= LoopSpan->Begin && P.Begin < LoopSpan->End) {
        bool Inner = Own.count(&P) > 0;
        for (size_t I : Inside)
          for (const SourceRange &R : Models[I].InnerPragmas)
            Inner |= R.getBegin() == P.Loc;
        Clean &= Inner;
      } else if (P.On) {
        Clean &= !textWithin(Loop, P.On, Ctx);
      }
    }
    if (!Clean || ByName.empty())
      continue;
    BorrowHoist H;
    H.Loop = Loop;
    H.Lines = Plain;
    H.Lines.insert(H.Lines.end(), Read.begin(), Read.end());
    for (size_t I : Inside)
      H.Models[I] = Lines.at(I);
    Hoists.push_back(std::move(H));
  }
  return Hoists;
}

} // namespace dpstub::migrate
