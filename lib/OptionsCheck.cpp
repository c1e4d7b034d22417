//===- OptionsCheck.cpp - Execution options judged at translation time ---===//
//
// A call-site's execution options (dp::on(q).group_size(...)...) are
// ordinary values the runtime checks; the hints spelled with constants
// are checked here too, so the mistake is a located error before anything
// runs: a group of more than 1024 threads or an extent below 1, a group
// shape on a tiled domain (the tile is the group), max_groups below 1.
//
//===----------------------------------------------------------------------===//

#include "OptionsCheck.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

#include <string>

using namespace clang;

namespace dpstub {

namespace {

/// The hint a call in the options chain sets, if any: dp::group_size,
/// dp::max_groups, or exec_options' members of those names.
llvm::StringRef hintName(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return {};
  const std::string Qualified = FD->getQualifiedNameAsString();
  if (Qualified != "dp::group_size" && Qualified != "dp::max_groups" &&
      Qualified != "dp::exec_options::group_size" && Qualified != "dp::exec_options::max_groups")
    return {};
  return FD->getName();
}

/// The call's explicit arguments (not the object of a member call).
std::vector<const Expr *> hintArgs(const CallExpr *Call) {
  std::vector<const Expr *> Out;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I)
    if (!isa<CXXDefaultArgExpr>(Call->getArg(I)))
      Out.push_back(Call->getArg(I));
  return Out;
}

class OptionsChecker {
public:
  OptionsChecker(const Domain *D, ASTContext &Ctx, Reporter &Diags) : D(D), Ctx(Ctx), Diags(Diags) {}

  void visit(const Stmt *S) {
    if (!S)
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      check(Call);
    for (const Stmt *Child : S->children())
      visit(Child);
  }
  bool ok() const { return Ok; }

private:
  void check(const CallExpr *Call) {
    const llvm::StringRef Name = hintName(Call);
    if (Name.empty())
      return;
    const std::vector<const Expr *> Args = hintArgs(Call);
    if (Name == "group_size") {
      if (D && D->isTiled()) {
        std::string Tile;
        for (long long T : D->Tile)
          Tile += (Tile.empty() ? "" : ", ") + std::to_string(T);
        Diags.groupOnTiled(Call->getExprLoc()) << Tile;
        Ok = false;
        return;
      }
      long long Shape[3] = {1, 1, 1};
      for (std::size_t I = 0; I < Args.size() && I < 3; ++I) {
        Expr::EvalResult R;
        if (Args[I]->isValueDependent() || !Args[I]->EvaluateAsInt(R, Ctx))
          return; // known only at run time: the runtime checks it
        Shape[I] = R.Val.getInt().getExtValue();
      }
      const std::string Text = std::to_string(Shape[0]) + ", " + std::to_string(Shape[1]) + ", " +
                               std::to_string(Shape[2]);
      if (Shape[0] < 1 || Shape[1] < 1 || Shape[2] < 1) {
        Diags.groupExtent(Call->getExprLoc()) << Text;
        Ok = false;
      } else if (Shape[0] * Shape[1] * Shape[2] > 1024) {
        Diags.groupTooLarge(Call->getExprLoc()) << Text << Shape[0] * Shape[1] * Shape[2];
        Ok = false;
      }
    } else if (Args.size() == 1) { // max_groups
      Expr::EvalResult R;
      if (!Args[0]->isValueDependent() && Args[0]->EvaluateAsInt(R, Ctx) &&
          R.Val.getInt().getExtValue() < 1) {
        Diags.noGroups(Call->getExprLoc()) << R.Val.getInt().getExtValue();
        Ok = false;
      }
    }
  }

  const Domain *D;
  ASTContext &Ctx;
  Reporter &Diags;
  bool Ok = true;
};

} // namespace

bool checkOptions(const Expr *Options, const Domain *D, ASTContext &Ctx, Reporter &Diags) {
  OptionsChecker Checker(D, Ctx, Diags);
  Checker.visit(Options);
  return Checker.ok();
}

} // namespace dpstub
