//===- LoopModel.h - A candidate loop, as analysis leaves it ----*- C++ -*-===//
//
// Migration's model of one candidate loop nest: its levels (the induction
// variables that become the grid), the variables its body uses from
// outside (captured, passed in, private, reduced), the arrays it reads
// and writes, and the dependence model of its subscripts. Analysis
// (LoopAnalysis.cpp) fills it; the renderer (Render.cpp) and --list read
// only it. A loop that cannot be converted carries its refusal instead: a
// diagnostic of Diagnostics.def, where it points and its arguments.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/Dependence.h"
#include "migrate/Pragmas.h"

#include "dpstub/Diagnostics.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// Why a loop stays a loop: a Reporter method (one entry of
/// Diagnostics.def), where it points and what it streams.
struct Refusal {
  clang::DiagnosticBuilder (Reporter::*Report)(clang::SourceLocation) = nullptr;
  clang::SourceLocation Loc;
  std::vector<std::string> Args;
  /// For a dependence: the other access, shown in a note.
  clang::SourceLocation OtherAccess;
  /// Notes said after it (their own OtherAccess and Notes unused).
  std::vector<Refusal> Notes;
  explicit operator bool() const { return Report != nullptr; }
};

/// The loop's iterations must run in order (a proven dependence, or an
/// element the loop reduces into that another of its accesses may read):
/// a directive that called it parallel was wrong, and the loop may run in
/// order on the host instead.
inline bool refusedForOrder(const Refusal &R) {
  return R.Report == &Reporter::migrateDependence || R.Report == &Reporter::migrateReductionUse;
}

/// How the loop's condition compares its variable with the bound.
enum class Comparison { Less, LessEqual, Greater, GreaterEqual, NotEqual };

/// A loop's step: its value, and the name it has in the user's text when
/// a local that keeps its constant first value gives it (`i += tile`).
struct LoopStep {
  std::int64_t Value = 1;
  std::string Text;
  /// A step known only when the loop runs (`it += tile_size`, the tile
  /// read from the command line): an expression of variables the loop
  /// does not change. Value is then its sign as written (+1 for `+=`,
  /// -1 for `-=`), and Text its text.
  const clang::Expr *RunTime = nullptr;
};

/// One level of the nest: `for (T i = Lower; i < Upper; i += Step)`.
struct LoopLevel {
  const clang::ForStmt *For = nullptr;
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *LowerExpr = nullptr, *UpperExpr = nullptr;
  bool DeclaredInLoop = true;  ///< `for (int i = ...`, not `for (i = ...`
  std::string Name, Type;      ///< "i", "int"
  std::string Lower, Upper;    ///< the user's text of the first value and the bound
  Comparison Cmp = Comparison::Less;
  std::int64_t Step = 1;        ///< with RunTimeStep: its sign, +1 or -1
  std::string StepText;         ///< the step by name, when a kept constant gives it ("tile")
  /// The step, when only the run gives its value (LoopStep::RunTime):
  /// Step is then the sign it runs with, never its size, so a step of
  /// one is `Step == 1 && !RunTimeStep` (unitStep).
  const clang::Expr *RunTimeStep = nullptr;
  bool LowerIsZero = false;     ///< the first value is the constant 0
  bool UpperNonNegative = false;///< the bound is unsigned or a constant >= 0
};

/// The level steps by exactly one, up (Sign 1) or down (Sign -1).
inline bool unitStep(const LoopLevel &L, std::int64_t Sign = 1) { return L.Step == Sign && !L.RunTimeStep; }

/// How the kernel receives a variable the loop uses from outside it.
enum class ScalarRole {
  Captured,     ///< read only, a local: the lambda's [=]
  Parameter,    ///< read only, a namespace-scope or static variable: a kernel parameter
  Private,      ///< written before it is read in every iteration: declared in the kernel
  FirstPrivate, ///< starts from the value outside (firstprivate): a by-value kernel parameter
  Table,        ///< a constant C array of namespace scope or static: declared in the kernel with its values
  /// a small table of numbers of static storage that the kernel's helpers
  /// read (isHelperTable): the call-site copies it into a local array of
  /// its name, which the lambda's [=] copies, and the kernel passes it on
  HelperTable,
  /// a small array parameter declared with its extent that the loop reads
  /// only at constant subscripts inside it (`int d[3]`; LoopAnalysis'
  /// copiedParameter): the call-site copies it into a local array of its
  /// name, which the lambda's [=] copies
  CopiedParameter,
};

