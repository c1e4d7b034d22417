#!/usr/bin/env bash
# The tool's AST walks derive from lib/AstVisitor.h: clang's
# RecursiveASTVisitor is instantiated once, in lib/AstVisitor.cpp. Each
# further class derived from it compiles the whole traversal again (about
# 9 s of g++ -O2 on CI's 2 cores). Prints each place that includes or
# derives from it elsewhere; exits non-zero when there is one.
#
#   bash test/scripts/one_ast_visitor_test.sh [SOURCE_DIR]
set -euo pipefail
root=${1:-"$(dirname "$0")/../.."}
cd "$root"
if found=$(grep -rnE 'RecursiveASTVisitor(<|\.h)' lib tool --include='*.cpp' --include='*.h' |
           grep -v '^lib/AstVisitor\.cpp:'); then
  echo "RecursiveASTVisitor outside lib/AstVisitor.cpp (derive from dpstub::AstVisitor):"
  echo "$found"
  exit 1
fi
