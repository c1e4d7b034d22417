//===- ValueCall.cpp - Call-sites whose kernel maps to values -------------===//

#include "ValueCall.h"
#include "AstText.h"
#include "KernelAnalysis.h"
#include "Operators.h"
#include "ResultField.h"
#include "DomainAnalysis.h"
#include "dpstub/DpTypes.h"
#include "dpstub/StubText.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace dpstub {

namespace {
AST_MATCHER(UnresolvedLookupExpr, hasExplicitTemplateArgs) { return Node.hasExplicitTemplateArgs(); }

/// The variable an argument names, if it is just a name.
const VarDecl *namedVariable(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// The variable whose data an argument reads: a name, or a view of one
/// (dp::spread, dp::transpose, dp::read_only, nested).
const VarDecl *viewedVariable(const Expr *E) {
  for (;;) {
    E = E->IgnoreImplicit()->IgnoreParenImpCasts();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() == 1) {
      E = CE->getArg(0);
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *FD = Call->getDirectCallee(); FD && Call->getNumArgs() == 1 &&
                                                            FD->getIdentifier())
        if (const auto *NS = dyn_cast<NamespaceDecl>(FD->getEnclosingNamespaceContext());
            NS && NS->getName() == "dp" &&
            llvm::is_contained({"spread", "transpose", "read_only"}, FD->getName())) {
          E = Call->getArg(0);
          continue;
        }
    return namedVariable(E);
  }
}
} // namespace

StatementMatcher valueCallMatcher(llvm::StringRef Kind, bool WithDim) {
  auto Dim = hasTemplateArgument(0, templateArgument(isIntegral()));
  if (WithDim)
    return callExpr(callee(functionDecl(callSiteCallee(Kind), Dim))).bind("call");
  return callExpr(callee(functionDecl(callSiteCallee(Kind), unless(Dim)))).bind("call");
}

