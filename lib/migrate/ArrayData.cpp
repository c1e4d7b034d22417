//===- ArrayData.cpp - Arrays that can become dp::fields ------------------===//
//
// One walk over the main file records every array variable and every use
// of one; each use is a flow (joining two variables' groups), an edit
// (`a[e]` to `a(e)`, malloc to a field's construction, `.data()` where
// host code hands the array on), or a refusal naming its place.
//
//===----------------------------------------------------------------------===//

#include "migrate/ArrayData.h"
#include "migrate/Allocations.h"

#include "migrate/OffsetPointer.h"

#include "migrate/BodyScan.h"
#include "migrate/Canonical.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "AstVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <numeric>
#include <set>

using namespace clang;

namespace dpstub::migrate {

namespace {


/// Rank and element of an array-like type: pointers and C arrays nest.
std::pair<int, QualType> shapeOf(QualType T) {
  int Rank = 0;
  T = T.getNonReferenceType();
  if (const auto *RD = T->getAsCXXRecordDecl()) { // std::vector<E>
    if (const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      if (S->getTemplateArgs().size() >= 1 && S->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
        return {1, S->getTemplateArgs()[0].getAsType()};
    return {0, QualType()};
  }
  if (const auto *P = T->getAs<PointerType>()) {
    ++Rank;
    T = P->getPointeeType();
  }
  while (const ArrayType *A = T->getAsArrayTypeUnsafe()) {
    ++Rank;
    const QualType Q = T;
    T = A->getElementType();
    if (Q.isConstQualified())
      T.addConst();
  }
  return {Rank, T};
}

/// An element type a dp::field holds: arithmetic, or a plain struct.
/// The definition whose text a call of Def runs: a function template's
/// pattern for its one instance (its parameters are the ones written), or
/// Def itself. Null for a template of several instances (one text cannot
/// take fields of float and of double), a member of a class template or a
/// template with a parameter pack: their text serves other shapes too.
const FunctionDecl *writtenDefinition(const FunctionDecl *Def) {
  if (!Def->isTemplateInstantiation())
    return Def;
  const FunctionDecl *Pattern = Def->getTemplateInstantiationPattern();
  const FunctionTemplateDecl *Template = Pattern ? Pattern->getDescribedFunctionTemplate() : nullptr;
  if (!Template || Pattern->getDeclContext()->isDependentContext() ||
      Pattern->getNumParams() != Def->getNumParams() ||
      std::distance(Template->specializations().begin(), Template->specializations().end()) != 1)
    return nullptr;
  for (const ParmVarDecl *P : Pattern->parameters())
    if (P->isParameterPack())
      return nullptr;
  return Pattern;
}

/// An element type a function template's parameter names by its type
/// parameter (`T *dst`): each instance's arrays decide it.
bool templateElement(QualType T) { return T.getCanonicalType()->isTemplateTypeParmType(); }

} // namespace

std::optional<std::vector<std::string>> writtenExtents(const VarDecl *V, const ASTContext &Ctx) {
  std::vector<std::string> Extents;
  const TypeSourceInfo *TSI = V->getTypeSourceInfo();
  TypeLoc T = TSI ? TSI->getTypeLoc().getUnqualifiedLoc() : TypeLoc(); // constexpr's const
  while (!T.isNull() && T.getAs<ArrayTypeLoc>()) {
    const ArrayTypeLoc AT = T.getAs<ArrayTypeLoc>();
    T = AT.getElementLoc();
    std::string E = AT.getSizeExpr() ? textOf(AT.getSizeExpr(), Ctx) : std::string();
    // An extent inside a macro's expansion: its value.
    Expr::EvalResult R;
    if (E.empty() && AT.getSizeExpr() && AT.getSizeExpr()->EvaluateAsInt(R, Ctx))
      E = std::to_string(R.Val.getInt().getExtValue());
    if (E.empty())
      return std::nullopt;
    Extents.push_back(std::move(E));
  }
  return Extents;
}

std::optional<std::vector<std::uint64_t>> constantExtents(QualType T, const ASTContext &Ctx) {
  std::vector<std::uint64_t> Extents;
  for (; T->isArrayType(); T = T->getAsArrayTypeUnsafe()->getElementType()) {
    const ConstantArrayType *A = Ctx.getAsConstantArrayType(T);
    if (!A || A->getSize() == 0)
      return std::nullopt;
    Extents.push_back(A->getSize().getZExtValue());
  }
  if (Extents.empty())
    return std::nullopt;
  return Extents;
}

bool wholeStaticArray(const VarDecl *V) {
  return V->hasGlobalStorage() && !V->isStaticLocal() && !isa<ParmVarDecl>(V) &&
         constantExtents(V->getType(), V->getASTContext());
}

bool plainElement(QualType T) {
  T = T.getCanonicalType();
  if (T->isArithmeticType())
    return true;
  if (const auto *RD = T->getAsCXXRecordDecl())
    return RD->hasDefinition() && RD->isTriviallyCopyable() && !RD->isPolymorphic();
  // A C struct: plain when its members are (no pointers: they would point
  // into the host's memory on a device).
  if (const RecordDecl *RD = T->getAsRecordDecl()) {
    const RecordDecl *Def = RD->getDefinition();
    return Def && !Def->isUnion() && !Def->field_empty() &&
           std::all_of(Def->field_begin(), Def->field_end(), [](const FieldDecl *F) {
             QualType M = F->getType().getCanonicalType();
             while (const auto *A = dyn_cast<ConstantArrayType>(M.getTypePtr()))
               M = A->getElementType().getCanonicalType();
             return !F->isBitField() && plainElement(M);
           });
  }
  return false;
}

bool plainTemplateParameter(QualType T, const DeclContext *Where) {
  return templateParameterAlways(T, Where, plainElement);
}

bool templateParameterAlways(QualType T, const DeclContext *Where, const std::function<bool(QualType)> &Holds) {
  const auto *P = T.getNonReferenceType()->getAs<TemplateTypeParmType>();
  if (!P || P->isParameterPack() || !Where)
    return false;
  // The templates around Where, outermost first: a depth each.
  std::vector<const Decl *> Templates;
  for (const DeclContext *D = Where; D; D = D->getParent()) {
    if (const auto *R = dyn_cast<CXXRecordDecl>(D); R && R->getDescribedClassTemplate())
      Templates.insert(Templates.begin(), R->getDescribedClassTemplate());
    else if (const auto *F = dyn_cast<FunctionDecl>(D); F && F->getDescribedFunctionTemplate())
      Templates.insert(Templates.begin(), F->getDescribedFunctionTemplate());
  }
  if (P->getDepth() >= Templates.size())
    return false;
  const unsigned Index = P->getIndex();
  auto Plain = [&](const TemplateArgumentList &Args) {
    return Index < Args.size() && Args[Index].getKind() == TemplateArgument::Type && Holds(Args[Index].getAsType());
  };
  const Decl *Template = Templates[P->getDepth()];
  if (const auto *C = dyn_cast<ClassTemplateDecl>(Template)) {
    for (const ClassTemplateSpecializationDecl *S : C->specializations())
      if (!Plain(S->getTemplateArgs()))
        return false;
    return true;
  }
  for (const FunctionDecl *F : cast<FunctionTemplateDecl>(Template)->specializations())
    if (!F->getTemplateSpecializationArgs() || !Plain(*F->getTemplateSpecializationArgs()))
      return false;
  return true;
}

namespace {

/// The arrays `c ? a : b` chooses between, when both arms name one.
std::optional<std::pair<const VarDecl *, const VarDecl *>> chosenArrays(const Expr *E) {
  const auto *C = dyn_cast<ConditionalOperator>(E->IgnoreParenImpCasts());
  if (!C)
    return std::nullopt;
  const VarDecl *T = namedVar(C->getTrueExpr()), *F = namedVar(C->getFalseExpr());
  if (!T || !F || !isArrayLike(T->getType()) || !isArrayLike(F->getType()))
    return std::nullopt;
  return std::make_pair(T, F);
}

/// `*(a + k)`, `*(k + a)`, `*(a - k)`, `*(a + k + m)`: one element of a,
/// named by pointer arithmetic, and its index as the user wrote its parts.
struct DerefElement {
  const UnaryOperator *Deref;
  std::string Index;
};
std::optional<DerefElement> derefElement(const Stmt *Pointer, const BinaryOperator *B, ASTContext &Ctx) {
  std::string Index;
  const Stmt *Child = Pointer;
  for (const Stmt *P = B;;) {
    const auto *Op = dyn_cast_or_null<BinaryOperator>(P);
    if (Op && (Op->getOpcode() == BO_Add || Op->getOpcode() == BO_Sub)) {
      const bool Left = Op->getLHS() == Child;
      if (!Left && (Op->getOpcode() == BO_Sub || Op->getRHS() != Child))
        return std::nullopt; // `k - a`, or the pointer is not an operand
      const std::string Term = textOf(Left ? Op->getRHS() : Op->getLHS(), Ctx);
      if (Term.empty())
        return std::nullopt;
      if (Op->getOpcode() == BO_Sub)
        Index += Index.empty() ? "-" + Term : " - " + Term;
      else
        Index += Index.empty() ? Term : " + " + Term;
      P = meaningfulParent(Op, Ctx, Child);
      continue;
    }
    const auto *U = dyn_cast_or_null<UnaryOperator>(P);
    if (U && U->getOpcode() == UO_Deref && !Index.empty())
      return DerefElement{U, Index};
    return std::nullopt;
  }
}

/// True when E's value is an argument of a call (which uses it while it
/// runs), looking through parentheses and casts.
bool consumedByCall(const Expr *E, ASTContext &Ctx) {
  const Stmt *Child;
  const Stmt *P = meaningfulParent(E, Ctx, Child);
  while (P && isa<ExplicitCastExpr>(P))
    P = meaningfulParent(P, Ctx, Child);
  const auto *C = dyn_cast_or_null<CallExpr>(P);
  if (!C)
    return false;
  for (const Expr *A : C->arguments())
    if (A == Child)
      return true;
  return false;
}

bool isNull(const Expr *E, ASTContext &Ctx) {
  return E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull;
}

/// Whether the initialiser E of an array sets every element to zero, as a
/// dp::field's elements start: `= {0}`, `= {}`, `= {{0.0}, {0}}` (the
/// elements not written are zero too). Not `-0.0`, which prints otherwise.
bool zeroFills(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreImplicit();
  if (isa<ImplicitValueInitExpr>(E))
    return true;
  if (const auto *L = dyn_cast<InitListExpr>(E)) {
    for (const Expr *I : L->inits())
      if (!zeroFills(I, Ctx))
        return false;
    return !L->hasArrayFiller() || zeroFills(L->getArrayFiller(), Ctx);
  }
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsRValue(R, Ctx))
    return false;
  if (R.Val.isInt())
    return R.Val.getInt().isZero();
  return R.Val.isFloat() && R.Val.getFloat().isPosZero();
}


/// Whether P tests its child Child, a pointer, for null without
/// converting it (C's `!a`, `a && b`, `if (a)`, `a ? x : y`: the null
/// check after an allocation).
bool testsThePointer(const Stmt *P, const Stmt *Child) {
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(P))
    return U->getOpcode() == UO_LNot;
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(P))
    return B->isLogicalOp();
  if (const auto *C = dyn_cast_or_null<ConditionalOperator>(P))
    return C->getCond() == Child;
  if (const auto *I = dyn_cast_or_null<IfStmt>(P))
    return I->getCond() == Child;
  if (const auto *W = dyn_cast_or_null<WhileStmt>(P))
    return W->getCond() == Child;
  if (const auto *Do = dyn_cast_or_null<DoStmt>(P))
    return Do->getCond() == Child;
  if (const auto *F = dyn_cast_or_null<ForStmt>(P))
    return F->getCond() == Child;
  return false;
}

/// MPI calls that keep a buffer after they return.
bool keepsBuffer(StringRef Name) {
  return Name.starts_with("MPI_I") || Name.starts_with("MPI_R") || Name == "MPI_Put" ||
         Name == "MPI_Get" || Name == "MPI_Accumulate" || Name == "MPI_Send_init" ||
         Name == "MPI_Recv_init" || Name == "MPI_Win_create" || Name == "MPI_Buffer_attach";
}

/// Whether argument \p Index of a call to \p FD takes a pointer to elements
/// (void *, double *, a variadic slot) rather than rows of a C array.
bool wantsElementPointer(const FunctionDecl *FD, unsigned Index) {
  if (!FD)
    return false; // a call through a pointer: its parameter type is unknown here
  if (Index >= FD->getNumParams())
    return FD->isVariadic();
  const auto *Ptr = FD->getParamDecl(Index)->getType()->getAs<PointerType>();
  return Ptr && !Ptr->getPointeeType()->isArrayType();
}

std::string whereText(SourceLocation L, const SourceManager &SM) {
  const PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(L));
  return P.isValid() ? "line " + std::to_string(P.getLine()) : std::string("here");
}

} // namespace

