//===- FromC.cpp - A C source's migration, made C++ -----------------------===//
//
// One walk over the main file's declarations and expressions, each C
// construct C++ rejects handled where it stands (FromC.h), then one pass
// of the raw lexer for `restrict`, which the AST does not keep apart.
//
//===----------------------------------------------------------------------===//

#include "migrate/FromC.h"

#include "dpstub/Diagnostics.h"

#include "AstVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/IdentifierTable.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <vector>

using namespace clang;

namespace dpstub::migrate {

namespace {

/// The header declaring a function C programs often call undeclared
/// that clang's table of library builtins does not know; null if none.
const char *knownHeader(StringRef Name) {
  if (Name.starts_with("omp_"))
    return "omp.h"; // OpenMP's runtime library
  static const std::pair<const char *, const char *> Known[] = {
      {"time", "time.h"},       {"clock", "time.h"},        {"difftime", "time.h"},
      {"mktime", "time.h"},     {"localtime", "time.h"},    {"gmtime", "time.h"},
      {"ctime", "time.h"},      {"strftime", "time.h"},     {"gettimeofday", "sys/time.h"},
      {"sleep", "unistd.h"},    {"usleep", "unistd.h"},     {"getopt", "unistd.h"},
      {"srand48", "stdlib.h"},  {"drand48", "stdlib.h"},    {"lrand48", "stdlib.h"},
      {"open", "fcntl.h"},      {"creat", "fcntl.h"},       {"read", "unistd.h"},
      {"write", "unistd.h"},    {"close", "unistd.h"},      {"lseek", "unistd.h"},
      {"access", "unistd.h"},   {"getpid", "unistd.h"},     {"unlink", "unistd.h"}};
  for (const auto &[Function, Header] : Known)
    if (Name == Function)
      return Header;
  return nullptr;
}

/// Whether control may reach the end of F's body without a return: C
/// lets a function that returns a value end so (its callers ignore the
/// value), C++ does not, and its compilers take such an end as one no
/// run reaches (g++ -O2 then runs into whatever code follows).
bool mayRunOffEnd(const FunctionDecl *F, ASTContext &Ctx) {
  std::unique_ptr<CFG> G = CFG::buildCFG(F, F->getBody(), &Ctx, CFG::BuildOptions());
  if (!G)
    return true; // a return no run reaches is harmless
  std::vector<bool> Reached(G->getNumBlockIDs(), false);
  std::vector<const CFGBlock *> Work{&G->getEntry()};
  Reached[G->getEntry().getBlockID()] = true;
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    for (const CFGBlock *S : B->succs())
      if (S && !Reached[S->getBlockID()]) {
        Reached[S->getBlockID()] = true;
        Work.push_back(S);
      }
  }
  for (const CFGBlock *P : G->getExit().preds()) {
    if (!P || !Reached[P->getBlockID()] || P->hasNoReturnElement())
      continue;
    std::optional<CFGStmt> Last;
    for (auto It = P->rbegin(); It != P->rend() && !Last; ++It)
      Last = It->getAs<CFGStmt>();
    if (!Last || !isa<ReturnStmt>(Last->getStmt()))
      return true;
  }
  return false;
}

/// True when `(T)` may stand before E without parentheses around E: a
/// postfix or primary expression.
bool castBindsWhole(const Expr *E) {
  E = E->IgnoreImplicit();
  return isa<CallExpr, DeclRefExpr, ParenExpr, MemberExpr, ArraySubscriptExpr, CStyleCastExpr,
             IntegerLiteral, StringLiteral>(E);
}

/// True when an edit already replaces text on both sides of Offset, or
/// (with AtStart) one starting there: an insertion at Offset would land
/// inside the new text or before it.
bool rewritten(const EditList &E, unsigned Offset, bool AtStart) {
  for (const TextEdit &X : E.edits())
    if (X.Length > 0 && (X.Offset < Offset || (AtStart && X.Offset == Offset)) &&
        X.Offset + X.Length > Offset)
      return true;
  return false;
}

/// The explicit cast C++ needs where C converts implicitly, if any.
std::optional<QualType> castNeeded(const ImplicitCastExpr *C, ASTContext &Ctx) {
  const Expr *Sub = C->getSubExpr();
  const QualType To = C->getType(), From = Sub->getType();
  if (C->getCastKind() == CK_BitCast && From->isPointerType() && To->isPointerType() &&
      From->getPointeeType()->isVoidType() && !To->getPointeeType()->isVoidType() &&
      !Sub->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return To; // `p = malloc(...)`: a `void *` into a `T *`
  if (C->getCastKind() == CK_IntegralCast && To->isEnumeralType() &&
      !Ctx.hasSameUnqualifiedType(From, To))
    return To; // `enum color c = 1`
  return std::nullopt;
}

class Walk : public AstVisitor {
public:
  Walk(ASTContext &Ctx, EditList &E, Reporter &Diags, CxxFromC &Out)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), E(E), Diags(Diags), Out(Out) {
    LangOptions Cxx;
    Cxx.CPlusPlus = Cxx.CPlusPlus11 = Cxx.CPlusPlus14 = Cxx.CPlusPlus17 = true;
    Cxx.Bool = true;
    CxxKeywords = std::make_unique<IdentifierTable>(Cxx);
    CxxOpts = Cxx;
  }


  bool VisitImplicitCastExpr(ImplicitCastExpr *C) override {
    if (!inMainFile(C->getBeginLoc()))
      return true;
    std::optional<QualType> To = castNeeded(C, Ctx);
    if (!To)
      return true;
    const Expr *Sub = C->getSubExpr();
    std::optional<Span> S = spanOf(Sub->getSourceRange(), Ctx);
    if (!S) {
      Diags.migrateNotCxx(C->getBeginLoc())
          << ("a macro converts '" + From(Sub) + "' to '" + typeText(*To) +
              "' implicitly; write the cast in the macro");
      return true;
    }
    castTo(Sub, *To); // none where rewritten already (an allocation that became a field)
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) override {
    if (!inMainFile(Call->getBeginLoc()))
      return true;
    const FunctionDecl *F = Call->getDirectCallee();
    if (!F) {
      // Through a pointer whose type says nothing of the parameters
      // (`VEC *(*fn)();`, then `(*fn)(a, x)`): C++ reads it as taking none.
      const Expr *Pointer = Call->getCallee()->IgnoreParenImpCasts();
      if (const auto *Deref = dyn_cast<UnaryOperator>(Pointer); Deref && Deref->getOpcode() == UO_Deref)
        Pointer = Deref->getSubExpr()->IgnoreParenImpCasts(); // (*fn)(a, x)
      const QualType Callee = Pointer->getType();
      const auto *Pointee = Callee->isPointerType() ? Callee->getPointeeType()->getAs<FunctionNoProtoType>()
                                                    : Callee->getAs<FunctionNoProtoType>();
      if (Pointee && Call->getNumArgs() > 0)
        Diags.migrateNotCxx(Call->getBeginLoc())
            << ("'" + From(Pointer) +
                "' points to a function whose type does not give its parameters, which C++ reads as none; "
                "write them in its declaration");
      return true;
    }
    overloadsAsInC(Call, F);
    if (const auto *Callee = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()))
      Callees.insert(Callee);
    if (!F->isImplicit()) {
      if (Call->getNumArgs() > 0)
        unprototypedUse(Call, F, true);
      return true;
    }
    const unsigned Id = F->getBuiltinID();
    if (Id && !Ctx.BuiltinInfo.isPredefinedLibFunction(Id))
      return true; // the compiler's own (HUGE_VAL's __builtin_huge_val()), declared in C++ too
    if (const char *Header = Id ? Ctx.BuiltinInfo.getHeaderName(Id) : knownHeader(F->getName())) {
      Out.Headers.insert(Header);
      return true;
    }
    if (Reported.insert(F).second)
      Diags.migrateNotCxx(Call->getBeginLoc())
          << ("'" + F->getNameAsString() +
              "' is called with no declaration in view; include the header that declares it");
    return true;
  }

