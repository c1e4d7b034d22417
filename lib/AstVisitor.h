//===- AstVisitor.h - One RecursiveASTVisitor for the whole tool ----------===//
//
// clang::RecursiveASTVisitor is a CRTP template: each class derived from it
// instantiates the whole traversal again, about 9 s of g++ -O2 per visitor
// (measured on this project's 2-core CI machine, 2026-12-06), and the tool
// has some thirty visitors. AstVisitor instantiates it once, in
// AstVisitor.cpp, and calls its users' hooks through virtual functions; the
// traversal is RecursiveASTVisitor's own, node for node. It is Clang 20's
// DynamicRecursiveASTVisitor for Clang 19, with the hooks this tool uses:
//
//  - Visit##CLASS for every statement, declaration, type and type location
//    class, called in RecursiveASTVisitor's order (a node's base classes
//    first);
//  - Traverse##CLASS for every concrete statement and declaration class,
//    whose default is RecursiveASTVisitor's; an override calls
//    AstVisitor::Traverse##CLASS to go on into the node's children;
//  - TraverseStmt, TraverseDecl, TraverseType and TraverseTypeLoc;
//  - the shouldVisit* options as data members (set them in a constructor).
//
// Overrides must say `override`: a hook whose signature differs from the
// base's would otherwise be a new function that nothing calls.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/ASTFwd.h"
#include "clang/AST/TypeLoc.h"

namespace dpstub {

class AstVisitor {
public:
  AstVisitor() = default;
  AstVisitor(const AstVisitor &) = default;
  AstVisitor &operator=(const AstVisitor &) = default;
  virtual ~AstVisitor();

  /// RecursiveASTVisitor's shouldVisitTemplateInstantiations().
  bool ShouldVisitTemplateInstantiations = false;
  /// RecursiveASTVisitor's shouldVisitImplicitCode().
  bool ShouldVisitImplicitCode = false;
  /// RecursiveASTVisitor's shouldVisitLambdaBody().
  bool ShouldVisitLambdaBody = true;
  /// RecursiveASTVisitor's shouldWalkTypesOfTypeLocs().
  bool ShouldWalkTypesOfTypeLocs = true;

  virtual bool TraverseStmt(clang::Stmt *S);
  virtual bool TraverseDecl(clang::Decl *D);
  virtual bool TraverseType(clang::QualType T);
  virtual bool TraverseTypeLoc(clang::TypeLoc TL);

#define ABSTRACT_STMT(STMT)
#define STMT(CLASS, PARENT) virtual bool Traverse##CLASS(clang::CLASS *S);
#include "clang/AST/StmtNodes.inc"

#define ABSTRACT_DECL(DECL)
#define DECL(CLASS, BASE) virtual bool Traverse##CLASS##Decl(clang::CLASS##Decl *D);
#include "clang/AST/DeclNodes.inc"

  virtual bool VisitStmt(clang::Stmt *S);
#define STMT(CLASS, PARENT) virtual bool Visit##CLASS(clang::CLASS *S);
#include "clang/AST/StmtNodes.inc"

  virtual bool VisitDecl(clang::Decl *D);
#define DECL(CLASS, BASE) virtual bool Visit##CLASS##Decl(clang::CLASS##Decl *D);
#include "clang/AST/DeclNodes.inc"

  virtual bool VisitType(clang::Type *T);
#define TYPE(CLASS, BASE) virtual bool Visit##CLASS##Type(clang::CLASS##Type *T);
#include "clang/AST/TypeNodes.inc"

  virtual bool VisitTypeLoc(clang::TypeLoc TL);
  virtual bool VisitQualifiedTypeLoc(clang::QualifiedTypeLoc TL);
  virtual bool VisitUnqualTypeLoc(clang::UnqualTypeLoc TL);
#define TYPE(CLASS, BASE) virtual bool Visit##CLASS##TypeLoc(clang::CLASS##TypeLoc TL);
#include "clang/AST/TypeNodes.inc"
};

} // namespace dpstub