struct ArrayData::Impl {
  ASTContext &Ctx;
  const SourceManager &SM;
  std::map<const VarDecl *, ArrayVar> Vars;
  std::vector<int> Parent;                        // union-find over groups
  std::map<const VarDecl *, std::vector<TextEdit>> Edits;
  std::map<const VarDecl *, Refusal> Refusals;    // the first per variable
  /// Brackets spelled in a macro's definition, by offset: the variables
  /// indexed through them, converted together or not at all.
  std::map<unsigned, std::vector<const VarDecl *>> MacroUsers;
  std::map<int, Refusal> GroupRefusals;           // after finishing
  std::set<const VarDecl *> Allocated;            // an allocation in view
  std::map<const ParmVarDecl *, const FunctionDecl *> Params;
  std::set<const FunctionDecl *> AddressTaken;
  bool HasMain = false;
  Refusal None;
  MemberVars Members;
  OffsetPointers Offsets;

  explicit Impl(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()), Members(Ctx), Offsets(Ctx) {}

  int find(int G) { return Parent[G] == G ? G : Parent[G] = find(Parent[G]); }
  void join(const VarDecl *A, const VarDecl *B) {
    auto IA = Vars.find(A), IB = Vars.find(B);
    if (IA == Vars.end() || IB == Vars.end())
      return;
    Parent[find(IA->second.Group)] = find(IB->second.Group);
  }
  void refuse(const VarDecl *V, SourceLocation L, std::string Why) {
    if (Refusals.count(V))
      return;
    Refusal R;
    R.Report = &Reporter::migrateArray;
    R.Loc = L;
    R.Args = {V->getName().str(), std::move(Why) + " (" + whereText(L, SM) + ")"};
    Refusals[V] = std::move(R);
  }
  void edit(const VarDecl *V, SourceLocation B, SourceLocation E, std::string Text, bool TokenEnd) {
    const CharSourceRange R = TokenEnd ? CharSourceRange::getTokenRange(B, E)
                                       : CharSourceRange::getCharRange(B, E);
    const CharSourceRange F = Lexer::makeFileCharRange(R, SM, Ctx.getLangOpts());
    if (F.isInvalid() || !SM.isWrittenInMainFile(F.getBegin())) {
      refuse(V, B, "it is used inside a macro");
      return;
    }
    const unsigned Off = SM.getFileOffset(F.getBegin());
    Edits[V].push_back({Off, SM.getFileOffset(F.getEnd()) - Off, std::move(Text)});
  }
  /// Replaces the tokens from B to E where they are spelled: in the file,
  /// or in a macro's definition in it (then every variable indexed
  /// through that macro goes with V: MacroUsers).
  void spelledEdit(const VarDecl *V, SourceLocation B, SourceLocation E, std::string Text) {
    const bool InMacroBody = B.isMacroID() && SM.isMacroBodyExpansion(B);
    const SourceLocation SB = SM.getSpellingLoc(B), SE = SM.getSpellingLoc(E);
    if (!SM.isWrittenInMainFile(SB) || !SM.isWrittenInMainFile(SE)) {
      refuse(V, B, "it is indexed inside a macro of another file");
      return;
    }
    const unsigned Off = SM.getFileOffset(SB);
    const unsigned End = SM.getFileOffset(Lexer::getLocForEndOfToken(SE, 0, SM, Ctx.getLangOpts()));
    if (End < Off) {
      refuse(V, B, "its brackets are not written where dpstub can rewrite them");
      return;
    }
    Edits[V].push_back({Off, End - Off, std::move(Text)});
    if (InMacroBody)
      MacroUsers[Off].push_back(V);
  }
  void insertAfter(const VarDecl *V, const Expr *E, std::string Text) {
    const SourceLocation End = Lexer::getLocForEndOfToken(E->getEndLoc(), 0, SM, Ctx.getLangOpts());
    edit(V, End, End, std::move(Text), false);
  }

  std::string elementText(const ArrayVar &A, bool Const) const {
    QualType E = A.Element;
    E.removeLocalConst();
    return (Const ? "const " : "") + printType(E, Ctx);
  }
  std::string fieldType(const ArrayVar &A, bool Const) const {
    return "dp::field<" + std::to_string(A.Rank) + ", " + elementText(A, Const) + ">";
  }
  std::string fieldType(const ArrayVar &A) const {
    return fieldType(A, A.Element.isConstQualified());
  }