/// A scalar from outside the loop and its role.
struct ScalarUse {
  const clang::VarDecl *Var = nullptr;
  ScalarRole Role = ScalarRole::Captured;
  /// An offset pointer (OffsetPointer.h): the kernel holds its offset, a
  /// std::int64_t, not the pointer.
  bool Offset = false;
  /// A private C array's or a table's extents, outermost first, as written
  /// (`NUM_VARS` of `double vals[NUM_VARS]`); empty for others.
  std::vector<std::string> Extents{};
  /// A table's values as the user wrote them (`{0.25, 0.5, 0.25}`).
  std::string Values{};
};

/// The operators of reductions.
enum class ReductionOp { Sum, Product, Max, Min, BitAnd, BitOr, BitXor, LogicalAnd, LogicalOr };

/// What the loop reduces into: a variable, or one element of an array
/// whose subscripts the loop does not change (`x[i]` in a loop over j).
struct Reduction {
  const clang::VarDecl *Var = nullptr; ///< null for an element
  ReductionOp Op = ReductionOp::Sum;
  /// The function the user's update calls (`fmax`, `std::max`), which
  /// then also combines the partial values; empty for the operator's own.
  std::string Function;
  clang::QualType Type;                ///< of the value
  std::string Name;                    ///< the kernel's partial value: the variable's name, or `x_i`
  /// An element: its every mention in the body (the kernel's partial value
  /// replaces each), and its text on the host, where the result goes
  /// (rewritten: `x(i)`; filled when the call-site is rendered).
  std::vector<const clang::Expr *> Element;
  std::string Host;
  const clang::VarDecl *Array = nullptr; ///< an element's array
  /// An arg max or arg min (`if (e > s) { s = e; k = i; }`): the variables
  /// set with the value where it changes (`k`), which go with it; whether
  /// of equal values the last wins (`>=`, `<=`) or the first (`>`, `<`);
  /// and the block that sets them, after whose last statement the kernel
  /// notes the iteration that did (`dp_s_at = i;`).
  std::vector<const clang::VarDecl *> Companions;
  bool LastWins = false;
  const clang::CompoundStmt *Sets = nullptr;

  bool located() const { return !Companions.empty(); }

  static Reduction of(const clang::VarDecl *V, ReductionOp Op, std::string Function = "") {
    Reduction R;
    R.Var = V;
    R.Op = Op;
    R.Function = std::move(Function);
    R.Type = V->getType().getNonReferenceType(); // a reference's value
    R.Name = R.Host = V->getName().str();
    return R;
  }
};

/// An atomic update of an element other iterations may update too
/// (`#pragma omp atomic` over `hist[key[i]]++`, a histogram's bin; under
/// `omp critical` or `omp atomic compare`, `if (v > peak[k]) peak[k] =
/// v`): the kernel calls dp::atomic_add, dp::atomic_max, ... (atomicName).
struct AtomicUpdate {
  const clang::Stmt *Update = nullptr; ///< `hist[k]++`, `hist[k] += w`, `if (v > m[k]) m[k] = v`
  const clang::Expr *Place = nullptr;  ///< `hist[k]`: the mention assigned
  const clang::Expr *Value = nullptr;  ///< `w`; null for `++` and `--`
  bool Negated = false;                ///< `--`, `-=`, `x = x - e`
  ReductionOp Op = ReductionOp::Sum;
  /// Every mention of the element in the update (the compared one of
  /// `if (v > m[k])` too): none is an access of its own.
  std::vector<const clang::Expr *> Mentions;
  std::string Construct;               ///< "omp atomic"
};

/// The dp function making Op's atomic update: "atomic_add", ...; empty
/// for an operator no dp atomic makes (`&&`, `||`).
inline const char *atomicName(ReductionOp Op) {
  switch (Op) {
  case ReductionOp::Sum: return "atomic_add";
  case ReductionOp::Product: return "atomic_mul";
  case ReductionOp::Max: return "atomic_max";
  case ReductionOp::Min: return "atomic_min";
  case ReductionOp::BitAnd: return "atomic_and";
  case ReductionOp::BitOr: return "atomic_or";
  case ReductionOp::BitXor: return "atomic_xor";
  default: return "";
  }
}

/// An array the loop touches.
struct ArrayUse {
  const clang::VarDecl *Var = nullptr;
  bool Written = false;
  /// Memory from callers dpstub cannot see (an external function's pointer
  /// parameter), which stays a pointer: the call-site borrows this many
  /// elements of it (dp::borrow, the count from the directive's data
  /// clause), its accesses in the loop become element accesses. Empty:
  /// the array is a dp::field.
  std::string Borrowed;
  /// A window (accessWindow): the first element borrowed, where the
  /// loop's accesses start; Borrowed is then where they end (one past the
  /// last). Empty: from the first element.
  std::string BorrowedFirst;
  /// Where the window's bounds hold (the loop touches the array at all);
  /// elsewhere it is empty. Empty: always.
  std::string BorrowedWhen;
  /// An array of rows (ArrayVar::Rows): where in each row the call-site's
  /// borrow (dp::borrowed_rows) ends, and starts (empty: at 0), and where
  /// those bounds hold (empty: always); Borrowed and BorrowedFirst are
  /// then the rows'.
  std::string BorrowedColumns, BorrowedColumnsFirst, BorrowedColumnsWhen;
  /// An array of arrays of rows (ArrayVar::Rows, rank 3): the same for
  /// the rows of each plane (Borrowed and BorrowedFirst are the planes').
  std::string BorrowedRows, BorrowedRowsFirst, BorrowedRowsWhen;
  /// A std::vector member of the object borrowed in a const member
  /// function: its data() gives const elements, so the borrow's are.
  bool ConstObject = false;
};

