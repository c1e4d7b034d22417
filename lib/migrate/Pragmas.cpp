//===- Pragmas.cpp - OpenMP and OpenACC directives as values --------------===//

#include "Pragmas.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace dpstub::migrate {

namespace {

std::string trim(const std::string &S) {
  size_t B = 0, E = S.size();
  while (B < E && std::isspace(static_cast<unsigned char>(S[B])))
    ++B;
  while (E > B && std::isspace(static_cast<unsigned char>(S[E - 1])))
    --E;
  return S.substr(B, E - B);
}

bool isWordChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

/// The words that make up constructs (the rest of a directive is clauses).
bool isConstructWord(PragmaModel M, const std::string &W) {
  static const char *Omp[] = {"parallel", "for",    "simd",  "target", "teams", "distribute",
                              "loop",     "data",   "enter", "exit",   "update", "taskwait",
                              "declare",  "end",    "critical", "atomic", "barrier", "single",
                              "master",   "masked", "task",  "taskloop", "sections", "section",
                              "ordered",  "flush",  "threadprivate", "requires", "scope"};
  static const char *Acc[] = {"parallel", "kernels", "serial", "loop",    "data",  "enter",
                              "exit",     "update",  "wait",   "routine", "declare", "host_data",
                              "atomic",   "cache",   "init",   "shutdown", "set"};
  if (M == PragmaModel::OpenMP) {
    for (const char *C : Omp)
      if (W == C)
        return true;
  } else {
    for (const char *C : Acc)
      if (W == C)
        return true;
  }
  return false;
}

DirectiveKind classify(const Directive &D) {
  const auto Has = [&](const char *W) { return D.has(W); };
  // `atomic update` updates a variable, not a device's data.
  if (Has("atomic"))
    return DirectiveKind::Other;
  if (D.Model == PragmaModel::OpenMP) {
    if (Has("declare") || Has("end"))
      return DirectiveKind::Routine;
    if (Has("enter") || Has("exit"))
      return DirectiveKind::EnterExit;
    if (Has("update"))
      return DirectiveKind::Update;
    if (Has("taskwait"))
      return DirectiveKind::Wait;
    if (Has("data"))
      return DirectiveKind::Data;
    if (Has("for") || Has("distribute") || Has("loop") || Has("simd"))
      return Has("taskloop") ? DirectiveKind::Other : DirectiveKind::Loop;
    if ((Has("parallel") || Has("target") || Has("teams")) && D.Words.size() <= 3 &&
        !Has("sections") && !Has("task"))
      return DirectiveKind::Region;
    return DirectiveKind::Other;
  }
  if (Has("routine"))
    return DirectiveKind::Routine;
  if (Has("declare"))
    return DirectiveKind::Declare;
  if (Has("enter") || Has("exit"))
    return DirectiveKind::EnterExit;
  if (Has("update"))
    return DirectiveKind::Update;
  if (D.Words.size() == 1 && D.Words[0] == "wait")
    return DirectiveKind::Wait;
  if (Has("loop"))
    return DirectiveKind::Loop;
  if (Has("data") && D.Words.size() == 1)
    return DirectiveKind::Data;
  if (Has("parallel") || Has("kernels") || Has("serial"))
    return DirectiveKind::Region;
  return DirectiveKind::Other;
}

} // namespace

std::string Directive::construct() const {
  std::string S = Model == PragmaModel::OpenMP ? "omp" : "acc";
  for (const std::string &W : Words)
    S += " " + W;
  if (Words.empty() && !Clauses.empty()) // `critical(name)`: its parentheses made it a clause
    S += " " + Clauses.front().Name;
  return S;
}

const Clause *Directive::clause(const std::string &Name) const {
  for (const Clause &C : Clauses)
    if (C.Name == Name)
      return &C;
  return nullptr;
}

bool Directive::has(const std::string &W) const {
  for (const std::string &X : Words)
    if (X == W)
      return true;
  return false;
}