  /// A statement declaring several variables, some arrays.
  struct SplitDeclaration {
    std::vector<const VarDecl *> Vars;
    std::map<const VarDecl *, std::string> Fields; ///< each array's dp::field declaration
    std::string Specifiers;                        ///< `static double`
    std::vector<std::string> Declarators;          ///< `*a`, `b[10] = {0}`
    unsigned Begin = 0, End = 0;                   ///< the statement, its `;` included
  };
  std::map<const VarDecl *, SplitDeclaration> Splits; ///< by first variable

  void addVar(const VarDecl *V);
  std::optional<std::string> fieldDeclaration(const ArrayVar &A);
  std::vector<const VarDecl *> declaredTogether(const VarDecl *V);
  std::optional<CharSourceRange> wholeMacroDeclaration(const VarDecl *V);
  bool splitText(SplitDeclaration &S);
  void declaration(const ArrayVar &A);
  void use(const DeclRefExpr *D, const ArrayVar &A);
  void offsetUses(const DeclRefExpr *D, const ArrayVar &A, const VarDecl *P);
  void subscript(const Expr *D, const ArrayVar &A, const Stmt *First);
  void call(const DeclRefExpr *D, const ArrayVar &A, const CallExpr *C, const Stmt *Child);
  /// The largest expression around element E that is still part of it
  /// (`a[k].m`, `a[k].keys[j]`); Decays when that is a member array
  /// turned into a pointer (`a[k].keys` handed on).
  void assignment(const DeclRefExpr *D, const ArrayVar &A, const BinaryOperator *B);
  void refuseDevice(const VarDecl *V, const Expr *Made);
  bool chosen(const ArrayVar &A, const ConditionalOperator *Cond);
  bool joinParameter(const VarDecl *V, const CallExpr *C, unsigned Index);
  void finish();
};

void ArrayData::Impl::addVar(const VarDecl *V) {
  // A member's class may be in a header: its arrays only borrow. So do
  // the static arrays a header declares (NPB's `static double
  // u[...][5]` in header.h): their declaration is not the file's to edit.
  const bool InMain = SM.isWrittenInMainFile(SM.getFileLoc(V->getLocation()));
  if (Vars.count(V) || (!Members.isMember(V) && !InMain && !wholeStaticArray(V)))
    return;
  if (Offsets.of(V))
    return; // an offset into another array, which its uses name (offsetUse)
  const auto *P = dyn_cast<ParmVarDecl>(V);
  const QualType T = P ? P->getOriginalType() : V->getType();
  if (!isArrayLike(T))
    return;
  ArrayVar A;
  A.Var = V;
  const bool Vector = T.getNonReferenceType()->getAsCXXRecordDecl() != nullptr;
  A.K = Vector ? ArrayVar::Kind::Vector
               : T->isArrayType() && !P ? ArrayVar::Kind::CArray : ArrayVar::Kind::Pointer;
  std::tie(A.Rank, A.Element) = shapeOf(T);
  // A std::vector member of a const object (MemberVars) borrows as const.
  if (Vector && Members.isMember(V) && T.getNonReferenceType().isConstQualified())
    A.Element.addConst();
  A.Group = static_cast<int>(Parent.size());
  Parent.push_back(A.Group);
  auto &Slot = Vars[V] = A;
  const bool TemplateParameter =
      P && templateElement(A.Element) && isa<FunctionDecl>(P->getDeclContext()) &&
      cast<FunctionDecl>(P->getDeclContext())->getDescribedFunctionTemplate();
  if (!plainElement(A.Element) && !TemplateParameter) {
    // Rows: a[i][j] is a field's element (g(i, j)) of the rows the loop
    // borrows; the array itself stays as it is. So for an array of such
    // arrays (`double ***u`, NPB MG's grids): u[i][j][k].
    const auto *Row = A.Element->getAs<PointerType>();
    const auto *PlaneRow = Row ? Row->getPointeeType()->getAs<PointerType>() : nullptr;
    if (Row && A.K == ArrayVar::Kind::Pointer &&
        (plainElement(Row->getPointeeType()) || (PlaneRow && plainElement(PlaneRow->getPointeeType())))) {
      const bool Planes = !plainElement(Row->getPointeeType());
      Slot.Rows = true;
      Slot.Rank = Planes ? 3 : 2;
      Slot.Element = Planes ? PlaneRow->getPointeeType() : Row->getPointeeType();
      const std::string N = V->getName().str();
      refuse(V, V->getLocation(),
             Planes ? "its elements are arrays of rows ('" + printType(A.Element, Ctx) +
                          "'), which a loop borrows only where it indexes it as '" + N +
                          "[i][j][k]' and dpstub can tell how many planes, rows and columns it reaches"
                    : "its elements are rows ('" + printType(A.Element, Ctx) +
                          "'), which a loop borrows only where it indexes it as '" + N +
                          "[i][j]' and dpstub can tell how many rows and columns it reaches");
      return;
    }
    // Of a template's type in its text: no field here, but the loops may
    // borrow it (LoopAnalysis' borrowable()).
    if (plainTemplateParameter(A.Element, V->getDeclContext()))
      refuse(V, V->getLocation(), "its elements are of the template's type '" + printType(A.Element, Ctx) + "'");
    else
      refuse(V, V->getLocation(), "its elements are not plain values ('" + printType(A.Element, Ctx) + "')");
    return;
  }
  if (TemplateParameter) {
    const FunctionTemplateDecl *Template = cast<FunctionDecl>(P->getDeclContext())->getDescribedFunctionTemplate();
    const auto Instances = std::distance(Template->specializations().begin(), Template->specializations().end());
    if (Instances > 1) {
      refuse(V, V->getLocation(),
             "'" + Template->getName().str() + "' has " + std::to_string(Instances) +
                 " instances, and one text cannot take the fields of each");
      return;
    }
  }
  if (A.K == ArrayVar::Kind::Vector && T->isReferenceType() == false && P) {
    refuse(V, V->getLocation(), "it is a std::vector passed by value, which copies it");
    return;
  }
  if (!InMain && !Members.isMember(V)) {
    const PresumedLoc Where = SM.getPresumedLoc(SM.getFileLoc(V->getLocation()));
    refuse(V, V->getLocation(),
           "it is declared in '" + std::string(Where.isValid() ? llvm::sys::path::filename(Where.getFilename()) : "") +
               "', which --migrate does not edit");
    return;
  }
  if (!Members.isMember(V)) // a member's declaration is the class's, which stays
    declaration(Slot);
}

/// The declaration of V as a dp::field, as a whole (`static
/// dp::field<1, double> a{dp::grid<1>(n)}`, no `;`); none when dpstub
/// cannot write one (the refusal is recorded).
std::optional<std::string> ArrayData::Impl::fieldDeclaration(const ArrayVar &A) {
  const VarDecl *V = A.Var;
  const std::string Name = V->getName().str();
  std::string Storage;
  if (V->getStorageClass() == SC_Static)
    Storage = "static ";
  else if (V->getStorageClass() == SC_Extern) {
    refuse(V, V->getLocation(), "it is declared extern, defined in another file");
    return std::nullopt;
  }
  const Expr *Init = V->getInit();
  if (A.K == ArrayVar::Kind::Vector) {
    const auto *CE = Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
    unsigned Written = 0; // the arguments written (not the allocator's default)
    if (CE)
      while (Written < CE->getNumArgs() && !isa<CXXDefaultArgExpr>(CE->getArg(Written)))
        ++Written;
    const std::string Decl = Storage + fieldType(A, false) + " " + Name;
    Allocated.insert(V);
    if (!Init || (CE && Written == 0))
      return Decl;
    if (!CE || CE->isListInitialization() || Written > 2 || !CE->getArg(0)->getType()->isIntegerType()) {
      refuse(V, V->getLocation(), "dpstub reads only 'std::vector<T> v(n)' and 'v(n, value)'");
      return std::nullopt;
    }
    // Braces for one argument (a field over a grid, never a function
    // declaration); parentheses with a value, which braces would refuse
    // to narrow.
    const std::string Grid = "dp::grid<1>(" + textOf(CE->getArg(0), Ctx) + ")";
    return Decl + (Written == 2 ? "(" + Grid + ", " + textOf(CE->getArg(1), Ctx) + ")" : "{" + Grid + "}");
  }
  const std::string Decl = Storage + fieldType(A) + " " + Name;
  if (A.K == ArrayVar::Kind::CArray) {
    if (Init && !zeroFills(Init, Ctx)) {
      refuse(V, V->getLocation(),
             "it starts with the values '" + shownText(Init, Ctx) +
                 "' (a dp::field starts with zeros): fill it in a loop after its declaration");
      return std::nullopt;
    }
    const std::optional<std::vector<std::string>> Extents = writtenExtents(V, Ctx);
    if (!Extents || static_cast<int>(Extents->size()) != A.Rank) {
      refuse(V, V->getLocation(), "its extents are not written out");
      return std::nullopt;
    }
    std::string Grid = "dp::grid<" + std::to_string(A.Rank) + ">(";
    for (int K = 0; K < A.Rank; ++K)
      Grid += (K ? ", " : "") + (*Extents)[K];
    Allocated.insert(V);
    return Decl + "{" + Grid + ")}";
  }
  // A pointer: no initialiser, a null one, an allocation or another array.
  if (!Init || isNull(Init, Ctx))
    return Decl;
  if (std::optional<std::string> N = allocationCount(Init, A.Element, Ctx)) {
    Allocated.insert(V);
    Vars.at(V).DeviceAllocated |= deviceAllocation(Init) != nullptr;
    return Decl + "{dp::grid<1>(" + *N + ")}";
  }
  if (const VarDecl *From = namedVar(Init); From && isArrayLike(From->getType()))
    return Decl + " = " + textOf(Init, Ctx); // the flow is joined where `From` is used
  if (deviceAllocation(Init)) {
    refuseDevice(V, Init);
    return std::nullopt;
  }
  refuse(V, Init->getBeginLoc(),
         "it starts as '" + shownText(Init, Ctx) + "', which dpstub cannot read as an allocation");
  return std::nullopt;
}