std::optional<AnalysedCall> analyseValueCall(const CallExpr *Call, CallKind Kind,
                                             ASTContext &Ctx, Reporter &Diags) {
  const std::optional<int> Dim = explicitDim(Call);
  // A full reduce folds any set of points (a tiled grid's in tile memory);
  // a reduce<Dim> or scan<Dim> needs the whole pencils of a grid.
  const DomainSet Allowed = Dim ? domainBit(DomainKind::Grid) : AnyDomain;
  Domain D;
  const std::string Spelled = toString(Kind) + (Dim ? "<" + std::to_string(*Dim) + ">" : "");
  const std::optional<int> Rc = checkCallShape(Call, Spelled, 4, Ctx, Diags, Allowed, &D);
  if (!Rc)
    return std::nullopt;
  const std::string Spelling = "dp::" + Spelled;
  if (Dim && (*Dim < 0 || *Dim >= *Rc)) {
    Diags.dimensionOutOfRange(Call->getBeginLoc()) << Spelling << *Dim << *Rc;
    return std::nullopt;
  }
  const Expr *ResultArg = callArg(Call, 2);
  const QualType RT = ResultArg->getType();
  Result Out = resultOf(ResultArg, Ctx);
  auto Reject = [&](const Expr *At, const std::string &Why) {
    Diags.badResult(At->getExprLoc()) << Spelling << Why;
    return std::nullopt;
  };
  QualType T;
  if (!Dim) {
    const auto *S = dpSpecialization(RT, "scalar");
    if (!S)
      return Reject(ResultArg, "dp::reduce without <Dim> reduces into a dp::scalar<T>, not '" +
                                   Out.Type + "'; to reduce along dimension Dim into a field, "
                                   "write dp::reduce<Dim>");
    T = S->getTemplateArgs()[0].getAsType();
  } else {
    const int Want = Kind == CallKind::Reduce ? *Rc - 1 : *Rc;
    if (Want < 1)
      return Reject(callArg(Call, 0), "a reduce<Dim> needs a compute grid of rank 2 or more; "
                                     "reduce a rank-1 grid into a dp::scalar");
    const std::optional<QualType> Element = analyseResultField(
        ResultArg, Want, "the result",
        Kind == CallKind::Reduce ? "the compute rank less the reduced dimension"
                                 : "the compute rank",
        Spelling, Ctx, Diags, Out);
    if (!Element)
      return std::nullopt;
    T = *Element;
  }
  Out.ElementType = printType(T.getCanonicalType().getUnqualifiedType(), Ctx);

  KernelBinding Binding;
  Binding.KernelArg = 3;
  Binding.FirstArg = 4;
  std::optional<AnalysedCall> A = analyseKernelCall(Call, Kind, Binding, *Rc, Ctx, Diags);
  if (!A || !analyseDomain(*A, D, Binding.FirstArg, Ctx, Diags) ||
      !stubsCanPass(*A, toString(Kind), Binding.FirstArg, Diags))
    return std::nullopt;
  const QualType V = kernelResultType(*A);
  if (!V.isNull() && (V->isVoidType() || !convertible(V, T, Ctx)))
    return Reject(callArg(Call, 3), "the map function returns '" + printType(V, Ctx) +
                                       "', which does not convert to the result's element type '" +
                                       Out.ElementType + "'");
  // The result is written while the arguments are read: the same variable
  // in both is a race (the host reference reports it at run time).
  if (const VarDecl *VD = namedVariable(ResultArg))
    for (unsigned I = Binding.FirstArg; I < callArgCount(Call); ++I)
      if (viewedVariable(callArg(Call, I)) == VD) {
        const bool Direct = namedVariable(callArg(Call, I)) == VD;
        return Reject(callArg(Call, I),
                      "the result '" + VD->getName().str() + "' is also " +
                          (Direct ? "argument " : "read through argument ") +
                          std::to_string(I - Binding.FirstArg + 1) +
                          (Direct ? "" : " (" + sourceText(callArg(Call, I), Ctx) + ")") +
                          "; the call would read values it is overwriting: read a clone()");
      }
  std::optional<Operator> Op = analyseOperator(callArg(Call, 1), T, toString(Kind), Ctx, Diags, *A);
  if (!Op)
    return std::nullopt;
  A->Model.Dim = Dim.value_or(-1);
  A->Model.Out = Out;
  A->Model.Op = *Op;
  return A;
}

namespace {

/// The one argument a reduce (full or reduce<Dim>) or a scan<Dim> over a
/// grid reads, when its map reads nothing else: a read-only elemental
/// projection of a field and no index. Over dense rows the runtime then
/// loads the elements from their pointer (the vendor's loads, or a tiled
/// or chained kernel's vectors across the rows) and calls the map on each
/// element it loaded (no position computed).
const Argument *soleElementRead(const CallSite &C) {
  const bool ValueKind = C.Kind == CallKind::Reduce || C.Kind == CallKind::Scan;
  if (!ValueKind || C.Dom.Kind != DomainKind::Grid || C.Args.size() != 1 ||
      C.usesIndexValues())
    return nullptr;
  const Argument &A = C.Args.front();
  const bool Read = A.Conv == Conversion::ElementalProjection && A.ActualIsField && !A.Writable;
  return Read ? &A : nullptr;
}

/// The map function the runtime folds (f's value at a position, fused into
/// the reduction or scan) and, for a named operator, the function object
/// that calls it.
std::string valueDefinitions(const CallSite &C) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  const std::string Rc = std::to_string(C.ComputeRank);
  const std::string &N = C.StubName;
  const bool Tiled = C.Dom.isTiled();
  OS << "/// f at " << (Tiled ? "a tile's thread (padding too: its value is dropped)"
                              : "a logical position")
     << ": what the " << C.spelling() << " folds.\n"
     << "template <class Params> struct " << N << "_map {\n"
     << "  Params p;\n";
  if (Tiled && C.seesTile())
    OS << "  DP_HOST_DEVICE DP_INLINE auto operator()(const dp::rt::tile_point<" << Rc
       << "> &at) const { return " << N << "_body(at, p); }\n";
  else if (Tiled)
    OS << "  template <class At> DP_HOST_DEVICE DP_INLINE auto operator()(const At &at) const {\n"
       << "    return " << N << "_body(at, p);\n"
       << "  }\n";
  else
    OS << "  template <class Pos> DP_HOST_DEVICE DP_INLINE auto operator()(const Pos &pos) const {\n"
       << "    return " << N << "_body(pos, p);\n"
       << "  }\n";
  if (const Argument *A = soleElementRead(C))
    OS << "  /// Its one read: the element of argument " << A->Position + 1
       << " at the position (over a dense\n"
       << "  /// row the vendor loads them from their pointer; dp::detail::element_at).\n"
       << "  DP_HOST_DEVICE const auto &elements() const { return p.a" << A->Position << "; }\n";
  if (soleElementRead(C) && C.K.ReturnsItsElement)
    OS << "  /// f returns the element it takes as it is: the vendor may reduce or\n"
       << "  /// scan the elements themselves.\n"
       << "  static constexpr bool returns_its_element = true;\n";
  OS << "};\n\n";