  bool VisitFunctionDecl(FunctionDecl *F) override {
    // C89's implicit int (`bpnn_zero_weights(w, m, n)` with no type): the
    // `int` written before the name.
    if (inMainFile(F->getLocation()) && !F->isImplicit() && F->getFunctionTypeLoc() &&
        F->getReturnTypeSourceRange().isInvalid() &&
        F->getReturnType()->isSpecificBuiltinType(BuiltinType::Int)) {
      const SourceLocation Name = F->getLocation();
      if (Name.isMacroID() || !E.add({SM.getFileOffset(Name), 0, "int "}))
        Diags.migrateNotCxx(Name) << ("'" + F->getNameAsString() + "' has no return type (C's implicit int); "
                                                                    "write 'int' before it");
    }
    if (inMainFile(F->getLocation()) && F->doesThisDeclarationHaveABody() && !F->isMain() &&
        !F->getReturnType()->isVoidType())
      endWithValue(F);
    if (inMainFile(F->getLocation()) && F->isThisDeclarationADefinition() &&
        !F->hasWrittenPrototype() && F->getNumParams() > 0 && !prototype(F))
      Diags.migrateNotCxx(F->getLocation())
          << ("'" + F->getNameAsString() +
              "' is defined in the K&R style, and a macro, a preprocessor line or another edit in its "
              "parameters keeps dpstub from writing its prototype; give it one");
    return true;
  }