/// The variables declared by the statement declaring V, in order (one
/// for a declaration of its own).
std::vector<const VarDecl *> ArrayData::Impl::declaredTogether(const VarDecl *V) {
  std::vector<const VarDecl *> All;
  for (const DynTypedNode &N : Ctx.getParents(*V))
    if (const auto *DS = N.get<DeclStmt>()) {
      for (const Decl *D : DS->decls())
        if (const auto *X = dyn_cast<VarDecl>(D))
          All.push_back(X);
      return All;
    }
  if (V->hasGlobalStorage() && !V->isStaticLocal() && !isa<ParmVarDecl>(V)) {
    for (const Decl *D : V->getDeclContext()->decls())
      if (const auto *X = dyn_cast<VarDecl>(D); X && X->getBeginLoc() == V->getBeginLoc())
        All.push_back(X);
    return All;
  }
  return {V};
}

/// The invocation of the macro that declares V and nothing else (the
/// statement it expands to is V's declaration, maybe with its `;`), in
/// the main file; none otherwise.
std::optional<CharSourceRange> ArrayData::Impl::wholeMacroDeclaration(const VarDecl *V) {
  const SourceLocation B = V->getBeginLoc(), E = V->getEndLoc();
  if (!B.isMacroID() || !E.isMacroID())
    return std::nullopt;
  const CharSourceRange Outer = SM.getExpansionRange(B);
  const CharSourceRange OuterEnd = SM.getExpansionRange(E);
  if (Outer.getBegin() != OuterEnd.getBegin() || !SM.isWrittenInMainFile(Outer.getBegin()))
    return std::nullopt;
  // Nothing else of the function comes from that invocation.
  const DeclStmt *Own = nullptr;
  for (const DynTypedNode &N : Ctx.getParents(*V))
    Own = N.get<DeclStmt>();
  if (!Own)
    return std::nullopt;
  for (const DynTypedNode &N : Ctx.getParents(*Own))
    if (const auto *CS = N.get<CompoundStmt>())
      for (const Stmt *S : CS->body())
        if (S != Own && S->getBeginLoc().isMacroID() &&
            SM.getExpansionRange(S->getBeginLoc()).getBegin() == Outer.getBegin())
          return std::nullopt;
  return CharSourceRange::getCharRange(
      Outer.getBegin(), Lexer::getLocForEndOfToken(Outer.getEnd(), 0, SM, Ctx.getLangOpts()));
}

/// The declaration's rewrite: the declarator becomes a dp::field's
/// declaration; a statement declaring several variables is split when
/// its groups are converted (ArrayData::convert).
void ArrayData::Impl::declaration(const ArrayVar &A) {
  const VarDecl *V = A.Var;
  if (!V->getTypeSourceInfo()) {
    refuse(V, V->getLocation(), "its type is not written out");
    return;
  }
  TypeLoc TL = V->getTypeSourceInfo()->getTypeLoc();
  if (isa<ParmVarDecl>(V)) {
    if (A.K == ArrayVar::Kind::Vector) { // `const std::vector<T> &v`: the record only
      TypeLoc Record = TL;
      if (auto R = Record.getAs<ReferenceTypeLoc>())
        Record = R.getPointeeLoc();
      Record = Record.getUnqualifiedLoc();
      edit(V, Record.getBeginLoc(), Record.getEndLoc(), fieldType(A, false), true);
      return;
    }
    const std::string Name = V->getName().str();
    const SourceLocation End = !Name.empty() && SM.isBeforeInTranslationUnit(TL.getEndLoc(), V->getLocation())
                                   ? V->getLocation()
                                   : TL.getEndLoc();
    // `const T *p` of a template: a const field of T, since deduction
    // would not convert an instance's field<1, float> to field<1, const T>.
    const std::string Type = templateElement(A.Element) && A.Element.isConstQualified()
                                 ? "const " + fieldType(A, false)
                                 : fieldType(A);
    edit(V, V->getBeginLoc(), End, Type + (Name.empty() ? "" : " " + Name), true);
    return;
  }
  std::optional<std::string> Text = fieldDeclaration(A);
  if (!Text)
    return;
  const std::vector<const VarDecl *> Together = declaredTogether(V);
  if (Together.size() == 1) {
    if (std::optional<CharSourceRange> M = wholeMacroDeclaration(V)) {
      // `POLYBENCH_2D_ARRAY_DECL(C, ...);` declares C and nothing else:
      // the invocation becomes the field's declaration (with the `;` the
      // macro wrote, when the invocation is not followed by one).
      const StringRef Buf = SM.getBufferData(SM.getMainFileID());
      const unsigned B = SM.getFileOffset(M->getBegin()), E = SM.getFileOffset(M->getEnd());
      const bool Semicolon = Buf.substr(E).ltrim(" \t").starts_with(";");
      Edits[V].push_back({B, E - B, *Text + (Semicolon ? "" : ";")});
      return;
    }
    edit(V, V->getBeginLoc(), V->getEndLoc(), *Text, true);
    return;
  }
  // Declared with others: the statement is rewritten whole when converted.
  SplitDeclaration &S = Splits[Together.front()];
  S.Vars = Together;
  S.Fields[V] = *Text;
}

/// The text of each declarator of a statement declaring several variables
/// (`*a`, `b[10] = {0}`), and the specifiers they share (`static double`).
bool ArrayData::Impl::splitText(SplitDeclaration &S) {
  const VarDecl *First = S.Vars.front();
  if (!First->getTypeSourceInfo())
    return false;
  // The specifiers end with the innermost type: `double` of `double
  // (*p)[10]`, not the declarator around it.
  TypeLoc T = First->getTypeSourceInfo()->getTypeLoc();
  while (true) {
    if (auto P = T.getAs<PointerTypeLoc>())
      T = P.getPointeeLoc();
    else if (auto R = T.getAs<ReferenceTypeLoc>())
      T = R.getPointeeLoc();
    else if (auto A = T.getAs<ArrayTypeLoc>())
      T = A.getElementLoc();
    else if (auto Pa = T.getAs<ParenTypeLoc>())
      T = Pa.getInnerLoc();
    else
      break;
  }
  const CharSourceRange Spec = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(First->getBeginLoc(), T.getEndLoc()), SM, Ctx.getLangOpts());
  if (Spec.isInvalid())
    return false;
  const StringRef Buf = SM.getBufferData(SM.getMainFileID());
  S.Begin = SM.getFileOffset(Spec.getBegin());
  S.Specifiers = Buf.substr(S.Begin, SM.getFileOffset(Spec.getEnd()) - S.Begin).str();
  unsigned From = SM.getFileOffset(Spec.getEnd());
  for (const VarDecl *V : S.Vars) {
    const CharSourceRange R = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(V->getEndLoc(), V->getEndLoc()), SM, Ctx.getLangOpts());
    if (R.isInvalid())
      return false;
    const unsigned To = SM.getFileOffset(R.getEnd());
    StringRef D = Buf.substr(From, To - From).trim();
    D.consume_front(",");
    S.Declarators.push_back(D.trim().str());
    From = To;
  }
  // The statement's `;`.
  while (From < Buf.size() && Buf[From] != ';')
    ++From;
  S.End = From < Buf.size() ? From + 1 : From;
  return true;
}

