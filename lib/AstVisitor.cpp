//===- AstVisitor.cpp - The tool's one RecursiveASTVisitor instantiation --===//
//
// Impl is the RecursiveASTVisitor: each of its hooks hands the node to the
// AstVisitor's virtual function, whose default comes back to Impl's base to
// do what RecursiveASTVisitor does. Impl holds only a reference, so the
// defaults make one where they need it.
//
//===----------------------------------------------------------------------===//
#include "AstVisitor.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace dpstub {
namespace {

struct Impl : RecursiveASTVisitor<Impl> {
  using Base = RecursiveASTVisitor<Impl>;
  explicit Impl(AstVisitor &V) : V(V) {}
  AstVisitor &V;

  bool shouldVisitTemplateInstantiations() const { return V.ShouldVisitTemplateInstantiations; }
  bool shouldVisitImplicitCode() const { return V.ShouldVisitImplicitCode; }
  bool shouldVisitLambdaBody() const { return V.ShouldVisitLambdaBody; }
  bool shouldWalkTypesOfTypeLocs() const { return V.ShouldWalkTypesOfTypeLocs; }

  // Without a data-recursion queue: every statement goes through V.
  bool TraverseStmt(Stmt *S) { return V.TraverseStmt(S); }
  bool TraverseDecl(Decl *D) { return V.TraverseDecl(D); }
  bool TraverseType(QualType T) { return V.TraverseType(T); }
  bool TraverseTypeLoc(TypeLoc TL) { return V.TraverseTypeLoc(TL); }

#define ABSTRACT_STMT(STMT)
#define STMT(CLASS, PARENT)                                                                        \
  bool Traverse##CLASS(CLASS *S) { return V.Traverse##CLASS(S); }
#include "clang/AST/StmtNodes.inc"

#define ABSTRACT_DECL(DECL)
#define DECL(CLASS, BASE)                                                                          \
  bool Traverse##CLASS##Decl(CLASS##Decl *D) { return V.Traverse##CLASS##Decl(D); }
#include "clang/AST/DeclNodes.inc"

  bool VisitStmt(Stmt *S) { return V.VisitStmt(S); }
#define STMT(CLASS, PARENT)                                                                        \
  bool Visit##CLASS(CLASS *S) { return V.Visit##CLASS(S); }
#include "clang/AST/StmtNodes.inc"

  bool VisitDecl(Decl *D) { return V.VisitDecl(D); }
#define DECL(CLASS, BASE)                                                                          \
  bool Visit##CLASS##Decl(CLASS##Decl *D) { return V.Visit##CLASS##Decl(D); }
#include "clang/AST/DeclNodes.inc"

  bool VisitType(Type *T) { return V.VisitType(T); }
#define TYPE(CLASS, BASE)                                                                          \
  bool Visit##CLASS##Type(CLASS##Type *T) { return V.Visit##CLASS##Type(T); }
#include "clang/AST/TypeNodes.inc"

  bool VisitTypeLoc(TypeLoc TL) { return V.VisitTypeLoc(TL); }
  bool VisitQualifiedTypeLoc(QualifiedTypeLoc TL) { return V.VisitQualifiedTypeLoc(TL); }
  bool VisitUnqualTypeLoc(UnqualTypeLoc TL) { return V.VisitUnqualTypeLoc(TL); }
#define TYPE(CLASS, BASE)                                                                          \
  bool Visit##CLASS##TypeLoc(CLASS##TypeLoc TL) { return V.Visit##CLASS##TypeLoc(TL); }
#include "clang/AST/TypeNodes.inc"
};

} // namespace

AstVisitor::~AstVisitor() = default;

bool AstVisitor::TraverseStmt(Stmt *S) { return Impl(*this).Base::TraverseStmt(S); }
bool AstVisitor::TraverseDecl(Decl *D) { return Impl(*this).Base::TraverseDecl(D); }
bool AstVisitor::TraverseType(QualType T) { return Impl(*this).Base::TraverseType(T); }
bool AstVisitor::TraverseTypeLoc(TypeLoc TL) { return Impl(*this).Base::TraverseTypeLoc(TL); }

#define ABSTRACT_STMT(STMT)
#define STMT(CLASS, PARENT)                                                                        \
  bool AstVisitor::Traverse##CLASS(CLASS *S) { return Impl(*this).Base::Traverse##CLASS(S); }
#include "clang/AST/StmtNodes.inc"

#define ABSTRACT_DECL(DECL)
#define DECL(CLASS, BASE)                                                                          \
  bool AstVisitor::Traverse##CLASS##Decl(CLASS##Decl *D) {                                         \
    return Impl(*this).Base::Traverse##CLASS##Decl(D);                                             \
  }
#include "clang/AST/DeclNodes.inc"

// Visits do nothing unless overridden; Impl's WalkUpFrom chain calls them.
bool AstVisitor::VisitStmt(Stmt *) { return true; }
#define STMT(CLASS, PARENT)                                                                        \
  bool AstVisitor::Visit##CLASS(CLASS *) { return true; }
#include "clang/AST/StmtNodes.inc"

bool AstVisitor::VisitDecl(Decl *) { return true; }
#define DECL(CLASS, BASE)                                                                          \
  bool AstVisitor::Visit##CLASS##Decl(CLASS##Decl *) { return true; }
#include "clang/AST/DeclNodes.inc"

bool AstVisitor::VisitType(Type *) { return true; }
#define TYPE(CLASS, BASE)                                                                          \
  bool AstVisitor::Visit##CLASS##Type(CLASS##Type *) { return true; }
#include "clang/AST/TypeNodes.inc"

bool AstVisitor::VisitTypeLoc(TypeLoc) { return true; }
bool AstVisitor::VisitQualifiedTypeLoc(QualifiedTypeLoc) { return true; }
bool AstVisitor::VisitUnqualTypeLoc(UnqualTypeLoc) { return true; }
#define TYPE(CLASS, BASE)                                                                          \
  bool AstVisitor::Visit##CLASS##TypeLoc(CLASS##TypeLoc) { return true; }
#include "clang/AST/TypeNodes.inc"

} // namespace dpstub