  bool VisitNamedDecl(NamedDecl *D) override {
    const IdentifierInfo *Id = D->getIdentifier();
    if (!Id || D->isImplicit() || !D->getLocation().isValid())
      return true;
    if (!CxxKeywords->get(Id->getName()).isKeyword(CxxOpts))
      return true;
    if (!inMainFile(D->getLocation())) {
      // The user's header, which the C++ file includes as it is: dpstub
      // edits the file it is given, not its headers (NPB's `npb-C.h`
      // names a parameter `class`).
      const SourceLocation L = SM.getFileLoc(D->getLocation());
      if (!SM.isInSystemHeader(L) && ReportedHeaderNames.insert(L).second)
        Diags.migrateNotCxx(L) << ("'" + Id->getName().str() +
                                   "' is a keyword of C++, and the migrated file includes this header as it is; rename it here");
      return true;
    }
    // A local variable is renamed (its uses are all in view); other
    // names are the user's to choose: they may be linked by name.
    if (const auto *V = dyn_cast<VarDecl>(D); V && V->isLocalVarDecl() && !isa<ParmVarDecl>(V)) {
      KeywordLocals[V].push_back(V->getLocation());
      return true;
    }
    Diags.migrateNotCxx(D->getLocation()) << ("'" + Id->getName().str() + "' is a keyword of C++; rename it");
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *R) override {
    if (auto It = KeywordLocals.find(dyn_cast<VarDecl>(R->getDecl())); It != KeywordLocals.end())
      It->second.push_back(R->getLocation());
    // A function named, not called, where only a declaration without its
    // parameters is in view (`qsort(a, n, size, cmp)` before cmp's
    // definition): C++ gives it the type of one taking none.
    const auto *F = dyn_cast<FunctionDecl>(R->getDecl());
    if (F && !Callees.count(R) && F->getType()->getAs<FunctionNoProtoType>() && inMainFile(R->getBeginLoc()))
      unprototypedUse(R, F, false);
    return true;
  }