QualType handedBlock(const Expr *E, ASTContext &Ctx) {
  if (!E->getType()->isArrayType())
    return QualType();
  const Stmt *Child;
  const auto *Decay = dyn_cast_or_null<ImplicitCastExpr>(parentOf(E, Ctx));
  while (Decay && Decay->getCastKind() != CK_ArrayToPointerDecay)
    Decay = dyn_cast_or_null<ImplicitCastExpr>(parentOf(Decay, Ctx));
  if (!Decay || !isa_and_nonnull<CallExpr>(meaningfulParent(E, Ctx, Child)) || !consumedByCall(E, Ctx))
    return QualType();
  // As the call takes it (`const double (*)[5]` for a const parameter).
  const QualType Taken = cast<Expr>(Child)->getType();
  return Taken->isPointerType() ? Taken : Decay->getType();
}

bool handedElementAddress(const Expr *E, ASTContext &Ctx) {
  const Stmt *Child;
  const auto *U = dyn_cast_or_null<UnaryOperator>(meaningfulParent(E, Ctx, Child));
  return U && U->getOpcode() == UO_AddrOf && isa_and_nonnull<CallExpr>(meaningfulParent(U, Ctx, Child)) &&
         consumedByCall(U, Ctx);
}

void ArrayData::Impl::subscript(const Expr *D, const ArrayVar &A, const Stmt *First) {
  // The chain g[i][j]: every subscript, innermost first.
  std::vector<const Expr *> Chain;
  const Stmt *S = First;
  while (true) {
    Chain.push_back(cast<Expr>(S));
    const Stmt *Child;
    const Stmt *P = meaningfulParent(S, Ctx, Child);
    const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(P);
    if (!ASE || ASE->getBase() != Child || static_cast<int>(Chain.size()) >= A.Rank)
      break;
    S = ASE;
  }
  if (A.Rows && static_cast<int>(Chain.size()) == A.Rank - 1) {
    // A row that holds device memory (`a[i] = omp_target_alloc(...)`):
    // the host cannot read it, so no call-site may borrow the rows.
    const Stmt *Child;
    const auto *Set = dyn_cast_or_null<BinaryOperator>(meaningfulParent(Chain[0], Ctx, Child));
    if (Set && Set->getOpcode() == BO_Assign && Set->getLHS()->IgnoreParenImpCasts() == Chain[0])
      if (const CallExpr *Call = deviceAllocation(Set->getRHS())) {
        Vars.at(A.Var).Rows = false;
        Refusals.erase(A.Var);
        refuse(A.Var, Set->getExprLoc(),
               "its rows are device memory ('" + shownText(Chain[0], Ctx) + "' from '" +
                   Call->getDirectCallee()->getName().str() + "'), which the host cannot read");
        return;
      }
  }
  // A block handed to a function (NPB BT's `binvcrhs(lhs[i][j][k][BB],
  // ...)`, a 5x5 block of a rank-6 array): no field, but a loop that
  // borrows the array whole hands on a pointer to the block's first
  // element, of the type the call takes (`reinterpret_cast<double
  // (*)[5]>(&lhs(i, j, k, BB, 0, 0))`): a borrowed C array's elements
  // lie as the array's, on the host and in a device's copy.
  QualType Block;
  if (static_cast<int>(Chain.size()) != A.Rank) {
    refuse(A.Var, D->getExprLoc(),
           "'" + shownText(Chain.back(), Ctx) + "' takes part of it, and a dp::field gives elements");
    Block = handedBlock(Chain.back(), Ctx);
    if (Block.isNull() || !isa<DeclRefExpr>(D) || static_cast<int>(Chain.size()) > A.Rank)
      return;
  }
  std::string BlockEnd;
  if (!Block.isNull()) {
    for (int K = static_cast<int>(Chain.size()); K < A.Rank; ++K)
      BlockEnd += ", 0";
    BlockEnd += Block->getPointeeType()->isArrayType() ? "))" : ")";
  }
  // a[i] -> a(i); g[i][j] -> g(i, j): the brackets only, the user's
  // subscripts stay. A bracket spelled in a macro's definition (#define
  // cell(x, j) x[j]) is edited there, once for every use of the macro.
  for (size_t K = 0; K < Chain.size(); ++K) {
    const Expr *Base = K == 0 ? static_cast<const Expr *>(D) : Chain[K - 1];
    const SourceLocation Close = isa<ArraySubscriptExpr>(Chain[K])
                                     ? cast<ArraySubscriptExpr>(Chain[K])->getRBracketLoc()
                                     : cast<CXXOperatorCallExpr>(Chain[K])->getRParenLoc();
    // Where the base's last token stands in the text the bracket follows:
    // a macro argument's place is where the macro's body uses it, unless
    // the brackets are in the argument too (MIN(m, a[i - 1])), then it is
    // where the argument is written.
    SourceLocation After = Base->getEndLoc();
    if (!(Close.isMacroID() && SM.isMacroArgExpansion(Close)))
      while (After.isMacroID() && SM.isMacroArgExpansion(After))
        After = SM.getImmediateExpansionRange(After).getEnd();
    std::optional<Token> Next = Lexer::findNextToken(SM.getSpellingLoc(After), SM, Ctx.getLangOpts());
    if (!Next || !Next->is(tok::l_square)) {
      refuse(A.Var, D->getExprLoc(), "its brackets are not written where dpstub can rewrite them");
      return;
    }
    const SourceLocation Open = Next->getLocation();
    if (K == 0 && !Block.isNull()) {
      const std::string Name = cast<DeclRefExpr>(D)->getNameInfo().getAsString();
      spelledEdit(A.Var, D->getBeginLoc(), Open,
                  Block->getPointeeType()->isArrayType()
                      ? "reinterpret_cast<" + printType(Block, Ctx) + ">(&" + Name + "("
                      : "&" + Name + "(");
    } else if (K == 0) {
      spelledEdit(A.Var, Open, Open, "(");
    } else {
      spelledEdit(A.Var, cast<ArraySubscriptExpr>(Chain[K - 1])->getRBracketLoc(), Open, ", ");
    }
    if (K + 1 == Chain.size())
      spelledEdit(A.Var, Close, Close, Block.isNull() ? ")" : BlockEnd);
  }
  if (!Block.isNull())
    return;
  // &a[k], &a[k].m, a[k].keys (a member array as a pointer): a pointer
  // into the field, fine while a call uses it.
  bool Decays = false;
  const Expr *Part = elementPart(Chain.back(), Ctx, Decays);
  if (Decays && !consumedByCall(Part, Ctx)) {
    refuse(A.Var, Part->getBeginLoc(), "'" + shownText(Part, Ctx) + "' keeps a pointer into it");
    return;
  }
  const Stmt *Child;
  const Stmt *P = meaningfulParent(Part, Ctx, Child);
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(P); U && U->getOpcode() == UO_AddrOf &&
                                                         !consumedByCall(U, Ctx))
    refuse(A.Var, U->getBeginLoc(), "'" + shownText(U, Ctx) + "' keeps a pointer into it");
}

void ArrayData::Impl::call(const DeclRefExpr *D, const ArrayVar &A, const CallExpr *C,
                           const Stmt *Child) {
  const FunctionDecl *FD = C->getDirectCallee();
  unsigned Index = 0;
  for (; Index < C->getNumArgs(); ++Index)
    if (C->getArg(Index) == Child)
      break;
  const std::string Name = FD && FD->getIdentifier() ? FD->getName().str() : std::string();
  if ((Name == "free" && C->getNumArgs() == 1) || freesDevice(C, Index, Name) || releasesOnly(C, Index)) {
    edit(A.Var, C->getBeginLoc(), C->getEndLoc(), D->getNameInfo().getAsString() + " = " + fieldType(A) + "()",
         true);
    return;
  }
  if (Name == "swap" && FD->isInStdNamespace()) {
    for (const Expr *Arg : C->arguments())
      if (const VarDecl *O = namedVar(Arg))
        join(A.Var, O);
    return;
  }
  // A function of this file takes the array as a field parameter; a
  // function template (Rodinia's cfd: copy<float>) in its written text, so
  // every instance takes fields. Other templates keep their pointer
  // parameters and get the host copy, as a library function does.
  if (joinParameter(A.Var, C, Index))
    return;
  if (keepsBuffer(Name)) {
    refuse(A.Var, D->getLocation(), "it is handed to '" + Name + "', which keeps it after the call returns");
    return;
  }
  // Device memory handed on (`acc_memcpy_to_device(a, h, bytes)`) is read
  // by the device's functions: the field's host copy is not what they want.
  if (A.DeviceAllocated) {
    refuse(A.Var, D->getLocation(),
           "it is device memory handed to '" + (Name.empty() ? shownText(C->getCallee(), Ctx) : Name) +
               "', which the host copy of a dp::field cannot stand for");
    return;
  }
  // A rank-2 C array handed to a `T (*)[M]` parameter wants its rows;
  // .data() is the elements' pointer, right for void *, memset and fwrite.
  if (A.Rank > 1 && !wantsElementPointer(FD, Index)) {
    refuse(A.Var, D->getLocation(), "it is handed whole to '" + Name + "', which expects a C array");
    return;
  }
  insertAfter(A.Var, D, ".data()"); // the host copy, current while the call runs
}