  const bool NamedOperator = C.Op.Kind == KernelKind::FreeFunction;
  if (NamedOperator)
    OS << "/// The operator " << C.Op.Name << ", called by name (a function is not an object a\n"
       << "/// device can receive).\n"
       << "struct " << N << "_op {\n"
       << "  template <class T> DP_HOST_DEVICE T operator()(const T &a, const T &b) const {\n"
       << "    return static_cast<T>(" << C.Op.Name << "(a, b));\n"
       << "  }\n"
       << "};\n\n";
  return OS.str();
}

/// The launcher's call of the runtime pattern for the kind.
std::string valuePatternCall(const CallSite &C) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  const std::string &N = C.StubName;
  const bool NamedOperator = C.Op.Kind == KernelKind::FreeFunction;
  if (NamedOperator)
    OS << "  (void)op;\n";
  const std::string Op = NamedOperator ? N + "_op()" : "launch.capture(op, false)";
  const std::string Map = N + "_map<params_type>{params}";
  if (C.Kind == CallKind::Scan)
    OS << "  launch.scan<Dim>(result, " << Op << ", " << Map << ");\n";
  else if (C.Dim >= 0)
    OS << "  launch.reduce_pencils<Dim>(result, " << Op << ", " << Map << ");\n";
  else if (C.Dom.isTiled())
    OS << "  launch.template reduce_tiled<" << N << "_tile_bytes>( // each tile folds in tile memory\n"
       << "      result, " << Op << ", " << Map << ", " << N << "_tile_sight);\n";
  else
    OS << "  launch.reduce(result, " << Op << ", " << Map << ");\n";
  return OS.str();
}

} // namespace

StubSpec valueStubSpec(const CallSite &C) {
  StubSpec S;
  S.KernelRole = "map";
  const std::string Result = "result:       `" + C.Out.Text + "` (" + C.Out.Type + "), ";
  if (C.Kind == CallKind::Scan)
    S.ResultLine = Result + "indexed by the index values";
  else if (C.Dim >= 0)
    S.ResultLine = Result + "indexed by the index values less dimension " + std::to_string(C.Dim);
  else
    S.ResultLine = Result + "combined with its prior value";
  S.BodyReturn = "auto";
  S.Definitions = valueDefinitions(C);
  S.LauncherTemplate = "class Op, class Result, class Kernel, class... A";
  S.LauncherParams = "Op &&op, Result &result, Kernel &&kernel, A &&...a";
  S.LauncherBody = valuePatternCall(C);
  S.ListedResult = "result";
  S.Operator = true;
  return S;
}

} // namespace dpstub
