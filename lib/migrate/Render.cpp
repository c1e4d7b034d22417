//===- Render.cpp - A loop model as a dp call-site ------------------------===//

#include "migrate/Render.h"
#include "migrate/Aliasing.h"

#include "migrate/DataDirectives.h"
#include "migrate/OffsetPointer.h"
#include "migrate/Reductions.h"
#include "dpstub/DpTypes.h"
#include "migrate/Helpers.h"
#include "AstText.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>

using namespace clang;

namespace dpstub::migrate {

namespace {

/// T as the kernel declares it (no const, no reference).
std::string valueType(QualType T, const ASTContext &Ctx) {
  return printType(T.getNonReferenceType().getUnqualifiedType(), Ctx);
}
/// S's: an offset pointer (OffsetPointer.h) is its offset.
std::string valueType(const ScalarUse &S, const ASTContext &Ctx) {
  return S.Offset ? "std::int64_t" : valueType(S.Var->getType(), Ctx);
}

/// An arg max's fields noting the iteration that set its value: one per
/// level, outer first (`dp_best_at`, or `dp_best_at0`, `dp_best_at1`).
std::vector<std::string> locatedFields(const LoopModel &M, const Reduction &R) {
  std::vector<std::string> F;
  for (int K = 0; K < M.rank(); ++K)
    F.push_back("dp_" + R.Name + "_at" + (M.rank() > 1 ? std::to_string(K) : ""));
  return F;
}

/// An arg max's fields compare lexicographically, the smaller noting the
/// iteration that wins a tie; a kernel's iteration that set nothing has
/// the largest, the value before the loop the smallest (it keeps a tie),
/// or where the last of equal values wins, the next largest.
const char *const NothingSet = "std::numeric_limits<std::int64_t>::max()";
std::string locatedBefore(const Reduction &R) {
  return R.LastWins ? "std::numeric_limits<std::int64_t>::max() - 1" : "std::numeric_limits<std::int64_t>::min()";
}

/// Text that can take `+ 1` without parentheses.
bool simple(const std::string &T) {
  for (char C : T)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_' && C != '.' && C != ':' && C != '(' &&
        C != ')')
      return false;
  return !T.empty();
}

std::string plusOne(const std::string &T, int Delta) {
  bool Literal = !T.empty();
  for (char C : T)
    Literal &= std::isdigit(static_cast<unsigned char>(C)) != 0;
  if (Literal)
    return std::to_string(std::stoll(T) + Delta);
  // `i <= n - 1` is `i < n`.
  const std::string Undo = Delta > 0 ? " - 1" : " + 1";
  if (T.size() > Undo.size() && T.compare(T.size() - Undo.size(), Undo.size(), Undo) == 0 &&
      T.find_first_of("<>&|^?=,") == std::string::npos) // no operator binds looser than `-`
    return T.substr(0, T.size() - Undo.size());
  return (simple(T) ? T : "(" + T + ")") + (Delta > 0 ? " + 1" : " - 1");
}

/// T as one operand of + or -: parenthesised unless a name or a number.
std::string parenthesised(const std::string &T) {
  for (char C : T)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_')
      return "(" + T + ")";
  return T;
}

std::string sequenceText(const LoopLevel &L) {
  std::string Hi = L.Upper;
  if (L.Cmp == Comparison::LessEqual)
    Hi = plusOne(L.Upper, 1);
  else if (L.Cmp == Comparison::GreaterEqual)
    Hi = plusOne(L.Upper, -1);
  if (unitStep(L) && L.LowerIsZero && L.UpperNonNegative && L.Cmp != Comparison::LessEqual)
    return L.Upper;
  std::string S = "dp::arithmetic_sequence(" + L.Lower + ", " + Hi;
  if (!unitStep(L))
    S += ", " + (L.StepText.empty() ? std::to_string(L.Step) : L.StepText);
  return S + ")";
}

/// The kernel's parameter list (after the index) and the call-site's
/// matching arguments.
struct Parameters {
  std::string Formals, Actuals;
  /// Memory from callers, borrowed before the call-site (`dp::field<1,
  /// float> dp_y = dp::borrow(y, n);`): a statement each.
  std::vector<std::string> Borrows;
  /// The copies of the tables the kernel's helpers read
  /// (ScalarRole::HelperTable), which the lambda's [=] copies.
  std::vector<std::string> Tables;
  /// The copies of the small array parameters it reads
  /// (ScalarRole::CopiedParameter): `const auto dp_d = d; int d[3];
  /// std::memcpy(d, dp_d, sizeof d);`, which the lambda's [=] copies.
  std::vector<std::string> Copies;
  /// Fields read where a caller may pass the one written (Aliasing.h):
  /// `const dp::field<1, const double> dp_in = dp::read_apart(in, out);`.
  std::vector<std::string> Apart;
};

/// N, or `dp_N`, `dp_dp_N`, ... while the body names it.
std::string unusedName(std::string N, const std::string &Body) {
  while (std::regex_search(Body, std::regex("\\b" + N + "\\b")))
    N = "dp_" + N;
  return N;
}

Parameters parametersOf(const LoopModel &M, const RenderInput &In, const ArrayData &Arrays,
                        const ASTContext &Ctx) {
  Parameters P;
  // Borrowed memory a caller may pass as two pointers (Aliasing.h): the
  // written ones borrowed first, the others read through dp::borrow_read
  // where readsThroughCopy says (else dp::borrow, whose overlap is a
  // dp::error).
  std::string WrittenLocals;
  std::vector<std::string> Reads;
  std::map<std::string, std::string> Guards; // a window's guard: its variable
  for (const ArrayUse &A : M.Arrays) {
    const ArrayVar *Info = Arrays.find(A.Var);
    const std::vector<const VarDecl *> Apart = readApartFrom(M, A, Arrays);
    const bool Copied = readsThroughCopy(M, A) || !Apart.empty();
    const bool ElementConst = Copied || A.ConstObject || (Info && Info->Element.isConstQualified());
    const std::string Type = Arrays.fieldType(A.Var, ElementConst);
    // A path (`m->x`) is written so on the host, as kernelName() in the kernel.
    const std::string Name = A.Var->getName().str(), Kernel = kernelName(A.Var);
    // An array of rows reaches its kernel as a dp::rows view (the
    // caller's rows on the host), read-only where the loop only reads it.
    const bool Rows = !A.Borrowed.empty() && !A.BorrowedColumns.empty();
    const std::string RowElement = Arrays.elementType(A.Var, ElementConst || !A.Written);
    const bool Planes = Rows && !A.BorrowedRows.empty(); // `double ***u`: dp::rows<double, 3>
    if (Rows)
      P.Formals += ", const dp::rows<" + RowElement + (Planes ? ", 3" : "") + "> &" + Kernel;
    else
      P.Formals += ", " + std::string(A.Written ? "" : "const ") + Type + " &" + Kernel;
    if (A.Borrowed.empty() && Apart.empty()) {
      P.Actuals += ", " + Name;
      continue;
    }
    const std::string Local = unusedName("dp_" + Kernel, In.Body);
    if (A.Borrowed.empty()) {
      std::string Writers;
      for (const VarDecl *W : Apart)
        Writers += ", " + W->getName().str();
      P.Apart.push_back("const " + Type + " " + Local + " = dp::read_apart(" + Name + Writers + ");");
      P.Actuals += ", " + Local;
      continue;
    }
    // A window: from the first element the loop touches, a field whose
    // indices are the pointer's (`dp_a(k)` is `a[k]`); empty where the
    // loop touches none (one test for the arrays that share it).
    std::string Memory = borrowedMemory(A.Var), Elements = A.Borrowed, Touches, Window;
    if (!A.BorrowedWhen.empty()) {
      auto [It, New] = Guards.try_emplace(A.BorrowedWhen, std::string());
      if (New) {
        It->second = unusedName("dp_touches" + (Guards.size() > 1 ? std::to_string(Guards.size()) : ""), In.Body);
        P.Borrows.push_back("const bool " + It->second + " = " + A.BorrowedWhen + ";");
      }
      Touches = It->second;
      Elements = Touches + " ? " + A.Borrowed + " : 0";
    }
    if (!A.BorrowedFirst.empty()) {
      const std::string First = unusedName(Local + "_first", In.Body), End = unusedName(Local + "_end", In.Body);
      P.Borrows.push_back("const std::int64_t " + First + " = " +
                          (Touches.empty() ? A.BorrowedFirst : Touches + " ? " + A.BorrowedFirst + " : 0") + ";");
      P.Borrows.push_back("const std::int64_t " + End + " = " + Elements + ";");
      Memory += " + " + First;
      Window = First + ", " + End;
      Elements = "dp::grid<1>(dp::arithmetic_sequence(" + First + ", " + End + "))";
      if (isAccessorVar(A.Var)) // `domain.xd(0)` of an empty vector is no element
        Memory = End + " > 0 ? " + Memory + " : nullptr";
    } else if (isAccessorVar(A.Var)) {
      // (`n > 0 ? n : 0` elements: `n > 0` says whether there are any.)
      std::smatch Clamped;
      const std::string Any = std::regex_match(Elements, Clamped, std::regex("(.+) > 0 \\? \\1 : 0"))
                                  ? Clamped[1].str() + " > 0"
                                  : "(" + Elements + ") > 0";
      Memory = Any + " ? " + Memory + " : nullptr";
    }
    if (!A.BorrowedColumns.empty()) {
      // Rows: the kernel indexes the caller's own on the host; a device's
      // copy borrows them in place when they lie one after another, else
      // gathers them (written back at the block's end); a window's keep
      // their indices, as the pointer's.
      // An array of arrays of rows names every bound: planes, rows of
      // each, columns of each row.
      auto Guarded = [&](const std::string &Bound, const std::string &When) {
        if (When.empty() || Bound.empty())
          return Bound;
        return (When == A.BorrowedWhen ? Touches : "(" + When + ")") + " ? " + Bound + " : 0";
      };
      // A bound of several candidates (`std::min<std::int64_t>({...})`)
      // is named on a line of its own, as the planes' are.
      auto Named = [&](std::string Bound, const std::string &What) {
        if (Bound.find("std::min") == std::string::npos && Bound.find("std::max") == std::string::npos)
          return Bound;
        const std::string Name = unusedName(Local + "_" + What, In.Body);
        P.Borrows.push_back("const std::int64_t " + Name + " = " + Bound + ";");
        return Name;
      };
      // (Planes: the rows of each before the columns.)
      std::string RowsFirst, Rows;
      if (Planes) {
        RowsFirst = A.BorrowedRowsFirst.empty()
                        ? std::string("0")
                        : Named(Guarded(A.BorrowedRowsFirst, A.BorrowedRowsWhen), "rows_first");
        Rows = Named(Guarded(A.BorrowedRows, A.BorrowedRowsWhen), "rows_end");
      }
      std::string ColumnsFirst = Named(Guarded(A.BorrowedColumnsFirst, A.BorrowedColumnsWhen), "columns_first"),
                  Columns = Named(Guarded(A.BorrowedColumns, A.BorrowedColumnsWhen), "columns_end");
      if (Planes) {
        P.Borrows.push_back("dp::borrowed_rows<" + RowElement + ", 3> " + Local + "(" + Name + ", " +
                            (!Window.empty() ? Window : "0, " + Elements) + ", " + RowsFirst + ", " + Rows + ", " +
                            (ColumnsFirst.empty() ? "0" : ColumnsFirst) + ", " + Columns + ");");
        P.Actuals += ", " + Local + ".rows()";
        continue;
      }
      P.Borrows.push_back("dp::borrowed_rows<" + RowElement + "> " +
                          Local + "(" + Name + ", " +
                          (!Window.empty() ? Window : ColumnsFirst.empty() ? Elements : "0, " + Elements) + ", " +
                          (ColumnsFirst.empty() ? Columns : ColumnsFirst + ", " + Columns) + ");");
      P.Actuals += ", " + Local + ".rows()";
      continue;
    }
    if (Copied) {
      Reads.push_back(Type + " " + Local + " = dp::borrow_read(" + Memory + ", " + Elements);
    } else {
      P.Borrows.push_back(Type + " " + Local + " = dp::borrow(" + Memory + ", " + Elements + ");");
      if (A.Written)
        WrittenLocals += ", " + Local;
    }
    P.Actuals += ", " + Local;
  }
  for (std::string &R : Reads)
    P.Borrows.push_back(R + WrittenLocals + ");");
  for (const ScalarUse &S : M.Scalars)
    if (S.Role == ScalarRole::HelperTable)
      P.Tables.push_back(helperTableDeclarator(S.Var, Ctx, /*Reference=*/false) + "; std::memcpy(" +
                         S.Var->getName().str() + ", " + qualifiedCallName(S.Var) + ", sizeof " +
                         S.Var->getName().str() + ");");
  for (const ScalarUse &S : M.Scalars)
    if (S.Role == ScalarRole::CopiedParameter) {
      const std::string N = S.Var->getName().str(), From = unusedName("dp_" + N, In.Body);
      const QualType Element = cast<ParmVarDecl>(S.Var)->getOriginalType()->castAsArrayTypeUnsafe()->getElementType();
      P.Copies.push_back("const auto " + From + " = " + N + ";");
      P.Copies.push_back(printType(Element.getUnqualifiedType(), Ctx) + " " + N + "[" + S.Extents.front() +
                         "]; std::memcpy(" + N + ", " + From + ", sizeof " + N + ");");
    }
  for (const ScalarUse &S : M.Scalars)
    if (S.Role == ScalarRole::Parameter || S.Role == ScalarRole::FirstPrivate) {
      P.Formals += ", " + valueType(S, Ctx) + " " + kernelName(S.Var);
      P.Actuals += ", " + S.Var->getName().str();
    }
  return P;
}

/// The kernel's first lines: the loop variables from the index, the
/// private scalars, the reductions' starting values.
std::string prologue(const LoopModel &M, const RenderInput &In, const std::string &Indent,
                     const ASTContext &Ctx) {
  std::string S;
  // A triangle's index values count from 0: the outer level's first value
  // is added back to both, and one more to the index a strict triangle
  // shifts (the inner of an upper one, the outer of a lower one).
  for (size_t K = 0; K < M.Levels.size(); ++K) {
    std::string Offset;
    if (M.Domain != LoopModel::Shape::Grid) {
      const LoopLevel &First = M.Levels.front();
      const bool Shifted = M.Strict && (K == 1) == (M.Domain == LoopModel::Shape::UpperTriangle);
      if (!First.LowerIsZero)
        Offset = " + " + (Shifted ? plusOne(parenthesised(First.Lower), 1) : parenthesised(First.Lower));
      else if (Shifted)
        Offset = " + 1";
    }
    S += Indent + "const " + M.Levels[K].Type + " " + M.Levels[K].Name + " = " + In.IndexName + "[" +
         std::to_string(K) + "]" + Offset + ";\n";
  }
  for (const ScalarUse &U : M.Scalars) {
    if (U.Role != ScalarRole::Private && U.Role != ScalarRole::Table)
      continue;
    if (U.Extents.empty()) { // a private scalar
      S += Indent + valueType(U, Ctx) + " " + U.Var->getName().str() + ";\n";
      continue;
    }
    // A private C array, or a constant table with its values: the kernel's own.
    const bool Table = U.Role == ScalarRole::Table;
    S += Indent + (Table ? "const " : "") + valueType(Ctx.getBaseElementType(U.Var->getType()), Ctx) + " " +
         U.Var->getName().str();
    for (const std::string &E : U.Extents)
      S += "[" + E + "]";
    S += (Table ? " = " + U.Values : std::string()) + ";\n";
  }
  for (const Reduction &R : M.Reductions) {
    S += Indent + valueType(R.Type, Ctx) + " " + R.Name + " = " + identityText(R.Op, R.Type, Ctx) + ";\n";
    for (const VarDecl *V : R.Companions)
      S += Indent + valueType(V->getType(), Ctx) + " " + V->getName().str() + "{};\n";
    if (R.located())
      for (const std::string &F : locatedFields(M, R))
        S += Indent + "std::int64_t " + F + " = " + NothingSet + ";\n";
  }
  return S;
}

/// Lines shifted so that the least indented starts at Indent (only
/// leading blanks change; a line indented less than the rest is kept).
/// With FirstFree the first line (which began mid-line in the source)
/// is not measured, only indented.
std::string reindent(const std::string &Text, const std::string &Indent, bool FirstFree) {
  std::vector<std::string> Lines;
  size_t At = 0;
  while (At < Text.size()) {
    size_t E = Text.find('\n', At);
    E = E == std::string::npos ? Text.size() : E + 1;
    Lines.push_back(Text.substr(At, E - At));
    At = E;
  }
  size_t Least = std::string::npos;
  for (size_t I = FirstFree ? 1 : 0; I < Lines.size(); ++I) {
    const size_t First = Lines[I].find_first_not_of(" \t");
    if (First != std::string::npos && Lines[I][First] != '\n')
      Least = std::min(Least, First);
  }
  std::string Out;
  for (size_t I = 0; I < Lines.size(); ++I) {
    const std::string &L = Lines[I];
    const size_t First = L.find_first_not_of(" \t");
    if (I == 0 && FirstFree)
      Out += Indent + L;
    else if (First == std::string::npos || L[First] == '\n' || Least == std::string::npos || First < Least)
      Out += L;
    else
      Out += Indent + L.substr(Least);
  }
  return Out;
}

/// The user's body inside the kernel, re-indented under the kernel's
/// first lines; `continue` becomes leaving a do-while(false) around it.
std::string bodyText(const LoopModel &M, const RenderInput &In, const std::string &Indent) {
  const std::string Inner = M.ContinuesEarly ? Indent + "  " : Indent;
  std::string B = In.Body;
  const size_t First = B.find_first_not_of(" \t");
  bool MidLine = false;
  if (First != std::string::npos && B[First] == '\n') {
    B.erase(0, First + 1); // the body starts on a line of its own
  } else if (First != std::string::npos && !In.BodyStartsLine) {
    B.erase(0, First); // `for (...) stmt;`, or `{ stmt;` on the loop's line
    MidLine = true;
  }
  while (!B.empty() && (B.back() == ' ' || B.back() == '\t'))
    B.pop_back();
  if (!B.empty() && B.back() != '\n')
    B += "\n";
  B = reindent(B, Inner, MidLine);
  if (M.ContinuesEarly)
    return Indent + "do { // a `continue` leaves this iteration\n" + B + Indent + "} while (false);\n";
  return B;
}


/// The threads of a group no device takes more of (dp::group_size).
constexpr std::int64_t MaxGroupSize = 1024;

/// A launch hint (num_teams, thread_limit, num_gangs, vector_length) as
/// dp takes it, at least 1 and at most Most. The directives leave other
/// values to the implementation, which ignores or caps them (num_teams(0)
/// from `size / 128` on a small input; thread_limit(2048)); dp's hints
/// outside that range are a dp::error. A constant is brought into range
/// here, an expression where it runs.
std::string launchHint(const std::string &Value, std::optional<std::int64_t> Most) {
  if (!Value.empty() && Value.size() < 18 && std::all_of(Value.begin(), Value.end(), ::isdigit)) {
    std::int64_t V = std::max<std::int64_t>(std::stoll(Value), 1);
    return std::to_string(Most ? std::min(V, *Most) : V);
  }
  if (Most)
    return "std::clamp<std::int64_t>(" + Value + ", 1, " + std::to_string(*Most) + ")";
  return "std::max<std::int64_t>(" + Value + ", 1)";
}

} // namespace

bool usesQueue(const LoopModel &M) {
  return M.Pragma && (M.Pragma->clause("async") || (M.Pragma->Model == PragmaModel::OpenMP &&
                                                     M.Pragma->clause("nowait")));
}

const char *triangleName(const LoopModel &M) {
  return M.Domain == LoopModel::Shape::UpperTriangle ? "upper_triangle" : "lower_triangle";
}

std::string gridText(const LoopModel &M) {
  if (M.Domain != LoopModel::Shape::Grid) {
    // The square's order: the outer level's count, one less for a strict
    // triangle; when that may be negative (the loops then run nothing),
    // no less than 0.
    const LoopLevel &L = M.Levels.front();
    const std::string Hi = L.Cmp == Comparison::LessEqual ? plusOne(L.Upper, 1) : L.Upper;
    std::string Order = L.LowerIsZero ? Hi : Hi + " - " + parenthesised(L.Lower);
    if (M.Strict)
      Order = plusOne(Order, -1);
    if (M.Strict || !L.LowerIsZero)
      Order = "std::max<std::int64_t>(" + Order + ", 0)";
    return std::string("dp::") + triangleName(M) + "(" + Order + ")";
  }
  std::string G = "dp::grid<" + std::to_string(M.rank()) + ">(";
  for (size_t K = 0; K < M.Levels.size(); ++K)
    G += (K ? ", " : "") + sequenceText(M.Levels[K]);
  return G + ")";
}

std::string optionsText(const LoopModel &M) {
  if (!M.Pragma)
    return "";
  const Directive &D = *M.Pragma;
  std::vector<std::string> Parts; // free function first, then members
  auto Arg = [&](const char *Name) -> std::string {
    const Clause *C = D.clause(Name);
    return C && C->HasArgs ? C->Args : std::string();
  };
  if (usesQueue(M))
    Parts.push_back("on(" + queueText(Arg("async")) + ")");
  if (std::string If = Arg("if"); !If.empty())
    Parts.push_back("when(" + If + ")");
  std::string Threads = Arg("vector_length");
  if (Threads.empty())
    Threads = Arg("thread_limit");
  if (!Threads.empty())
    Parts.push_back("group_size(" + launchHint(Threads, MaxGroupSize) + ")");
  std::string Groups = Arg("num_gangs");
  if (Groups.empty())
    Groups = Arg("num_teams");
  if (!Groups.empty())
    Parts.push_back("max_groups(" + launchHint(Groups, std::nullopt) + ")");
  return optionsArgument(Parts);
}

std::string optionsArgument(const std::vector<std::string> &Parts) {
  if (Parts.empty())
    return "";
  std::string S = "dp::" + Parts[0];
  for (size_t I = 1; I < Parts.size(); ++I)
    S += "." + Parts[I];
  return S + ", ";
}

std::string locatedNoteText(const LoopModel &M, const Reduction &R) {
  const std::vector<std::string> Fields = locatedFields(M, R);
  std::string S;
  for (size_t K = 0; K < Fields.size(); ++K) {
    // The smaller key wins a tie: the earlier iteration, or where the
    // last of equal values wins, the later one.
    const bool Reversed = (M.Levels[K].Step < 0) != R.LastWins;
    S += (K ? " " : "") + Fields[K] + " = " + (Reversed ? "~" : "") + "std::int64_t(" + M.Levels[K].Name +
         ");";
  }
  return S;
}

std::string renderResultStruct(const LoopModel &M, const std::string &Name, const ASTContext &Ctx) {
  std::string S = "/// The partial values of the reductions of the loop migrated below.\nstruct " + Name +
                  " {\n";
  for (const Reduction &R : M.Reductions) {
    S += "  " + valueType(R.Type, Ctx) + " " + R.Name + ";\n";
    for (const VarDecl *V : R.Companions)
      S += "  " + valueType(V->getType(), Ctx) + " " + V->getName().str() + ";\n";
    if (R.located())
      for (const std::string &F : locatedFields(M, R))
        S += "  std::int64_t " + F + "; ///< the iteration that set " + R.Name + "\n";
  }
  return S + "};\n\n";
}

std::optional<std::vector<std::string>> hoistableBorrows(const LoopModel &M, const std::string &Body,
                                                         const ArrayData &Arrays, const ASTContext &Ctx) {
  for (const ArrayUse &A : M.Arrays)
    if (!A.Borrowed.empty() && (!A.BorrowedFirst.empty() || !A.BorrowedWhen.empty() ||
                                !A.BorrowedColumns.empty() || !Ctx.getAsConstantArrayType(A.Var->getType())))
      return std::nullopt;
  for (const Reduction &R : M.Reductions)
    if (R.Array)
      return std::nullopt;
  RenderInput In;
  In.Body = Body;
  const Parameters P = parametersOf(M, In, Arrays, Ctx);
  if (P.Borrows.empty() || !P.Tables.empty() || !P.Copies.empty() || !P.Apart.empty())
    return std::nullopt;
  return P.Borrows;
}

std::string renderCallSite(const LoopModel &M, const RenderInput &In, const ArrayData &Arrays,
                           const ASTContext &Ctx, const std::vector<std::string> *Hoisted) {
  Parameters P = parametersOf(M, In, Arrays, Ctx);
  if (Hoisted && P.Borrows == *Hoisted)
    P.Borrows.clear(); // a block around the serial loops holding the call-site made them
  const std::string Lambda = "[=](dp::index<" + std::to_string(M.rank()) + "> " + In.IndexName + P.Formals +
                             ")";
  const std::string &I = In.Indent;
  // Borrowed memory: the block's end writes the results back to it.
  std::string Borrows;
  if (!P.Borrows.empty()) {
    const bool Writes = std::any_of(M.Arrays.begin(), M.Arrays.end(),
                                    [](const ArrayUse &A) { return !A.Borrowed.empty() && A.Written; });
    Borrows = I + (Writes ? "  // pointers borrowed for this call-site: what the loop wrote is there at the '}'\n"
                          : "  // pointers borrowed for this call-site\n");
  }
  for (const std::string &B : P.Borrows)
    Borrows += I + "  " + B + "\n";
  if (!P.Tables.empty())
    Borrows += I + "  // the tables its helpers read: the kernel's copies, taken now\n";
  for (const std::string &T : P.Tables)
    Borrows += I + "  " + T + "\n";
  if (!P.Copies.empty())
    Borrows += I + "  // the array parameters it reads: the kernel's copies, taken now\n";
  for (const std::string &C : P.Copies)
    Borrows += I + "  " + C + "\n";
  if (!P.Apart.empty())
    Borrows += I + "  // a caller may pass one array as both: the loop then reads a copy\n";
  for (const std::string &B : P.Apart)
    Borrows += I + "  " + B + "\n";
  if (!M.reduces()) {
    const std::string J = Borrows.empty() ? I : I + "  ";
    const std::string CallSite = J + "dp::forall(" + optionsText(M) + gridText(M) + ", " + Lambda + " {\n" +
                                 prologue(M, In, J + "  ", Ctx) + bodyText(M, In, J + "  ") + J + "}" +
                                 P.Actuals + ");\n";
    return Borrows.empty() ? CallSite : I + "{\n" + Borrows + CallSite + I + "}\n";
  }
  // A reduction: a dp::scalar starts from the variable's value, the
  // kernel from the operator's identity, and the result goes back.
  const std::string Inner = I + "  ";
  std::string S = I + "{\n" + Borrows;
  std::string Op, Result, Returned, Back;
  if (!reducesToStruct(M)) {
    const Reduction &R = M.Reductions.front();
    const std::string T = valueType(R.Type, Ctx);
    Result = "dp_" + R.Name;
    S += Inner + "dp::scalar<" + T + "> " + Result + "(" + R.Host + ");\n";
    Op = operatorText(R, T);
    Returned = R.Name;
    Back = Inner + R.Host + " = " + Result + ".get();\n";
  } else {
    const std::string &T = In.ResultType;
    Result = "dp_result";
    std::string Init, Partial, Combine, Picks;
    auto Add = [](std::string &To, const std::string &Part) { To += (To.empty() ? "" : ", ") + Part; };
    for (const Reduction &R : M.Reductions) {
      Add(Init, R.Host);
      Add(Partial, R.Name);
      Back += Inner + R.Host + " = " + Result + ".get()." + R.Name + ";\n";
      if (!R.located()) {
        Add(Combine, combineText(R, "a." + R.Name, "b." + R.Name));
        continue;
      }
      // An arg max: b's value with its variables when b's value wins, or
      // ties and b's iteration comes first (last, for `>=`).
      const std::vector<std::string> Fields = locatedFields(M, R);
      std::string Earlier;
      for (size_t K = Fields.size(); K-- > 0;) {
        const std::string Less = "b." + Fields[K] + " < a." + Fields[K];
        Earlier = Earlier.empty() ? Less : "(b." + Fields[K] + " != a." + Fields[K] + " ? " + Less + " : " +
                                               Earlier + ")";
      }
      const std::string Wins = R.Op == ReductionOp::Max ? "b." + R.Name + " > a." + R.Name
                                                        : "b." + R.Name + " < a." + R.Name;
      const std::string Pick = "b_" + R.Name;
      Picks += "const bool " + Pick + " = " + Wins + " || (b." + R.Name + " == a." + R.Name + " && " + Earlier +
               "); ";
      std::vector<std::string> Members{R.Name};
      for (const VarDecl *V : R.Companions) {
        Members.push_back(V->getName().str());
        Add(Init, V->getName().str());
        Add(Partial, V->getName().str());
        Back += Inner + V->getName().str() + " = " + Result + ".get()." + V->getName().str() + ";\n";
      }
      for (const std::string &F : Fields) {
        Members.push_back(F);
        Add(Init, locatedBefore(R));
        Add(Partial, F);
      }
      for (const std::string &X : Members)
        Add(Combine, Pick + " ? b." + X + " : a." + X);
    }
    S += Inner + "dp::scalar<" + T + "> " + Result + "(" + T + "{" + Init + "});\n";
    Op = "[](" + T + " a, " + T + " b) { " + Picks + "return " + T + "{" + Combine + "}; }";
    Returned = T + "{" + Partial + "}";
  }
  S += Inner + "dp::reduce(" + optionsText(M) + gridText(M) + ", " + Op + ", " + Result + ", " + Lambda +
       " {\n" + prologue(M, In, Inner + "  ", Ctx) + bodyText(M, In, Inner + "  ") + Inner + "  return " +
       Returned + ";\n" + Inner + "}" + P.Actuals + ");\n" + Back + I + "}\n";
  return S;
}

} // namespace dpstub::migrate
