//===- Rewrite.cpp - Function objects in the rewritten source -------------===//
//
// LambdaRewrite (Lambdas.h), the planner's stage: the objects named, each
// definition rendered before the declaration that holds its lambda, its
// construction in the lambda's place, and the models that name them.
//
//===----------------------------------------------------------------------===//

#include "AstText.h"
#include "lambdas/Detail.h"
#include "lambdas/Lambdas.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace dpstub {

LambdaRewrite::LambdaRewrite(const std::vector<AnalysedCall> &Accepted, ASTContext &Ctx) {
  for (const AnalysedCall &A : Accepted)
    for (const LambdaObject &O : A.Objects)
      Objects.emplace(O.Begin, &O);
  std::set<std::string> Taken;
  for (const auto &[Begin, O] : Objects) {
    std::string Name = O->BaseName;
    for (int K = 2; Taken.count(Name) || Ctx.Idents.find(Name) != Ctx.Idents.end(); ++K)
      Name = O->BaseName + "_" + std::to_string(K);
    Taken.insert(Name);
    Names[Begin] = Name;
    Definitions[O->InsertAt] += renderLambdaObject(*O, Name);
  }
}

std::vector<const LambdaExpr *> LambdaRewrite::replaced() const {
  std::vector<const LambdaExpr *> Out;
  for (const auto &[Begin, O] : Objects)
    Out.push_back(O->Lambda);
  return Out;
}

bool LambdaRewrite::prefixDefinitions(const Edit &E) {
  const auto It = Definitions.find(E.Offset);
  if (E.Length != 0 || It == Definitions.end())
    return false;
  It->second.insert(0, E.Text);
  return true;
}

std::vector<Edit> LambdaRewrite::edits() const {
  std::vector<Edit> Out;
  for (const auto &[At, Text] : Definitions)
    Out.push_back({At, 0, Text});
  for (const auto &[Begin, O] : Objects)
    Out.push_back({O->Begin, O->End - O->Begin, O->construction(Names.at(Begin))});
  return Out;
}

const LambdaObject *LambdaRewrite::objectOf(const AnalysedCall &A, const LambdaExpr *LE) const {
  if (!LE)
    return nullptr;
  for (const LambdaObject &O : A.Objects)
    if (O.Lambda == LE)
      return Objects.at(O.Begin);
  return nullptr;
}

void LambdaRewrite::describe(AnalysedCall &A, llvm::StringRef Buffer, ASTContext &Ctx) const {
  if (const LambdaObject *O = objectOf(A, A.Lambda)) {
    const std::string &Name = Names.at(O->Begin);
    Kernel &K = A.Model.K;
    K.Kind = KernelKind::FunctionObject;
    K.Name = O->Scope + Name;
    K.Signature = K.Generic ? K.Name + " (generic)"
                            : signatureOf(A.Lambda->getCallOperator(), Ctx,
                                          K.Name.substr(2) + "::operator()");
    // A generic parameter's type is its type parameter now: `auto &o`
    // reads `P0 &o`.
    for (Argument &Arg : A.Model.Args)
      for (const auto &[Param, TypeParam] : O->AutoParams) {
        const size_t At = Arg.FormalType.find("auto");
        if (!Arg.FormalName.empty() && Arg.FormalName == Param && At != std::string::npos)
          Arg.FormalType.replace(At, 4, TypeParam);
      }
  }
  if (const LambdaObject *O = objectOf(A, A.OperatorLambda)) {
    Operator &Op = A.Model.Op;
    Op.Kind = KernelKind::FunctionObject;
    if (Op.Text == Buffer.slice(O->Begin, O->End))
      Op.Text = O->construction(Names.at(O->Begin));
  }
}

std::string LambdaObject::construction(llvm::StringRef Name) const {
  std::vector<std::string> Args;
  for (const Member &M : Members)
    Args.push_back(M.Init);
  return Name.str() + TemplateArgs + "(" + llvm::join(Args, ", ") + ")";
}

std::string renderLambdaObject(const LambdaObject &O, llvm::StringRef Name) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "/// dpstub: the lambda at " << O.Origin << ", as a function object:\n/// "
     << O.Restriction << ".\n";
  if (!O.TemplateHead.empty())
    OS << O.TemplateHead << "\n";
  OS << "struct " << Name << " {\n";
  for (const LambdaObject::Constant &C : O.Constants)
    OS << "  static constexpr " << C.Type << " " << C.Name << " = " << C.Value << ";\n";
  for (const LambdaObject::Member &M : O.Members)
    OS << "  " << M.Type << " " << M.Name << ";\n";
  if (!O.Members.empty()) {
    // The parameter of member x is x_ (x_in for a member x_, as x__
    // would be a reserved name).
    auto Parameter = [](const std::string &Member) {
      return Member + (llvm::StringRef(Member).ends_with("_") ? "in" : "_");
    };
    OS << "  explicit " << Name << "(";
    for (size_t I = 0; I < O.Members.size(); ++I)
      OS << (I ? ", " : "") << "const " << O.Members[I].ParamType << " &"
         << Parameter(O.Members[I].Name);
    OS << ")\n      : ";
    for (size_t I = 0; I < O.Members.size(); ++I)
      OS << (I ? ", " : "") << O.Members[I].Name << "(" << Parameter(O.Members[I].Name) << ")";
    OS << " {}\n";
  }
  if (!O.TypeParams.empty())
    OS << "  template <" << llvm::join(O.TypeParams, ", ") << ">\n";
  OS << "  DP_HOST_DEVICE " << O.Return << " operator()(" << O.Params << ") const " << O.Body
     << "\n};\n";
  return S;
}

} // namespace dpstub