/// `c ? a : b` handed to a function of this file (Rodinia's hotspot
/// writes out whichever buffer its last step filled): both arrays are one
/// group with the parameter, and the choice stays as written.
bool ArrayData::Impl::chosen(const ArrayVar &A, const ConditionalOperator *Cond) {
  const std::optional<std::pair<const VarDecl *, const VarDecl *>> Arms = chosenArrays(Cond);
  if (!Arms)
    return false;
  join(Arms->first, Arms->second);
  const Stmt *Child;
  const auto *C = dyn_cast_or_null<CallExpr>(meaningfulParent(Cond, Ctx, Child));
  if (!C)
    return false;
  for (unsigned Index = 0; Index < C->getNumArgs(); ++Index)
    if (C->getArg(Index) == Child)
      return joinParameter(A.Var, C, Index);
  return false;
}

const ParmVarDecl *fieldParameter(const CallExpr *C, unsigned Index, const SourceManager &SM) {
  const FunctionDecl *FD = C->getDirectCallee(), *Def = nullptr;
  if (!FD || FD->isVariadic() || !FD->hasBody(Def) || !(Def = writtenDefinition(Def)) ||
      !SM.isWrittenInMainFile(SM.getFileLoc(Def->getLocation())) ||
      SM.isInSystemHeader(Def->getLocation()) || Index >= Def->getNumParams() ||
      !isArrayLike(Def->getParamDecl(Index)->getOriginalType()))
    return nullptr;
  return Def->getParamDecl(Index);
}

/// V goes with the parameter a call's argument Index reaches, when that
/// parameter can become a field (fieldParameter).
bool ArrayData::Impl::joinParameter(const VarDecl *V, const CallExpr *C, unsigned Index) {
  const ParmVarDecl *P = fieldParameter(C, Index, SM);
  if (!P)
    return false;
  join(V, P);
  Params[P] = cast<FunctionDecl>(P->getDeclContext());
  return true;
}

void ArrayData::Impl::assignment(const DeclRefExpr *D, const ArrayVar &A, const BinaryOperator *B) {
  const Expr *R = B->getRHS();
  if (isNull(R, Ctx)) {
    edit(A.Var, R->getBeginLoc(), R->getEndLoc(), fieldType(A) + "()", true);
    return;
  }
  if (std::optional<std::string> N = allocationCount(R, A.Element, Ctx)) {
    edit(A.Var, R->getBeginLoc(), R->getEndLoc(), fieldType(A) + "(dp::grid<1>(" + *N + "))", true);
    Allocated.insert(A.Var);
    Vars.at(A.Var).DeviceAllocated |= deviceAllocation(R) != nullptr;
    return;
  }
  if (const VarDecl *From = namedVar(R); From && Vars.count(From)) {
    join(A.Var, From);
    return;
  }
  if (deviceAllocation(R)) {
    refuseDevice(A.Var, R);
    return;
  }
  refuse(A.Var, D->getLocation(), "it is assigned '" + shownText(R, Ctx) + "'");
}

/// V holds the device memory Made returns: no field, and no call-site
/// borrows it (PRK's `A = (double *)acc_malloc(bytes)` under `deviceptr(A)`).
void ArrayData::Impl::refuseDevice(const VarDecl *V, const Expr *Made) {
  Vars.at(V).Device = true;
  Refusals.erase(V);
  refuse(V, Made->getBeginLoc(),
         "it holds device memory ('" + shownText(Made, Ctx) +
             "'), which the host cannot read, so no call-site may borrow it: allocate it with malloc or new[] "
             "(it then becomes a dp::field, which dp moves to the device)");
}

/// True when `row + E` adds E as written: E binds more tightly than `+`
/// (a name, a literal, a call, a product, a unary operator); others go
/// in parentheses, so that `row[i - 1]` becomes `a(row + (i - 1))`.
static bool addsAsWritten(const Expr *E) {
  const Expr *Bare = E->IgnoreImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(Bare))
    return B->isMultiplicativeOp();
  return isa<DeclRefExpr>(Bare) || isa<IntegerLiteral>(Bare) || isa<ParenExpr>(Bare) || isa<CallExpr>(Bare) ||
         isa<ArraySubscriptExpr>(Bare) || isa<MemberExpr>(Bare) || isa<UnaryOperator>(Bare);
}

/// An offset pointer P into A (OffsetPointer.h), one of whose makings
/// names A by D: `double *row = &a[e]` becomes `const std::int64_t row =
/// e` (`std::int64_t` where assignments make it too: `rA = &rv[f]` becomes
/// `rA = f`), and each `row[j]` becomes `a(row + j)`. The edits are A's:
/// they happen when A becomes a field (or a loop borrows it), else the
/// pointer stays.
void ArrayData::Impl::offsetUses(const DeclRefExpr *D, const ArrayVar &A, const VarDecl *P) {
  const OffsetPointer *O = Offsets.of(P);
  if (A.Rank != 1 || A.Rows || A.K == ArrayVar::Kind::Vector) {
    refuse(A.Var, D->getLocation(), "'" + P->getName().str() + "' points into it");
    return;
  }
  const LangOptions &L = Ctx.getLangOpts();
  const std::string Name = P->getName().str();
  const std::string Type = O->Makings.size() == 1 && P->getInit() ? "const std::int64_t " : "std::int64_t ";
  // This making: what surrounds `e`, which stays as written (other
  // arrays' accesses in it have edits of their own).
  for (const OffsetMaking &M : O->Makings) {
    if (M.ArrayRef != D)
      continue;
    const bool Declares = M.Value == P->getInit();
    edit(A.Var, Declares ? P->getBeginLoc() : M.Value->getBeginLoc(), M.Offset->getBeginLoc(),
         Declares ? Type + Name + " = " : std::string(), false);
    if (M.How == OffsetMaking::Form::Element) {
      const auto *Element = cast<ArraySubscriptExpr>(cast<UnaryOperator>(M.Value->IgnoreImpCasts())->getSubExpr());
      edit(A.Var, Element->getRBracketLoc(), Element->getRBracketLoc(), "", true);
    } else if (M.How == OffsetMaking::Form::PlusLeft) {
      edit(A.Var, Lexer::getLocForEndOfToken(M.Offset->getEndLoc(), 0, SM, L),
           Lexer::getLocForEndOfToken(M.ArrayRef->getEndLoc(), 0, SM, L), "", false);
    }
  }
  // Once for the pointer (at its first making): its declaration, when it
  // has no initialiser, and its uses.
  if (O->Makings.front().ArrayRef != D)
    return;
  if (!P->getInit())
    edit(A.Var, P->getBeginLoc(), P->getLocation(), Type, false);
  const std::string Array = D->getNameInfo().getAsString();
  for (const ArraySubscriptExpr *S : O->Uses) {
    std::optional<Token> Open = Lexer::findNextToken(SM.getSpellingLoc(S->getBase()->getEndLoc()), SM, L);
    if (!Open || !Open->is(tok::l_square)) {
      refuse(A.Var, S->getBeginLoc(), "its brackets are not written where dpstub can rewrite them");
      return;
    }
    // (Where a macro's argument holds it, its text is spelled in the file.)
    const bool Paren = !addsAsWritten(S->getIdx());
    edit(A.Var, SM.getSpellingLoc(S->getBase()->getBeginLoc()), Open->getLocation(),
         Array + "(" + Name + " + " + (Paren ? "(" : ""), true);
    const SourceLocation Close = SM.getSpellingLoc(S->getRBracketLoc());
    edit(A.Var, Close, Close, Paren ? "))" : ")", true);
  }
}