/// Where a candidate came from: a loop directive; a loop of a device
/// region without one (`acc kernels`, `acc serial`, `omp target`), which
/// dpstub converts only where it proves the iterations independent; a
/// plain loop the user chose.
enum class Origin { Pragma, DeviceRegion, Plain };

/// One candidate loop nest.
struct LoopModel {
  const clang::ForStmt *Outer = nullptr;
  Origin From = Origin::Plain;
  std::optional<Directive> Pragma;       ///< the loop's own directive
  clang::SourceRange PragmaRange;        ///< its line(s), with the newline
  /// The nested `acc loop` / `omp simd` directives of the levels below
  /// the first, which go with the loop.
  std::vector<clang::SourceRange> InnerPragmas;
  std::string Construct;                 ///< "omp parallel for", "plain loop", ...
  std::vector<LoopLevel> Levels;
  const clang::Stmt *Body = nullptr;     ///< the innermost level's body
  std::vector<ScalarUse> Scalars;
  std::vector<Reduction> Reductions;
  std::vector<ArrayUse> Arrays;
  std::vector<AtomicUpdate> AtomicUpdates;
  /// Parameters of helpers the loop hands an array of its own
  /// (ScalarRole::Private) to, which only write it
  /// (WriteOnlyParameters.h): they must stay pointers, so no dp::field
  /// may be handed to them.
  std::vector<const clang::ParmVarDecl *> OwnArrayParameters;
  bool ContinuesEarly = false;           ///< a `continue` of the innermost level
  /// Helpers the kernel calls that read namespace-scope variables (which
  /// then take them as parameters), and those calls.
  std::set<const clang::FunctionDecl *> Helpers;
  std::vector<const clang::CallExpr *> HelperCalls;
  Nest Dependences;                      ///< the subscripts, for the dependence test
  /// The locations of Dependences' accesses (by Access::Id).
  std::vector<clang::SourceLocation> AccessLocs;
  Refusal Refused;                       ///< set when the loop stays a loop
  /// Notes said after the remark of a converted loop (a race of the
  /// original's that the call-site resolves).
  std::vector<Refusal> Notes;
  /// Refused for a proven dependence under a directive that called it
  /// parallel: it may run in order on the host instead, its directive
  /// gone, while the loops inside it are judged on their own.
  bool RunsInOrder = false;
  /// RunsInOrder, and its region moved (or, alone, a loop inside it did):
  /// the directive goes.
  bool DropsDirective = false;
  /// RunsInOrder, with loops inside it that became call-sites.
  bool AroundCallSites = false;
  /// It stays under a device directive while arrays it uses became
  /// dp::fields, which no device construct maps: the directive goes and
  /// the loop runs in order on the host. Those arrays, for the note
  /// saying so; empty otherwise.
  std::vector<std::string> FieldsOnHost;

  /// A collapse(2) whose inner bound is the outer variable: its points
  /// are a triangle of the square (j, i), launched as dp::upper_triangle
  /// (`i = j .. n`) or dp::lower_triangle (`i = 0 ..= j`).
  enum class Shape { Grid, UpperTriangle, LowerTriangle } Domain = Shape::Grid;
  /// The triangle leaves out the diagonal (`i = j + 1 .. n`, `i = 0 .. j`):
  /// it is dp's triangle of a square one smaller, the inner index (upper)
  /// or the outer one (lower) shifted by one.
  bool Strict = false;

  int rank() const { return static_cast<int>(Levels.size()); }
  bool reduces() const { return !Reductions.empty(); }
};

/// "dp::forall", "dp::reduce".
inline const char *callSiteKind(const LoopModel &M) { return M.reduces() ? "reduce" : "forall"; }

/// The loop reduces into a struct of partial values (several reductions,
/// or a value with the variables that go with it), not into one scalar.
inline bool reducesToStruct(const LoopModel &M) {
  return M.Reductions.size() > 1 || (M.reduces() && M.Reductions.front().located());
}

} // namespace dpstub::migrate