int Directive::collapse() const {
  const Clause *C = clause("collapse");
  if (!C)
    return 1;
  const std::string A = trim(C->Args);
  int N = 0;
  for (char Ch : A) {
    if (!std::isdigit(static_cast<unsigned char>(Ch)))
      return 0; // not a constant: the caller refuses it
    N = N * 10 + (Ch - '0');
    if (N > 64)
      return 0;
  }
  return N;
}

std::string dataKind(const std::string &Name) {
  if (Name == "copyin" || Name == "pcopyin" || Name == "present_or_copyin" || Name == "to")
    return "copyin";
  if (Name == "copy" || Name == "pcopy" || Name == "present_or_copy" || Name == "tofrom")
    return "copy";
  if (Name == "copyout" || Name == "pcopyout" || Name == "present_or_copyout" || Name == "from")
    return "copyout";
  if (Name == "create" || Name == "pcreate" || Name == "present_or_create" || Name == "alloc")
    return "create";
  if (Name == "present" || Name == "no_create" || Name == "release" || Name == "delete")
    return "";
  return "?";
}

bool runsOnDevice(const Directive &D) {
  if (D.Kind != DirectiveKind::Loop && D.Kind != DirectiveKind::Region)
    return false;
  if (D.Model == PragmaModel::OpenACC)
    return D.has("parallel") || D.has("kernels") || D.has("serial");
  return D.has("target");
}

std::optional<Directive> parseDirective(const std::string &Text) {
  Directive D;
  size_t P = 0;
  auto SkipSpace = [&] {
    while (P < Text.size() && (std::isspace(static_cast<unsigned char>(Text[P])) || Text[P] == ','))
      ++P;
  };
  auto Word = [&] {
    const size_t B = P;
    while (P < Text.size() && isWordChar(Text[P]))
      ++P;
    return Text.substr(B, P - B);
  };
  SkipSpace();
  const std::string Head = Word();
  if (Head == "omp")
    D.Model = PragmaModel::OpenMP;
  else if (Head == "acc")
    D.Model = PragmaModel::OpenACC;
  else
    return std::nullopt;
  // Construct words, then clauses: `name` or `name(...)` with balanced
  // parentheses. OpenACC's `wait(1)` directive takes its argument like a
  // clause; so does `omp declare target(...)`.
  bool InClauses = false;
  while (true) {
    SkipSpace();
    if (P >= Text.size())
      break;
    const size_t Start = P;
    std::string W = Word();
    if (W.empty()) { // punctuation we do not know: keep it as a clause
      D.Clauses.push_back({Text.substr(Start, 1), "", false});
      ++P;
      continue;
    }
    size_t Q = P;
    while (Q < Text.size() && std::isspace(static_cast<unsigned char>(Text[Q])))
      ++Q;
    const bool Paren = Q < Text.size() && Text[Q] == '(';
    // OpenACC's `wait(1, 2)` directive: the construct, its queues a clause.
    if (!InClauses && Paren && D.Model == PragmaModel::OpenACC && D.Words.empty() && W == "wait")
      D.Words.push_back(W);
    if (!InClauses && !Paren && isConstructWord(D.Model, W)) {
      D.Words.push_back(W);
      continue;
    }
    InClauses = true;
    Clause C;
    C.Name = W;
    if (Paren) {
      int Depth = 0;
      size_t R = Q;
      for (; R < Text.size(); ++R) {
        if (Text[R] == '(')
          ++Depth;
        else if (Text[R] == ')' && --Depth == 0)
          break;
      }
      C.HasArgs = true;
      C.Args = trim(Text.substr(Q + 1, R - Q - 1));
      P = R < Text.size() ? R + 1 : R;
    }
    D.Clauses.push_back(std::move(C));
  }
  D.Kind = classify(D);
  return D;
}

std::optional<ReductionClause> parseReduction(const std::string &Args) {
  const size_t Colon = Args.find(':');
  if (Colon == std::string::npos)
    return std::nullopt;
  ReductionClause R;
  R.Op = trim(Args.substr(0, Colon));
  // OpenMP 5's modifiers: `reduction(inscan, +: s)`.
  if (const size_t Comma = R.Op.rfind(','); Comma != std::string::npos)
    R.Op = trim(R.Op.substr(Comma + 1));
  R.Vars = clauseVariables(Args.substr(Colon + 1));
  if (R.Op.empty() || R.Vars.empty())
    return std::nullopt;
  return R;
}