void ArrayData::Impl::use(const DeclRefExpr *D, const ArrayVar &A) {
  if (const VarDecl *P = Offsets.namedBy(D)) {
    offsetUses(D, A, P);
    return;
  }
  // A use inside a macro is fine while it needs no edit (a call's
  // argument joining a parameter); edit() refuses the others.
  const Stmt *Child;
  const Stmt *P = meaningfulParent(D, Ctx, Child);
  // The casts just above the name say how the value is taken.
  for (const Stmt *C = parentOf(D, Ctx); C && isa<ImplicitCastExpr>(C); C = parentOf(C, Ctx))
    if (cast<ImplicitCastExpr>(C)->getCastKind() == CK_PointerToBoolean) {
      insertAfter(A.Var, D, ".data()"); // if (a), !a, a && ...
      return;
    }
  if (testsThePointer(P, Child)) { // the same in C, which converts nothing
    insertAfter(A.Var, D, ".data()");
    return;
  }
  if (const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(P); ASE && ASE->getBase() == Child) {
    subscript(D, A, ASE);
    return;
  }
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P);
      Op && Op->getOperator() == OO_Subscript && Op->getArg(0) == Child) {
    subscript(D, A, Op);
    return;
  }
  if (const auto *M = dyn_cast_or_null<MemberExpr>(P)) { // v.size(), v.data()
    const auto *MD = dyn_cast<CXXMethodDecl>(M->getMemberDecl());
    const std::string N = MD && MD->getIdentifier() ? MD->getName().str() : std::string();
    if (A.K == ArrayVar::Kind::Vector && (N == "size" || N == "data"))
      return;
    refuse(A.Var, M->getMemberLoc(), "'" + shownText(M, Ctx) + "' has no dp::field counterpart");
    return;
  }
  if (const auto *C = dyn_cast_or_null<CallExpr>(P); C && C->getCallee() != Child) {
    call(D, A, C, Child);
    return;
  }
  if (const auto *Cond = dyn_cast_or_null<ConditionalOperator>(P); Cond && Cond->getCond() != Child) {
    if (chosen(A, Cond))
      return;
  }
  if (const auto *Del = dyn_cast_or_null<CXXDeleteExpr>(P); Del && Del->isArrayForm()) {
    edit(A.Var, Del->getBeginLoc(), Del->getEndLoc(), D->getNameInfo().getAsString() + " = " + fieldType(A) + "()",
         true);
    return;
  }
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(P)) {
    if (B->getOpcode() == BO_Assign && B->getLHS() == Child) {
      assignment(D, A, B);
      return;
    }
    if (B->getOpcode() == BO_Assign) { // b = a: joined where b is assigned
      if (const VarDecl *To = namedVar(B->getLHS()); To && Vars.count(To))
        return;
      refuse(A.Var, B->getBeginLoc(), "it is stored in '" + shownText(B->getLHS(), Ctx) + "'");
      return;
    }
    if (B->isEqualityOp() && (isNull(B->getLHS(), Ctx) || isNull(B->getRHS(), Ctx))) {
      insertAfter(A.Var, D, ".data()");
      return;
    }
    if ((B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub) && consumedByCall(B, Ctx)) {
      insertAfter(A.Var, D, ".data()");
      return;
    }
    if (std::optional<DerefElement> E = derefElement(Child, B, Ctx); E && A.Rank == 1) {
      // *(a + k) -> a(k): the element the pointer arithmetic names.
      edit(A.Var, E->Deref->getBeginLoc(), E->Deref->getEndLoc(),
           D->getNameInfo().getAsString() + "(" + E->Index + ")", true);
      return;
    }
    refuse(A.Var, B->getBeginLoc(), "'" + shownText(B, Ctx) + "' uses it as a pointer");
    return;
  }
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(P); U && U->getOpcode() == UO_Deref) {
    insertAfter(A.Var, D, ".data()");
    return;
  }
  if (const auto *S = dyn_cast_or_null<UnaryExprOrTypeTraitExpr>(P);
      S && S->getKind() == UETT_SizeOf && A.K == ArrayVar::Kind::CArray) {
    QualType E = A.Element;
    E.removeLocalConst();
    edit(A.Var, S->getBeginLoc(), S->getEndLoc(),
         "(" + D->getNameInfo().getAsString() + ".size() * sizeof(" + printType(E, Ctx) + "))", true);
    return;
  }
  if (const auto *C = dyn_cast_or_null<ExplicitCastExpr>(P); C && consumedByCall(C, Ctx)) {
    insertAfter(A.Var, D, ".data()");
    return;
  }
  // `Release(&a)`, a helper that frees the array through its pointer's
  // address and sets it to null: the field emptied, as `free(a)` is.
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(P); U && U->getOpcode() == UO_AddrOf) {
    const Stmt *Arg;
    const auto *C = dyn_cast_or_null<CallExpr>(meaningfulParent(U, Ctx, Arg));
    for (unsigned K = 0; C && K < C->getNumArgs(); ++K)
      if (C->getArg(K) == Arg && releasesThrough(C, K)) {
        edit(A.Var, C->getBeginLoc(), C->getEndLoc(),
             D->getNameInfo().getAsString() + " = " + fieldType(A) + "()", true);
        return;
      }
  }
  if (!P) { // an initialiser: `double *b = a;` joins b
    for (const DynTypedNode &N : Ctx.getParents(*Child))
      if (const auto *To = N.get<VarDecl>(); To && Vars.count(To)) {
        join(A.Var, To);
        return;
      }
  }
  refuse(A.Var, D->getLocation(),
         P ? "'" + shownText(P, Ctx) + "' uses it in a way dpstub does not follow"
           : std::string("dpstub does not follow this use"));
}

void ArrayData::Impl::finish() {
  // Parameters belong to functions every caller of which dpstub sees.
  std::vector<std::pair<const ParmVarDecl *, const FunctionDecl *>> InOrder(Params.begin(), Params.end());
  std::sort(InOrder.begin(), InOrder.end(), [&](const auto &X, const auto &Y) {
    return SM.isBeforeInTranslationUnit(X.first->getLocation(), Y.first->getLocation());
  });
  for (const auto &[P, F] : InOrder) {
    for (const FunctionDecl *R : F->redecls())
      if (!SM.isWrittenInMainFile(SM.getFileLoc(R->getLocation())))
        refuse(P, R->getLocation(), "'" + F->getName().str() + "' is declared in a header, so other files may call it");
    if (F->isExternallyVisible() && !HasMain && !F->isInlined())
      refuse(P, F->getLocation(),
             "'" + F->getName().str() + "' may be called from other files with a plain pointer (this file has no main)");
    if (AddressTaken.count(F->getCanonicalDecl()))
      refuse(P, F->getLocation(), "the address of '" + F->getName().str() + "' is taken");
    // A function template's parameters are rewritten in its text, which
    // each instance follows; any other template's text serves other shapes.
    const bool FunctionTemplate = F->getDescribedFunctionTemplate() && !F->getDeclContext()->isDependentContext();
    if (F->isTemplateInstantiation() || (F->isTemplated() && !FunctionTemplate))
      refuse(P, F->getLocation(), "'" + F->getName().str() + "' is a template");
  }
  // Variables indexed through one macro's brackets go together.
  for (const auto &[Offset, Users] : MacroUsers)
    for (const VarDecl *V : Users)
      join(V, Users.front());
  // Members in source order: a group's refusal is the first place that
  // stops it, the same on every run.
  std::vector<const VarDecl *> Ordered;
  for (auto &[V, A] : Vars)
    Ordered.push_back(V);
  std::sort(Ordered.begin(), Ordered.end(), [&](const VarDecl *X, const VarDecl *Y) {
    return SM.isBeforeInTranslationUnit(X->getLocation(), Y->getLocation());
  });
  std::map<int, std::vector<const VarDecl *>> Members;
  std::map<int, bool> HasAllocation;
  for (const VarDecl *V : Ordered) {
    const int G = find(Vars.at(V).Group);
    Members[G].push_back(V);
    HasAllocation[G] |= Allocated.count(V) > 0;
  }
  for (auto &[G, List] : Members) {
    Refusal R;
    // The element type is the first member's that is not a template's
    // type parameter (each instance's arrays decide those).
    const VarDecl *Named = List.front();
    for (const VarDecl *V : List)
      if (!templateElement(Vars.at(V).Element)) {
        Named = V;
        break;
      }
    const ArrayVar &First = Vars.at(Named);
    for (const VarDecl *V : List) {
      if (auto It = Refusals.find(V); It != Refusals.end() && !R)
        R = It->second;
      const ArrayVar &A = Vars.at(V);
      if (!R && (A.Rank != First.Rank ||
                 !(sameElement(A.Element, First.Element) || templateElement(A.Element)))) {
        R.Report = &Reporter::migrateArray;
        R.Loc = V->getLocation();
        R.Args = {First.Var->getName().str(),
                  "it reaches '" + V->getName().str() + "', of another shape or element type"};
      }
    }
    if (!R && !HasAllocation[G]) {
      R.Report = &Reporter::migrateArray;
      R.Loc = First.Var->getLocation();
      R.Args = {First.Var->getName().str(),
                "its allocation is not in this file (it comes from a caller or a call dpstub cannot see)"};
    }
    if (R) {
      // Name the variable asked about in each member's own refusal text.
      GroupRefusals[G] = R;
    }
  }
}