  /// C linkage for the functions the file defines for other files, and
  /// for those it calls that the C program defines elsewhere (cLinked):
  /// as C++ they would be linked by mangled names, which the program's C
  /// files neither call nor define. Each
  /// declaration of one in the file gets `extern "C"`; a header of the
  /// user's that declares one with its prototype and says nothing of
  /// C++ (no `extern "C"` of its own, as `#ifdef __cplusplus` guards
  /// write) is included inside `extern "C" { }`, whose declarations
  /// C++ would otherwise read as others'. A declaration without its
  /// parameters there (`void f();`), which C++ reads as taking none, is
  /// an error: the two cannot both have C linkage.
  void cLinkage() {
    const StringRef Buf = SM.getBufferData(SM.getMainFileID());
    struct Linked {
      const FunctionDecl *F;
      std::vector<TextEdit> Marks;
      std::set<unsigned> Lines;                         ///< include lines to wrap
      std::vector<std::pair<const FunctionDecl *, unsigned>> Unprototyped; ///< and their include lines
      bool Blocked = false;
    };
    std::vector<Linked> All;
    // The main file's include line that brings in the header holding L.
    auto IncludeLine = [&](SourceLocation L) -> std::optional<unsigned> {
      L = SM.getIncludeLoc(SM.getFileID(SM.getFileLoc(L)));
      while (L.isValid() && !SM.isWrittenInMainFile(L))
        L = SM.getIncludeLoc(SM.getFileID(L));
      if (L.isInvalid())
        return std::nullopt;
      return lineStart(Buf, SM.getFileOffset(L));
    };
    std::set<const FunctionDecl *> Seen;
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      const auto *F = dyn_cast<FunctionDecl>(D);
      if (!F || !Seen.insert(F->getCanonicalDecl()).second || !cLinked(F))
        continue;
      if (const FunctionDecl *Def = F->getDefinition())
        F = Def;
      Linked X{F, {}, {}, {}, false};
      for (const FunctionDecl *R : F->redecls()) {
        // Before a macro that starts it (`REAL sum_kernel(...)`, REAL a
        // type), where the macro is written.
        const SourceLocation Begin = SM.getFileLoc(R->getBeginLoc());
        if (inMainFile(R->getLocation())) {
          if (R != F && !R->hasWrittenPrototype() && !GivenPrototype.count(R))
            continue; // `void f();`: to C++ another function, taking none
          if (!SM.isWrittenInMainFile(Begin) || (R->getStorageClass() == SC_Extern && R->getBeginLoc().isMacroID())) {
            X.Blocked = true;
            continue;
          }
          const unsigned At = SM.getFileOffset(Begin);
          X.Marks.push_back(R->getStorageClass() == SC_Extern ? TextEdit{At + 6, 0, " \"C\""} // after `extern`
                                                              : TextEdit{At, 0, "extern \"C\" "});
          continue;
        }
        const SourceLocation L = SM.getFileLoc(R->getLocation());
        if (SM.isInSystemHeader(L) || withinExternC(L))
          continue; // the header says what C++ gets
        const std::optional<unsigned> Line = IncludeLine(L);
        if (!Line)
          X.Blocked = true;
        else if (R->hasWrittenPrototype())
          X.Lines.insert(*Line);
        else
          X.Unprototyped.push_back({R, *Line});
      }
      All.push_back(std::move(X));
    }
    std::set<unsigned> Wrapped;
    for (const Linked &X : All)
      Wrapped.insert(X.Lines.begin(), X.Lines.end());
    bool Failed = false;
    for (const Linked &X : All) {
      const FunctionDecl *Old = nullptr;
      for (const auto &[R, Line] : X.Unprototyped)
        if (Wrapped.count(Line))
          Old = R;
      if (!X.Blocked && !Old)
        continue;
      Failed = true;
      const bool Here = X.F->isThisDeclarationADefinition() && inMainFile(X.F->getLocation());
      Diags.migrateNotCxx(X.F->getLocation())
          << ("'" + X.F->getNameAsString() +
              (Here ? "', which other files may call," : "', which the C program defines elsewhere,") +
              " needs C linkage in C++, and " +
              (Old ? "'" + llvm::sys::path::filename(SM.getFilename(SM.getFileLoc(Old->getLocation()))).str() +
                         "' declares it without its parameters, which C++ reads as none; give that "
                         "declaration its prototype"
                   : std::string("a macro keeps dpstub from writing it; write 'extern \"C\"' there")));
    }
    if (Failed)
      return; // nothing is written
    for (const Linked &X : All)
      for (const TextEdit &M : X.Marks)
        E.add(M, /*First=*/true); // before an implicit int's `int`
    for (unsigned Line : Wrapped) {
      E.add({Line, 0, "extern \"C\" {\n"});
      E.add({nextLineStart(Buf, Line), 0, "}\n"});
    }
  }


  /// A function of the C program whose declarations C++ must mark with
  /// C linkage: one the file defines for other files (not static, not
  /// main, not inline), or one it calls or names that the program defines
  /// elsewhere (another C file, a C library) and a declaration of the
  /// user's declares (NPB's `randlc`, declared in `npb-C.h`, defined in
  /// `c_randdp.c`): C++ would link both by mangled names. A system
  /// header says itself what C++ gets.
  bool cLinked(const FunctionDecl *F) const {
    if (F->isMain() || F->isImplicit() || !F->isExternallyVisible())
      return false;
    if (const FunctionDecl *Def = F->getDefinition()) {
      if (!inMainFile(Def->getLocation()))
        return false; // a header's definition: C++ compiles it too
      return Def->getStorageClass() != SC_Static && !Def->isInlineSpecified();
    }
    if (!F->isReferenced() || F->getStorageClass() == SC_Static)
      return false;
    for (const FunctionDecl *R : F->redecls())
      if (!R->isImplicit() && !SM.isInSystemHeader(SM.getFileLoc(R->getLocation())))
        return true;
    return false;
  }

  /// Each local variable named by a C++ keyword (`float *new`) renamed,
  /// its declaration and every use together (`new_`, or with more
  /// underscores while the file already has that name); an error where
  /// a macro spells one of them or another edit covers it.
  void renameKeywordLocals() {
    for (const auto &[V, Places] : KeywordLocals) {
      const std::string Old = V->getName().str();
      std::string New = Old + "_";
      while (Ctx.Idents.find(New) != Ctx.Idents.end()) // a name the unit spells (comments aside)
        New += "_";
      std::map<unsigned, TextEdit> Renames; // by offset: a macro's argument may be used twice
      bool Blocked = false;
      for (SourceLocation L : Places) {
        if (L.isMacroID() && SM.isMacroArgExpansion(L)) // fastcopy(new->w, ...)
          L = SM.getSpellingLoc(L);
        if (L.isMacroID() || !SM.isWrittenInMainFile(L)) {
          Blocked = true; // in a macro's definition
          break;
        }
        const unsigned At = SM.getFileOffset(L);
        if (rewritten(E, At, true) || rewritten(E, At + 1, false)) {
          Blocked = true;
          break;
        }
        Renames[At] = {At, static_cast<unsigned>(Old.size()), New};
      }
      if (!Blocked &&
          std::all_of(Renames.begin(), Renames.end(), [&](const auto &X) { return E.add(X.second); }))
        continue;
      Diags.migrateNotCxx(V->getLocation())
          << ("'" + Old + "' is a keyword of C++, and a macro or another edit keeps dpstub from renaming it; "
                          "rename it");
    }
  }