/// A clause's name of a variable or a path, its blanks dropped (`m -> x`
/// is `m->x`, as MemberVars names it).
static std::string compactName(const std::string &N) {
  std::string Out;
  for (char C : N)
    if (!std::isspace(static_cast<unsigned char>(C)))
      Out += C;
  return Out;
}

std::vector<std::string> clauseVariables(const std::string &Args) {
  std::vector<std::string> Out;
  int Depth = 0;
  std::string Cur;
  auto Flush = [&] {
    // Sections (`b[0:n]`) were dropped as they came; `readonly: a` (OpenACC 3.3's modifier).
    std::string V = trim(Cur);
    if (const size_t C = V.rfind(':'); C != std::string::npos)
      V = trim(V.substr(C + 1));
    V = compactName(V);
    if (!V.empty())
      Out.push_back(V);
    Cur.clear();
  };
  for (char C : Args) {
    if (C == '[' || C == '(')
      ++Depth;
    else if (C == ']' || C == ')')
      --Depth;
    else if (C == ',' && Depth == 0)
      Flush();
    else if (Depth == 0)
      Cur += C;
  }
  Flush();
  return Out;
}

std::vector<Section> clauseSections(const std::string &Args) {
  std::vector<Section> Out;
  std::vector<std::string> Items(1);
  int Depth = 0;
  for (char C : Args) {
    if (C == '[' || C == '(')
      ++Depth;
    else if (C == ']' || C == ')')
      --Depth;
    if (C == ',' && Depth == 0)
      Items.emplace_back();
    else
      Items.back() += C;
  }
  for (const std::string &Item : Items) {
    const size_t Open = Item.find('[');
    if (Open == std::string::npos)
      continue;
    std::string Name = Item.substr(0, Open);
    if (const size_t Colon = Name.rfind(':'); Colon != std::string::npos)
      Name = Name.substr(Colon + 1); // `to: a[...]`, `readonly: a[...]`
    Name = compactName(Name);
    // The bracket's end, and its one colon outside parentheses.
    size_t Close = std::string::npos, Colon = std::string::npos;
    int Inner = 0;
    for (size_t K = Open + 1; K < Item.size() && Close == std::string::npos; ++K) {
      const char C = Item[K];
      if (C == '[' || C == '(')
        ++Inner;
      else if ((C == ']' || C == ')') && Inner > 0)
        --Inner;
      else if (C == ']')
        Close = K;
      else if (C == ':' && Inner == 0 && Colon == std::string::npos)
        Colon = K;
    }
    if (Name.empty() || Close == std::string::npos || Colon == std::string::npos ||
        !trim(Item.substr(Close + 1)).empty())
      continue; // not a section, or one of several dimensions
    Out.push_back({Name, trim(Item.substr(Open + 1, Colon - Open - 1)), trim(Item.substr(Colon + 1, Close - Colon - 1))});
  }
  return Out;
}

bool fromFirstElement(const Section &S) {
  return !S.Length.empty() && (S.Lower.empty() || S.Lower == "0");
}

std::optional<Section> dataSection(const Directive &D, const std::string &Var) {
  static const char *const DataClauses[] = {
      "map",     "copy",           "copyin",            "copyout",            "create",           "present",
      "pcopy",   "pcopyin",        "pcopyout",          "pcreate",            "present_or_copy",  "present_or_copyin",
      "no_create", "present_or_copyout", "present_or_create"};
  for (const Clause &C : D.Clauses) {
    if (std::find(std::begin(DataClauses), std::end(DataClauses), C.Name) == std::end(DataClauses))
      continue;
    for (const Section &S : clauseSections(C.Args))
      if (S.Var == Var && !S.Length.empty())
        return S;
  }
  return std::nullopt;
}

} // namespace dpstub::migrate