namespace {
class Collector : public AstVisitor {
public:
  explicit Collector(ArrayData::Impl &I) : I(I) {}
  bool VisitVarDecl(VarDecl *V) override {
    I.addVar(V);
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *F) override {
    if (F->isMain())
      I.HasMain = true;
    // Parameters of all declarations of one function go together.
    if (const FunctionDecl *Prev = F->getPreviousDecl())
      for (unsigned K = 0; K < F->getNumParams() && K < Prev->getNumParams(); ++K) {
        I.addVar(F->getParamDecl(K));
        I.addVar(Prev->getParamDecl(K));
        I.join(F->getParamDecl(K), Prev->getParamDecl(K));
      }
    return true;
  }
  bool VisitCallExpr(CallExpr *C) override {
    // A parameter dpstub may turn into a dp::field takes only arrays.
    const FunctionDecl *FD = C->getDirectCallee(), *Def = nullptr;
    if (!FD || !FD->hasBody(Def) || !(Def = writtenDefinition(Def)) ||
        !I.SM.isWrittenInMainFile(I.SM.getFileLoc(Def->getLocation())))
      return true;
    const unsigned Shift = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned K = Shift; K < C->getNumArgs() && K - Shift < Def->getNumParams(); ++K) {
      const ParmVarDecl *P = Def->getParamDecl(K - Shift);
      if (!isArrayLike(P->getOriginalType()))
        continue;
      const VarDecl *A = namedVar(C->getArg(K));
      if ((!A || !isArrayLike(A->getType())) && !chosenArrays(C->getArg(K))) {
        I.addVar(P);
        I.refuse(P, C->getArg(K)->getBeginLoc(),
                 "'" + FD->getName().str() + "' is passed '" + shownText(C->getArg(K), I.Ctx) + "' for it");
      }
    }
    return true;
  }
  // A data member's array by its name (`a[i]` in a member function), or
  // another object's (`m->x[i]`): never a field (the object keeps it),
  // its brackets edited for the loops that borrow it.
  bool VisitMemberExpr(MemberExpr *E) override {
    const VarDecl *V = I.Members.of(E);
    if (!V || !isArrayLike(V->getType()))
      return true;
    I.addVar(V);
    if (!I.Vars.count(V))
      return true;
    I.refuse(V, E->getExprLoc(),
             I.Members.rootOf(V) ? "it is a member of another object, which keeps its memory"
                                 : "it is a member of the object, which keeps its memory");
    const Stmt *Child;
    const Stmt *P = meaningfulParent(E, I.Ctx, Child);
    if (const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(P); ASE && ASE->getBase() == Child)
      I.subscript(E, I.Vars.at(V), ASE);
    if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P);
        Op && Op->getOperator() == OO_Subscript && Op->getArg(0) == Child) // a std::vector's `m.v[i]`
      I.subscript(E, I.Vars.at(V), Op);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) override {
    if (const auto *F = dyn_cast<FunctionDecl>(D->getDecl())) {
      const Stmt *Child;
      const Stmt *P = meaningfulParent(D, I.Ctx, Child);
      const auto *C = dyn_cast_or_null<CallExpr>(P);
      if (!C || C->getCallee() != Child)
        I.AddressTaken.insert(F->getCanonicalDecl());
      return true;
    }
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl())) {
      if (!I.Vars.count(V) && wholeStaticArray(V))
        I.addVar(V); // declared in a header
      if (auto It = I.Vars.find(V); It != I.Vars.end())
        Uses.push_back({D, V});
    }
    return true;
  }
  std::vector<std::pair<const DeclRefExpr *, const VarDecl *>> Uses;

private:
  ArrayData::Impl &I;
};
} // namespace

ArrayData::ArrayData(ASTContext &Ctx) : P(std::make_unique<Impl>(Ctx)) {
  Collector C(*P);
  const SourceManager &SM = Ctx.getSourceManager();
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (SM.isWrittenInMainFile(SM.getFileLoc(D->getLocation())))
      C.TraverseDecl(D);
  for (const auto &[D, V] : C.Uses)
    P->use(D, P->Vars.at(V));
  P->finish();
}

ArrayData::~ArrayData() = default;

const MemberVars &ArrayData::memberVars() const { return P->Members; }
const OffsetPointers &ArrayData::offsetPointers() const { return P->Offsets; }

const ArrayVar *ArrayData::find(const VarDecl *V) const {
  auto It = P->Vars.find(V);
  return It == P->Vars.end() ? nullptr : &It->second;
}

bool ArrayData::mayBeOne(const VarDecl *A, const VarDecl *B) const {
  auto IA = P->Vars.find(A), IB = P->Vars.find(B);
  return A != B && IA != P->Vars.end() && IB != P->Vars.end() &&
         P->find(IA->second.Group) == P->find(IB->second.Group);
}

const Refusal &ArrayData::refusal(const VarDecl *V) const {
  auto It = P->Vars.find(V);
  if (It == P->Vars.end())
    return P->None;
  auto G = P->GroupRefusals.find(P->find(It->second.Group));
  return G == P->GroupRefusals.end() ? P->None : G->second;
}

const Refusal &ArrayData::ownRefusal(const VarDecl *V) const {
  auto It = P->Refusals.find(V);
  return It == P->Refusals.end() ? P->None : It->second;
}

std::string ArrayData::fieldType(const VarDecl *V, bool Const) const {
  return P->fieldType(P->Vars.at(V), Const);
}

std::string ArrayData::elementType(const VarDecl *V, bool Const) const {
  return P->elementText(P->Vars.at(V), Const);
}

std::set<const VarDecl *> ArrayData::members(const std::set<const VarDecl *> &Vars) const {
  std::set<int> Groups;
  for (const VarDecl *V : Vars)
    if (auto It = P->Vars.find(V); It != P->Vars.end())
      Groups.insert(P->find(It->second.Group));
  std::set<const VarDecl *> Out;
  for (const auto &[V, A] : P->Vars)
    if (Groups.count(P->find(A.Group)))
      Out.insert(V);
  return Out;
}

std::vector<TextEdit> ArrayData::editsWithin(const VarDecl *V, unsigned Begin, unsigned End) const {
  std::vector<TextEdit> Out;
  if (auto It = P->Edits.find(V); It != P->Edits.end())
    for (const TextEdit &E : It->second)
      if (E.Offset >= Begin && E.Offset + E.Length <= End)
        Out.push_back(E);
  return Out;
}

void ArrayData::convert(const std::set<const VarDecl *> &Vars, EditList &Out) const {
  std::set<int> Groups;
  for (const VarDecl *V : Vars)
    if (auto It = P->Vars.find(V); It != P->Vars.end())
      Groups.insert(P->find(It->second.Group));
  for (const auto &[V, A] : P->Vars)
    if (Groups.count(P->find(A.Group)))
      if (auto It = P->Edits.find(V); It != P->Edits.end())
        for (const TextEdit &E : It->second)
          Out.add(E);
  // Statements declaring several variables: one declaration each, the
  // converted ones as fields.
  const SourceManager &SM = P->SM;
  const StringRef Buf = SM.getBufferData(SM.getMainFileID());
  for (auto &[First, S] : P->Splits) {
    bool Any = false;
    for (const auto &[V, Text] : S.Fields)
      Any |= Groups.count(P->find(P->Vars.at(V).Group)) > 0;
    if (!Any || !P->splitText(S))
      continue;
    const std::string Indent = indentationAt(Buf, S.Begin);
    std::string Text;
    for (size_t I = 0; I < S.Vars.size(); ++I) {
      auto F = S.Fields.find(S.Vars[I]);
      const bool Field = F != S.Fields.end() && Groups.count(P->find(P->Vars.at(S.Vars[I]).Group));
      Text += (I ? "\n" + Indent : std::string()) +
              (Field ? F->second : S.Specifiers + " " + S.Declarators[I]) + ";";
    }
    Out.add({S.Begin, S.End - S.Begin, Text});
  }
}

} // namespace dpstub::migrate