private:
  /// C++ overloads C's math functions and abs (<math.h> brings them in):
  /// `sqrt(f)` of a float would compute in float, `abs(d)` of a double
  /// would not truncate. Each argument C converts for such a function gets
  /// that conversion written, so that C++ picks the function C called.
  void overloadsAsInC(const CallExpr *Call, const FunctionDecl *F) {
    const unsigned Id = F->getBuiltinID();
    if (!Id)
      return;
    const char *Header = Ctx.BuiltinInfo.getHeaderName(Id);
    const std::string Name = F->getNameAsString();
    if (!(Header && StringRef(Header) == "math.h") && Name != "abs" && Name != "labs" &&
        Name != "llabs")
      return;
    for (unsigned K = 0; K < Call->getNumArgs() && K < F->getNumParams(); ++K) {
      const auto *C = dyn_cast<ImplicitCastExpr>(Call->getArg(K));
      if (!C || !(C->getCastKind() == CK_FloatingCast || C->getCastKind() == CK_FloatingToIntegral ||
                  C->getCastKind() == CK_IntegralCast))
        continue;
      castTo(C->getSubExpr(), F->getParamDecl(K)->getType());
    }
  }

  /// `(T)` written before X (in parentheses where it must be), unless an
  /// edit already rewrites X's place.
  void castTo(const Expr *X, QualType T) {
    std::optional<Span> S = spanOf(X->getSourceRange(), Ctx);
    if (!S || rewritten(E, S->Begin, true))
      return;
    const std::string Cast = "(" + typeText(T) + ")";
    if (castBindsWhole(X)) {
      E.add({S->Begin, 0, Cast});
    } else if (!rewritten(E, S->End, false)) {
      E.add({S->Begin, 0, Cast + "("});
      E.add({S->End, 0, ")"});
    }
  }

  /// A call with arguments (Called), or a use as a pointer, of a
  /// function no declaration before it declares with its parameters
  /// (`void f();`, then `f(a, n)` or `qsort(..., f)`): C reads that
  /// declaration as saying nothing of them, C++ as taking none, and
  /// rejects the call (the pointer, where a typed one is wanted). Each
  /// such declaration in the main file gets the parameters of the one that
  /// has them (the definition, K&R or not, or another declaration), names
  /// included; for a call, an error where none is in view, or the
  /// declaration is in a header or a macro.
  void unprototypedUse(const Expr *Use, const FunctionDecl *F, bool Called) {
    const SourceLocation At = SM.getFileLoc(Use->getBeginLoc());
    const FunctionDecl *Typed = nullptr; // the declaration with the parameters
    bool Before = false;                 // one of them is in view at the call
    for (const FunctionDecl *R : F->redecls()) {
      const bool Written = R->hasWrittenPrototype() ||
                           (R->isThisDeclarationADefinition() && inMainFile(R->getLocation())); // K&R, prototyped
      if (!Written)
        continue;
      Typed = R;
      Before |= SM.isBeforeInTranslationUnit(SM.getFileLoc(R->getLocation()), At);
    }
    if (Before)
      return;
    if (!Typed) {
      if (Called && Reported.insert(F->getCanonicalDecl()).second)
        Diags.migrateNotCxx(Use->getBeginLoc())
            << ("'" + F->getNameAsString() + "' is declared without its parameters, which C++ reads as none, "
                "and no declaration in view gives them; give it its prototype");
      return;
    }
    for (const FunctionDecl *R : F->redecls()) {
      if (R->hasWrittenPrototype() || R->isThisDeclarationADefinition() || GivenPrototype.count(R))
        continue;
      const FunctionTypeLoc TL = R->getFunctionTypeLoc();
      const SourceLocation Open = TL ? TL.getLParenLoc() : SourceLocation(),
                           Close = TL ? TL.getRParenLoc() : SourceLocation();
      const bool Editable = Open.isValid() && Close.isValid() && !Open.isMacroID() && !Close.isMacroID() &&
                            SM.isWrittenInMainFile(Open);
      if (!Editable || !E.add({SM.getFileOffset(Open) + 1,
                               SM.getFileOffset(Close) - SM.getFileOffset(Open) - 1, parameters(Typed)})) {
        if (!Called || !SM.isBeforeInTranslationUnit(SM.getFileLoc(R->getLocation()), At) ||
            !Reported.insert(R).second)
          continue; // after the call, C++ reads it as another function none calls
        Diags.migrateNotCxx(Use->getBeginLoc())
            << ("'" + F->getNameAsString() + "' is called with its arguments where '" +
                llvm::sys::path::filename(SM.getFilename(SM.getFileLoc(R->getLocation()))).str() +
                "' declares it without its parameters, which C++ reads as none; give that declaration its "
                "prototype");
        return;
      }
      GivenPrototype.insert(R);
    }
  }

  /// F's parameters as a prototype writes them, with the types C gave
  /// them and their names: `float *w, int n`.
  std::string parameters(const FunctionDecl *F) const {
    PrintingPolicy Policy(Ctx.getLangOpts());
    Policy.SuppressTagKeyword = false;
    std::string Text;
    for (const ParmVarDecl *P : F->parameters()) {
      std::string Decl;
      llvm::raw_string_ostream OS(Decl);
      P->getOriginalType().print(OS, Policy, P->getName());
      Text += (P == F->parameters().front() ? "" : ", ") + OS.str();
    }
    return Text;
  }

  /// A function that returns a value and may end without one (C89's
  /// `fill(row, n)` whose value nobody uses): a `return {};` before its
  /// closing brace, the value C left unset, so that no C++ compiler takes
  /// that end as unreachable.
  void endWithValue(const FunctionDecl *F) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody());
    if (!Body || !mayRunOffEnd(F, Ctx))
      return;
    const SourceLocation Close = Body->getRBracLoc();
    bool Added = false;
    if (!Close.isMacroID() && SM.isWrittenInMainFile(Close)) {
      const StringRef Buf = SM.getBufferData(SM.getMainFileID());
      const unsigned At = SM.getFileOffset(Close);
      const size_t LineStart = Buf.rfind('\n', At) + 1; // npos + 1 is 0
      const bool OwnLine = Buf.substr(LineStart, At - LineStart).trim().empty();
      Added = OwnLine ? E.add({static_cast<unsigned>(LineStart), 0,
                               "  return {}; // C left this value unset; C++ may not end without one\n"})
                      : E.add({At, 0, "return {}; "});
    }
    if (!Added)
      Diags.migrateNotCxx(F->getLocation())
          << ("'" + F->getNameAsString() + "' may end without returning a value, which C++ does not allow; "
                                          "end it with a return");
  }

  /// A K&R definition's parameters as a prototype, which C++ needs:
  /// `float squash(x) float x; {` becomes `float squash(float x) {`. The
  /// types are the ones C gave the parameters (an undeclared one is int),
  /// which callers in this file now convert their arguments to, as the
  /// definition converted them; comments between the parentheses and the
  /// body follow the prototype. False where dpstub cannot: a macro or a
  /// preprocessor line there, or another edit inside.
  bool prototype(const FunctionDecl *F) {
    const FunctionTypeLoc TL = F->getFunctionTypeLoc();
    if (!TL || !F->getBody())
      return false;
    const SourceLocation Open = TL.getLParenLoc(), Body = F->getBody()->getBeginLoc();
    if (Open.isInvalid() || Open.isMacroID() || Body.isMacroID() || !SM.isWrittenInMainFile(Open))
      return false;
    const unsigned Begin = SM.getFileOffset(Open), End = SM.getFileOffset(Body);
    const StringRef Buf = SM.getBufferData(SM.getMainFileID());
    if (End <= Begin)
      return false;
    std::string Plain = Buf.substr(Begin, End - Begin).str(); // the text without its comments
    const std::vector<std::string> Comments = commentsIn(Buf, Begin, End);
    for (const std::string &C : Comments)
      if (size_t At = Plain.find(C); At != std::string::npos)
        Plain.erase(At, C.size());
    if (Plain.find('#') != std::string::npos ||
        std::any_of(E.edits().begin(), E.edits().end(),
                    [&](const TextEdit &X) { return X.Offset + X.Length > Begin && X.Offset < End; }))
      return false;
    std::string Text = "(" + parameters(F) + ")";
    bool LineComment = false;
    for (const std::string &C : Comments) {
      Text += (LineComment ? "" : " ") + C;
      LineComment = StringRef(C).starts_with("//");
      if (LineComment)
        Text += "\n";
    }
    return E.add({Begin, End - Begin, Text + (LineComment ? "" : " ")});
  }

  /// The header's text puts At inside `extern "C" { ... }` (its
  /// `#ifdef __cplusplus` guards do, which a C parse skips), comments
  /// aside: a header whose guards hold only some of its declarations
  /// (NeoRodinia's `sum.h` guards `sum_kernel`, not `init`) gives C++ the
  /// others with C++ linkage, so those still need the include wrapped.
  bool withinExternC(SourceLocation At) const {
    const FileID File = SM.getFileID(At);
    const unsigned Offset = SM.getFileOffset(At);
    const StringRef Buf = SM.getBufferData(File);
    Lexer L(SM.getLocForStartOfFile(File), Ctx.getLangOpts(), Buf.begin(), Buf.begin(), Buf.end());
    Token T;
    bool Extern = false, ExternC = false;
    int Depth = 0;
    std::vector<int> Open; // the depths at which `extern "C" {` blocks opened
    while (!L.LexFromRawLexer(T) && SM.getFileOffset(T.getLocation()) < Offset) {
      if (T.is(tok::l_brace)) {
        if (ExternC)
          Open.push_back(Depth);
        ++Depth;
      } else if (T.is(tok::r_brace)) {
        --Depth;
        if (!Open.empty() && Open.back() == Depth)
          Open.pop_back();
      }
      ExternC = Extern && T.is(tok::string_literal) && StringRef(T.getLiteralData(), T.getLength()) == "\"C\"";
      Extern = T.is(tok::raw_identifier) && T.getRawIdentifier() == "extern";
    }
    return !Open.empty();
  }

  bool inMainFile(SourceLocation L) const { return L.isValid() && SM.isWrittenInMainFile(SM.getFileLoc(L)); }
  std::string typeText(QualType T) const {
    PrintingPolicy P(Ctx.getLangOpts());
    P.SuppressTagKeyword = false;
    return T.getAsString(P);
  }
  std::string From(const Expr *X) const {
    std::string T = textOf(X, Ctx);
    return T.empty() ? typeText(X->getType()) : T;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  EditList &E;
  Reporter &Diags;
  CxxFromC &Out;
  std::unique_ptr<IdentifierTable> CxxKeywords;
  LangOptions CxxOpts;
  std::set<const FunctionDecl *> Reported;
  std::set<SourceLocation> ReportedHeaderNames; ///< keywords named in headers, reported once
  /// `void f();` declarations given the parameters of f's prototype.
  std::set<const FunctionDecl *> GivenPrototype;
  std::set<const DeclRefExpr *> Callees; ///< functions named to be called
  /// Local variables named by C++ keywords: their declaration and uses.
  std::map<const VarDecl *, std::vector<SourceLocation>> KeywordLocals;
};

/// `restrict` (a keyword of C, not of C++) as `__restrict`, which both
/// compilers take, and `register` (which C++17 no longer takes, and which
/// asks nothing a compiler still does) dropped, wherever the main file
/// spells them outside comments and literals (in macros too: Rodinia's
/// `register char *_to` in a #define). And a space between a string
/// literal and a name written right after it (`"norm = "FSTR`, `"%"PRId64`),
/// which C++11 reads as a literal with a suffix of that name.
void cOnlyKeywords(ASTContext &Ctx, EditList &E) {
  const SourceManager &SM = Ctx.getSourceManager();
  const FileID Main = SM.getMainFileID();
  const StringRef Buf = SM.getBufferData(Main);
  Lexer L(SM.getLocForStartOfFile(Main), Ctx.getLangOpts(), Buf.begin(), Buf.begin(), Buf.end());
  Token T;
  unsigned LiteralEnd = ~0u; // where the last token, a string literal, ends
  while (!L.LexFromRawLexer(T)) {
    const unsigned Start = SM.getFileOffset(T.getLocation());
    const bool AfterLiteral = Start == LiteralEnd;
    LiteralEnd = T.is(tok::string_literal) ? Start + T.getLength() : ~0u;
    if (!T.is(tok::raw_identifier))
      continue;
    const unsigned At = Start;
    if (AfterLiteral && !rewritten(E, At, true))
      E.add({At, 0, " "});
    if (T.getRawIdentifier() == "restrict" && !rewritten(E, At, true))
      E.add({At, 8, "__restrict"});
    if (T.getRawIdentifier() == "register" && !rewritten(E, At, true)) {
      unsigned End = At + 8;
      while (End < Buf.size() && (Buf[End] == ' ' || Buf[End] == '\t'))
        ++End;
      E.add({At, End - At, ""});
    }
  }
}

} // namespace

CxxFromC planCxxFromC(ASTContext &Ctx, EditList &E, Reporter &Diags) {
  CxxFromC Out;
  if (Ctx.getLangOpts().CPlusPlus)
    return Out;
  Walk W(Ctx, E, Diags, Out);
  W.TraverseDecl(Ctx.getTranslationUnitDecl());
  W.renameKeywordLocals();
  W.cLinkage();
  cOnlyKeywords(Ctx, E);
  return Out;
}

} // namespace dpstub::migrate
