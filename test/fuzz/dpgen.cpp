// dpgen: prints a random, valid, self-checking dp program.
//
//   dpgen SEED > program.cpp
//
// Each program holds a few cases. A case is one call-site (forall, reduce,
// reduce<Dim>, scan<Dim> or sort<Dim>) over a random compute grid of rank
// 1-4 (lower bounds, strides, descending strides, empty dimensions; a
// forall or full reduce sometimes over the grid cut in padded tiles), with
// arguments of every conversion: elemental and partial projections (read
// and write), broadcast fields and scalars, index tokens and the implicit
// index, through read_only, transpose and spread views. Kernels are
// lambdas, lambdas held in variables, functions, function objects and
// generic lambdas. Every result is computed again by plain loops over the
// underlying fields, with the views undone by index arithmetic, and
// compared element by element; the program prints a checksum per case and
// exits 1 on a mismatch. Data are integers: the untranslated build, the
// translated build and its dispatch emulation must agree bit for bit.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using i64 = std::int64_t;

/// The seeded source of every choice.
class Random {
public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  int below(int n) { return int(engine_() % std::uint64_t(n)); }
  int between(int lo, int hi) { return lo + below(hi - lo + 1); }
  bool chance(int percent) { return below(100) < percent; }
  template <class T> const T &pick(const std::vector<T> &v) { return v[size_t(below(int(v.size())))]; }

private:
  std::mt19937_64 engine_;
};

/// One dimension: the values lb + k*stride, 0 <= k < extent.
struct Seq {
  i64 lb = 0, extent = 0, stride = 1;
  i64 value(i64 k) const { return lb + k * stride; }
  i64 lo() const { return extent ? std::min(value(0), value(extent - 1)) : lb; }
  i64 hi() const { return extent ? std::max(value(0), value(extent - 1)) : lb; }
  std::string render() const {
    return "dp::arithmetic_sequence::from_extent(" + std::to_string(lb) + ", " +
           std::to_string(extent) + ", " + std::to_string(stride) + ")";
  }
};
using Grid = std::vector<Seq>;

std::string renderGrid(const Grid &g) {
  std::string s = "dp::grid<" + std::to_string(g.size()) + ">(";
  for (size_t d = 0; d < g.size(); ++d)
    s += (d ? ", " : "") + g[d].render();
  return s + ")";
}

/// A dimension holding every value of `s`, with room around it; its stride
/// divides s's, and may count down.
Seq covering(const Seq &s, Random &r) {
  const i64 step = r.chance(50) ? 1 : std::abs(s.stride);
  const i64 before = r.below(3), after = r.below(3);
  Seq c;
  const i64 lo = s.lo() - before * step, hi = s.hi() + after * step;
  c.extent = (hi - lo) / step + 1;
  // hi - lo is a multiple of step: from either end, every value of s is
  // one of c's.
  if (r.chance(30)) { // descending
    c.lb = hi;
    c.stride = -step;
  } else {
    c.lb = lo;
    c.stride = step;
  }
  return c;
}

/// A view applied to a base field: the actual the call-site passes.
struct View {
  enum Kind { None, Transpose, Spread } kind = None;
  int i = 0, j = 0; // transpose<i,j>, spread<i>
};

/// A field the program declares: its name, grid, element type and initial
/// pattern salt.
struct FieldDecl {
  std::string name;
  Grid grid;
  std::string type;
  int salt = 0;
};

/// One argument of a case, and how the kernel and the reference see it.
struct Arg {
  enum Kind { ElementRead, ElementWrite, PartialRead, PartialWrite, WholeRead, Scalar, Token } kind;
  std::string actual;  ///< the call-site expression
  std::string formal;  ///< the kernel parameter declaration
  std::string name;    ///< the kernel parameter's name
  std::string ref;     ///< the reference's expression for its value, in terms of v0..vN-1
  std::string base;    ///< the underlying field (for writes: compared afterwards)
  View view;
  int baseRank = 0;
  i64 leading = 0;     ///< partial projections: the 0-based leading extent
};

/// Renders a base index: the view's index (v0..vRc-1, possibly after a
/// leading partial coordinate) mapped back through the view.
std::vector<std::string> baseIndex(const View &v, int rc, const std::string &lead) {
  std::vector<std::string> idx;
  if (!lead.empty())
    idx.push_back(lead);
  for (int d = 0; d < rc; ++d)
    idx.push_back("v" + std::to_string(d));
  if (v.kind == View::Transpose)
    std::swap(idx[size_t(v.i)], idx[size_t(v.j)]);
  if (v.kind == View::Spread)
    idx.erase(idx.begin() + v.i);
  return idx;
}
std::string access(const std::string &field, const std::vector<std::string> &idx) {
  std::string s = field + "(";
  for (size_t k = 0; k < idx.size(); ++k)
    s += (k ? ", " : "") + idx[k];
  return s + ")";
}

class Generator {
public:
  Generator(std::uint64_t seed) : r_(seed), o_(seed ^ 0x9e3779b97f4a7c15ull), seed_(seed) {}

  std::string program() {
    const int cases = r_.between(3, 6);
    std::ostringstream body;
    for (int c = 0; c < cases; ++c)
      body << generateCase(c);
    std::ostringstream out;
    out << "// dpgen " << seed_ << ": a random dp program checked against plain loops.\n"
        << "#include <dp/dp.hpp>\n\n#include <algorithm>\n#include <cstdint>\n#include <cstdio>\n"
        << "#include <functional>\n#include <vector>\n\n"
        << "namespace {\n"
        << "int failures = 0;\n"
        << "/// The queues call-sites may be enqueued on.\n"
        << "dp::queue &queue_number(int k) {\n"
        << "  static dp::queue queues[2];\n"
        << "  return queues[k];\n"
        << "}\n"
        << "/// A pattern of small integers that depends on the index values.\n"
        << "template <int N, class T> void fill(dp::field<N, T> &f, int salt) {\n"
        << "  const dp::grid<N> g = f.get_grid();\n"
        << "  for (std::int64_t k = 0; k < g.size(); ++k) {\n"
        << "    const dp::index<N> i = g.map_index(k);\n"
        << "    long h = salt;\n"
        << "    for (int d = 0; d < N; ++d)\n"
        << "      h = h * 31 + i[d];\n"
        << "    f[i] = T((h % 19 + 19) % 19 - 9);\n"
        << "  }\n"
        << "}\n"
        << "template <int N, class T> unsigned long checksum(const dp::field<N, T> &f) {\n"
        << "  const dp::grid<N> g = f.get_grid();\n"
        << "  unsigned long s = 0;\n"
        << "  for (std::int64_t k = 0; k < g.size(); ++k)\n"
        << "    s = s * 1000003 + (unsigned long)(long)f[g.map_index(k)] + 7;\n"
        << "  return s;\n"
        << "}\n"
        << "/// Every element of got equals want's; prints the first difference.\n"
        << "template <int N, class T> void expect_equal(int c, const char *what, const dp::field<N, T> &got,\n"
        << "                                            const dp::field<N, T> &want) {\n"
        << "  const dp::grid<N> g = got.get_grid();\n"
        << "  for (std::int64_t k = 0; k < g.size(); ++k) {\n"
        << "    const dp::index<N> i = g.map_index(k);\n"
        << "    if (got[i] != want[i]) {\n"
        << "      std::printf(\"case %d: %s differs at flat %ld: %ld, expected %ld\\n\", c, what, long(k),\n"
        << "                  long(got[i]), long(want[i]));\n"
        << "      ++failures;\n"
        << "      return;\n"
        << "    }\n"
        << "  }\n"
        << "}\n"
        << "void expect_value(int c, long got, long want) {\n"
        << "  if (got != want) {\n"
        << "    std::printf(\"case %d: %ld, expected %ld\\n\", c, got, want);\n"
        << "    ++failures;\n"
        << "  }\n"
        << "}\n"
        << globals_.str() << "} // namespace\n\n"
        << "int main() {\n"
        << body.str() << "  std::printf(\"%d failures\\n\", failures);\n"
        << "  return failures ? 1 : 0;\n}\n";
    return out.str();
  }

private:
  Grid randomGrid(int rank) {
    Grid g;
    const bool empty = r_.chance(4);
    for (int d = 0; d < rank; ++d) {
      Seq s;
      s.extent = empty && d == rank - 1 ? 0 : r_.between(1, rank >= 3 ? 4 : 7);
      s.lb = r_.between(-3, 3);
      s.stride = r_.pick<i64>({1, 1, 1, 2, -1, -2});
      g.push_back(s);
    }
    return g;
  }
  /// The tile a forall or full reduce runs in: none (the grid itself), or
  /// (30%) random tile extents, padded where the grid's extents are not
  /// multiples; either way the kernel runs at exactly the grid's points.
  std::vector<i64> tilingOf(const Grid &g) {
    std::vector<i64> tile;
    if (r_.chance(30))
      for (size_t d = 0; d < g.size(); ++d)
        tile.push_back(r_.between(1, 5));
    return tile;
  }
  /// Execution options for a call-site, or nothing (drawn from their own
  /// stream, so the rest of a seed's program is as without them): a
  /// queue, when(), a group shape (not over tiles: their tile is their
  /// group) and max_groups small enough to force several launches.
  std::string options(bool tiled) {
    if (!o_.chance(40))
      return "";
    std::vector<std::string> parts;
    if (o_.chance(60))
      parts.push_back("on(queue_number(" + std::to_string(o_.below(2)) + "))");
    if (o_.chance(30))
      parts.push_back(o_.chance(50) ? "when(true)" : "when(false)");
    if (!tiled && o_.chance(40))
      parts.push_back("group_size(" + std::to_string(o_.pick(std::vector<int>{1, 32, 64, 256})) + ")");
    if (o_.chance(40))
      parts.push_back("max_groups(" + std::to_string(o_.between(1, 4)) + ")");
    if (parts.empty())
      parts.push_back("when(true)");
    std::string s = "dp::" + parts[0];
    for (size_t k = 1; k < parts.size(); ++k)
      s += "." + parts[k];
    return s + ", ";
  }

  std::string domainOf(const Grid &g, const std::vector<i64> &tile) {
    if (tile.empty())
      return renderGrid(g);
    std::string s = "dp::tile<";
    for (size_t d = 0; d < g.size(); ++d)
      s += (d ? ", " : "") + std::to_string(tile[d]);
    return s + ">(" + renderGrid(g) + ")";
  }
  Grid coveringGrid(const Grid &domain) {
    Grid g;
    for (const Seq &s : domain)
      g.push_back(covering(s, r_));
    return g;
  }

  std::string declare(const FieldDecl &f, std::ostringstream &out) {
    out << "    dp::field<" << f.grid.size() << ", " << f.type << "> " << f.name << "("
        << renderGrid(f.grid) << ");\n"
        << "    fill(" << f.name << ", " << f.salt << ");\n";
    return f.name;
  }

  /// A field argument of rank rc read or written elementally, through a
  /// random view.
  Arg elemental(int c, int k, const Grid &domain, bool write, std::ostringstream &decls) {
    const int rc = int(domain.size());
    Arg a;
    a.kind = write ? Arg::ElementWrite : Arg::ElementRead;
    const std::string t = "long";
    const int choice = r_.below(write ? 2 : 4);
    Grid baseGrid = coveringGrid(domain);
    std::string actual;
    if (choice == 1 && rc >= 2) {
      a.view.kind = View::Transpose;
      a.view.i = r_.below(rc);
      a.view.j = (a.view.i + 1 + r_.below(rc - 1)) % rc;
      std::swap(baseGrid[size_t(a.view.i)], baseGrid[size_t(a.view.j)]);
    } else if (choice == 2 && rc >= 2) {
      a.view.kind = View::Spread;
      a.view.i = r_.below(rc);
      baseGrid.erase(baseGrid.begin() + a.view.i);
    }
    a.base = "f" + std::to_string(c) + "_" + std::to_string(k);
    a.baseRank = int(baseGrid.size());
    declare(FieldDecl{a.base, baseGrid, t, r_.between(1, 999)}, decls);
    actual = a.base;
    if (a.view.kind == View::Transpose)
      actual = "dp::transpose<" + std::to_string(a.view.i) + ", " + std::to_string(a.view.j) + ">(" + actual + ")";
    if (a.view.kind == View::Spread)
      actual = "dp::spread<" + std::to_string(a.view.i) + ">(" + actual + ")";
    if (!write && choice == 3)
      actual = "dp::read_only(" + actual + ")";
    a.actual = actual;
    a.name = "a" + std::to_string(k);
    a.formal = write ? t + " &" + a.name : r_.chance(50) ? t + " " + a.name : "const " + t + " &" + a.name;
    a.ref = access(write ? "want_" + a.base : a.base, baseIndex(a.view, rc, ""));
    return a;
  }

  /// A rank Rc+1 field whose leading dimension (0-based) the kernel walks.
  Arg partial(int c, int k, const Grid &domain, bool write, std::ostringstream &decls) {
    const int rc = int(domain.size());
    Arg a;
    a.kind = write ? Arg::PartialWrite : Arg::PartialRead;
    a.leading = r_.between(1, 4);
    Grid baseGrid = coveringGrid(domain);
    baseGrid.insert(baseGrid.begin(), Seq{0, a.leading, 1});
    a.base = "f" + std::to_string(c) + "_" + std::to_string(k);
    a.baseRank = rc + 1;
    declare(FieldDecl{a.base, baseGrid, "long", r_.between(1, 999)}, decls);
    a.actual = a.base;
    a.name = "a" + std::to_string(k);
    a.formal = (write ? "dp::field<1, long> &" : "const dp::field<1, long> &") + a.name;
    std::vector<std::string> idx = baseIndex(View(), rc, "q");
    a.ref = access(write ? "want_" + a.base : a.base, idx);
    return a;
  }

  /// One case of each kind.
  std::string generateCase(int c) {
    const int kind = r_.below(10); // forall weighs more: it has every conversion
    if (kind < 4)
      return forallCase(c);
    if (kind < 6)
      return reduceCase(c);
    if (kind < 7)
      return pencilReduceCase(c);
    if (kind < 8)
      return scanCase(c);
    return sortCase(c);
  }

  /// Reference loops over the domain: for (p0..) { const v0 = ...; BODY }.
  std::string loops(const Grid &g, const std::string &body, const std::string &indent) {
    std::ostringstream o;
    std::string in = indent;
    for (size_t d = 0; d < g.size(); ++d) {
      o << in << "for (std::int64_t p" << d << " = 0; p" << d << " < " << g[d].extent << "; ++p"
        << d << ") {\n";
      in += "  ";
      o << in << "const std::int64_t v" << d << " = " << g[d].lb << " + p" << d << " * "
        << g[d].stride << ";\n";
      o << in << "(void)v" << d << ";\n";
    }
    std::istringstream lines(body);
    for (std::string line; std::getline(lines, line);)
      o << in << line << "\n";
    for (size_t d = 0; d < g.size(); ++d) {
      in.resize(in.size() - 2);
      o << in << "}\n";
    }
    return o.str();
  }

  /// The value a kernel computes from its reads: a sum of weighted terms.
  struct Expr {
    std::string kernel, reference;
    void add(int weight, const std::string &k, const std::string &ref) {
      const std::string w = std::to_string(weight);
      kernel += (kernel.empty() ? "" : " + ") + w + " * " + k;
      reference += (reference.empty() ? "" : " + ") + w + " * " + ref;
    }
  };

  /// Kernel parameters read as values: elemental reads, partial reads
  /// (a weighted sum over the leading dimension), broadcasts, scalars and
  /// the index. Fills the parameter list, the actuals and the expression.
  void readArgs(int c, const Grid &domain, int count, bool allowPartial, std::vector<Arg> &args,
                Expr &e, std::ostringstream &decls, bool &usesIndexToken) {
    const int rc = int(domain.size());
    for (int n = 0; n < count; ++n) {
      const int k = int(args.size());
      const int what = r_.below(allowPartial ? 6 : 5);
      if (what <= 1) {
        Arg a = elemental(c, k, domain, false, decls);
        e.add(r_.between(1, 5), a.name, a.ref);
        args.push_back(a);
      } else if (what == 2) { // a scalar
        Arg a;
        a.kind = Arg::Scalar;
        a.name = "a" + std::to_string(k);
        const int value = r_.between(-20, 20);
        a.actual = r_.chance(50) ? std::to_string(value) + "L" : "long(" + std::to_string(value) + ")";
        a.formal = r_.chance(50) ? "long " + a.name : "const long &" + a.name;
        e.add(r_.between(1, 3), a.name, std::to_string(value) + "L");
        args.push_back(a);
      } else if (what == 3 && !usesIndexToken) { // the index token
        Arg a;
        a.kind = Arg::Token;
        a.name = "a" + std::to_string(k);
        a.actual = "dp::_index";
        a.formal = "dp::index<" + std::to_string(rc) + "> " + a.name;
        const int d = r_.below(rc);
        e.add(r_.between(1, 7), a.name + "[" + std::to_string(d) + "]", "v" + std::to_string(d));
        usesIndexToken = true;
        args.push_back(a);
      } else if (what == 4) { // a whole field, read at a fixed index value
        Arg a;
        a.kind = Arg::WholeRead;
        a.name = "a" + std::to_string(k);
        const Grid g = randomGrid(r_.between(1, 2));
        Grid nonEmpty = g;
        for (Seq &s : nonEmpty)
          s.extent = std::max<i64>(1, s.extent);
        a.base = "f" + std::to_string(c) + "_" + std::to_string(k);
        declare(FieldDecl{a.base, nonEmpty, "long", r_.between(1, 999)}, decls);
        a.actual = r_.chance(50) ? a.base : "dp::read_only(" + a.base + ")";
        a.formal = "const dp::field<" + std::to_string(nonEmpty.size()) + ", long> &" + a.name;
        std::vector<std::string> at;
        for (const Seq &s : nonEmpty)
          at.push_back(std::to_string(s.value(r_.below(int(s.extent)))));
        e.add(r_.between(1, 3), access(a.name, at), access(a.base, at));
        args.push_back(a);
      } else { // a partial projection, read
        Arg a = partial(c, k, domain, false, decls);
        e.add(1, "weighted(" + a.name + ")", "ref_weighted_" + a.name);
        args.push_back(a);
      }
    }
  }

  /// On a tiled domain, half the time, the tile tokens: the kernel reads
  /// its tile's position and its place in the tile (the reference: the
  /// 0-based position divided by the tile, and the remainder). A kernel
  /// that takes one sees its tile: its threads run as a tile's.
  void tileTokens(const Grid &domain, const std::vector<i64> &tile, std::vector<Arg> &args,
                  Expr &e, bool &usesIndexToken) {
    if (tile.empty() || !r_.chance(50))
      return;
    const int rc = int(domain.size());
    for (const bool local : {false, true}) {
      if (!r_.chance(70))
        continue;
      Arg a;
      a.kind = Arg::Token;
      a.name = "a" + std::to_string(args.size());
      a.actual = local ? "dp::_local_index" : "dp::_tile_index";
      a.formal = "dp::index<" + std::to_string(rc) + "> " + a.name;
      const int d = r_.below(rc);
      const std::string p = "p" + std::to_string(d), te = std::to_string(tile[d]);
      e.add(r_.between(1, 7), a.name + "[" + std::to_string(d) + "]",
            "(" + p + (local ? " % " : " / ") + te + ")");
      usesIndexToken = true;
      args.push_back(a);
    }
  }

  /// The kernel: its parameter list and body, in the chosen form. Returns
  /// the call-site's kernel expression (and emits globals as needed).
  std::string kernel(int c, const std::string &params, const std::string &body, bool generic_ok,
                     const std::string &result_type) {
    const int form = r_.below(generic_ok ? 5 : 4);
    const std::string name = "k" + std::to_string(c);
    if (form == 0)
      return "[](" + params + ") {\n" + body + "    }";
    if (form == 1) {
      kernels_ << "    auto " << name << " = [](" << params << ") {\n" << body << "    };\n";
      return name;
    }
    if (form == 2) {
      globals_ << result_type << " " << name << "(" << params << ") {\n" << body << "}\n";
      return name;
    }
    if (form == 3) {
      globals_ << "struct " << name << "_t {\n  " << result_type << " operator()(" << params
               << ") const {\n" << body << "  }\n};\n";
      return name + "_t{}";
    }
    // Generic: every parameter `auto`, with the same reference and const.
    return "[](" + genericParams_ + ") {\n" + body + "    }";
  }

  /// The parameter list of a generic lambda for `args`, or false when one
  /// of them cannot be generic (a field the kernel indexes: a generic
  /// parameter takes what the actual's rank suggests).
  bool genericParams(const std::vector<Arg> &args, bool implicit) {
    if (implicit)
      return false;
    genericParams_.clear();
    for (const Arg &a : args) {
      std::string p;
      switch (a.kind) {
      case Arg::ElementRead:
      case Arg::Scalar:
        p = a.formal.find('&') != std::string::npos ? "const auto &" : "auto ";
        break;
      case Arg::ElementWrite:
        p = "auto &";
        break;
      case Arg::Token:
        p = "auto ";
        break;
      default:
        return false;
      }
      genericParams_ += (genericParams_.empty() ? "" : ", ") + p + a.name;
    }
    return true;
  }

  std::string paramList(const std::vector<Arg> &args, bool implicit, int rc) {
    std::string s = implicit ? "dp::index<" + std::to_string(rc) + "> i" : "";
    for (const Arg &a : args)
      s += (s.empty() ? "" : ", ") + a.formal;
    return s;
  }
  std::string actualList(const std::vector<Arg> &args) {
    std::string s;
    for (const Arg &a : args)
      s += ", " + a.actual;
    return s;
  }
  /// The reference's partial-read sums, computed per point before use.
  std::string partialRefs(const std::vector<Arg> &args) {
    std::string s;
    for (const Arg &a : args)
      if (a.kind == Arg::PartialRead)
        s += "long ref_weighted_" + a.name + " = 0;\nfor (std::int64_t q = 0; q < " +
             std::to_string(a.leading) + "; ++q)\n  ref_weighted_" + a.name + " += " + a.ref +
             " * (q + 1);\n";
    return s;
  }
  bool anyPartial(const std::vector<Arg> &args) {
    for (const Arg &a : args)
      if (a.kind == Arg::PartialRead || a.kind == Arg::PartialWrite)
        return true;
    return false;
  }
  std::string weightedHelper() {
    return "    auto weighted = [](const dp::field<1, long> &f) {\n"
           "      long s = 0;\n"
           "      for (std::int64_t q = 0; q < f.get_extent(0); ++q)\n"
           "        s += f(q) * (q + 1);\n"
           "      return s;\n"
           "    };\n";
  }

  std::string forallCase(int c) {
    const int rc = r_.between(1, 4);
    const Grid domain = randomGrid(rc);
    std::ostringstream d, o;
    std::vector<Arg> args;
    Expr e;
    bool token = false;
    readArgs(c, domain, r_.between(0, 3), true, args, e, d, token);
    const std::vector<i64> tile = tilingOf(domain);
    tileTokens(domain, tile, args, e, token);
    const bool implicit = !token && r_.chance(30);
    if (implicit) {
      const int dim = r_.below(rc);
      e.add(r_.between(1, 5), "i[" + std::to_string(dim) + "]", "v" + std::to_string(dim));
    }
    // One or two outputs: an elemental write, or a partial write.
    const int outputs = r_.between(1, 2);
    std::string assigns, refAssigns;
    if (e.kernel.empty())
      e.add(1, "1L", "1L");
    for (int n = 0; n < outputs; ++n) {
      const int k = int(args.size());
      const bool part = r_.chance(25);
      Arg a = part ? partial(c, k, domain, true, d) : elemental(c, k, domain, true, d);
      const int salt = r_.between(1, 9);
      if (part) {
        assigns += "      for (std::int64_t q = 0; q < " + a.name + ".get_extent(0); ++q)\n        " +
                   a.name + "(q) = (" + e.kernel + ") * " + std::to_string(salt) + " + q;\n";
        refAssigns += "for (std::int64_t q = 0; q < " + std::to_string(a.leading) + "; ++q)\n  " + a.ref +
                      " = (" + e.reference + ") * " + std::to_string(salt) + " + q;\n";
      } else {
        const bool accumulate = r_.chance(40);
        assigns += "      " + a.name + (accumulate ? " += " : " = ") + "(" + e.kernel + ") * " +
                   std::to_string(salt) + ";\n";
        refAssigns += a.ref + (accumulate ? " += " : " = ") + "(" + e.reference + ") * " +
                      std::to_string(salt) + ";\n";
      }
      args.push_back(a);
    }
    const bool generic_ok = genericParams(args, implicit);
    std::string body;
    if (anyPartial(args))
      body += "      auto weighted = [](const dp::field<1, long> &f) {\n"
              "        long s = 0;\n"
              "        for (std::int64_t q = 0; q < f.get_extent(0); ++q)\n"
              "          s += f(q) * (q + 1);\n"
              "        return s;\n"
              "      };\n";
    body += assigns;
    const std::string k = kernel(c, paramList(args, implicit, rc), body, generic_ok, "void");
    const std::string over = domainOf(domain, tile);
    o << "  { // case " << c << ": forall over " << over << "\n" << d.str();
    for (const Arg &a : args)
      if (a.kind == Arg::ElementWrite || a.kind == Arg::PartialWrite)
        o << "    dp::field<" << a.baseRank << ", long> want_" << a.base << " = " << a.base << ".clone();\n";
    o << kernels_.str();
    kernels_.str("");
    o << "    dp::forall(" << options(!tile.empty()) << over << ", " << k << actualList(args) << ");\n";
    o << loops(domain, partialRefs(args) + refAssigns, "    ");
    std::string sums;
    for (const Arg &a : args)
      if (a.kind == Arg::ElementWrite || a.kind == Arg::PartialWrite) {
        o << "    expect_equal(" << c << ", \"" << a.base << "\", " << a.base << ", want_" << a.base << ");\n";
        sums += " << checksum(" + a.base + ")";
      }
    o << "    std::printf(\"case " << c << ":";
    for (const Arg &a : args)
      if (a.kind == Arg::ElementWrite || a.kind == Arg::PartialWrite)
        o << " %lu";
    o << "\\n\"";
    for (const Arg &a : args)
      if (a.kind == Arg::ElementWrite || a.kind == Arg::PartialWrite)
        o << ", checksum(" << a.base << ")";
    o << ");\n  }\n";
    return o.str();
  }

  /// An associative, commutative operator on long: its call-site text and
  /// the reference's combination of `acc` and `x`.
  std::pair<std::string, std::string> op(int c) {
    switch (r_.below(5)) {
    case 0: return {"std::plus<>()", "acc + x"};
    case 1: return {"[](long a, long b) { return a > b ? a : b; }", "std::max(acc, x)"};
    case 2: return {"[](const long &a, const long &b) { return a < b ? a : b; }", "std::min(acc, x)"};
    case 3:
      globals_ << "long xor_" << c << "(long a, long b) { return a ^ b; }\n";
      return {"xor_" + std::to_string(c), "acc ^ x"};
    default: return {"std::bit_or<>()", "acc | x"};
    }
  }

  /// The map function of a reduce or scan: its kernel, its arguments and
  /// the reference's value at v0..vN-1.
  std::string mapFunction(int c, const Grid &domain, std::vector<Arg> &args, Expr &e,
                          std::ostringstream &d, bool &implicit,
                          const std::vector<i64> &tile = {}) {
    const int rc = int(domain.size());
    bool token = false;
    readArgs(c, domain, r_.between(1, 3), true, args, e, d, token);
    tileTokens(domain, tile, args, e, token);
    implicit = !token && r_.chance(30);
    if (implicit) {
      const int dim = r_.below(rc);
      e.add(r_.between(1, 5), "i[" + std::to_string(dim) + "]", "v" + std::to_string(dim));
    }
    std::string body;
    if (anyPartial(args))
      body += "      auto weighted = [](const dp::field<1, long> &f) {\n"
              "        long s = 0;\n"
              "        for (std::int64_t q = 0; q < f.get_extent(0); ++q)\n"
              "          s += f(q) * (q + 1);\n"
              "        return s;\n"
              "      };\n";
    body += "      return long(" + e.kernel + ");\n";
    return kernel(c, paramList(args, implicit, rc), body, genericParams(args, implicit), "long");
  }

  std::string reduceCase(int c) {
    const int rc = r_.between(1, 4);
    const Grid domain = randomGrid(rc);
    std::ostringstream d, o;
    std::vector<Arg> args;
    Expr e;
    bool implicit = false;
    const std::vector<i64> tile = tilingOf(domain);
    const std::string f = mapFunction(c, domain, args, e, d, implicit, tile);
    const auto [opText, combine] = op(c);
    const int prior = r_.between(-50, 50);
    const std::string over = domainOf(domain, tile);
    o << "  { // case " << c << ": reduce over " << over << "\n" << d.str() << kernels_.str();
    kernels_.str("");
    o << "    dp::scalar<long> result(" << prior << ");\n"
      << "    dp::reduce(" << options(!tile.empty()) << over << ", " << opText << ", result, " << f << actualList(args) << ");\n"
      << "    long acc = " << prior << ";\n";
    o << loops(domain, partialRefs(args) + "const long x = " + e.reference + ";\nacc = " + combine + ";\n", "    ");
    o << "    expect_value(" << c << ", result.get(), acc);\n"
      << "    std::printf(\"case " << c << ": %ld\\n\", result.get());\n  }\n";
    return o.str();
  }

  std::string pencilReduceCase(int c) {
    const int rc = r_.between(2, 4);
    const Grid domain = randomGrid(rc);
    const int dim = r_.below(rc);
    std::ostringstream d, o;
    std::vector<Arg> args;
    Expr e;
    bool implicit = false;
    const std::string f = mapFunction(c, domain, args, e, d, implicit);
    const auto [opText, combine] = op(c);
    Grid reduced = domain;
    reduced.erase(reduced.begin() + dim);
    const Grid resultGrid = coveringGrid(reduced);
    const std::string res = "r" + std::to_string(c);
    o << "  { // case " << c << ": reduce<" << dim << "> over " << renderGrid(domain) << "\n" << d.str()
      << kernels_.str();
    kernels_.str("");
    declare(FieldDecl{res, resultGrid, "long", r_.between(1, 999)}, o);
    o << "    dp::field<" << rc - 1 << ", long> want_" << res << " = " << res << ".clone();\n"
      << "    dp::reduce<" << dim << ">(" << options(false) << renderGrid(domain) << ", " << opText << ", " << res << ", " << f
      << actualList(args) << ");\n";
    std::vector<std::string> q;
    for (int k = 0; k < rc; ++k)
      if (k != dim)
        q.push_back("v" + std::to_string(k));
    // Reference: fold every pencil in order, then combine with the prior.
    o << "    dp::field<" << rc - 1 << ", long> fold_" << res << "(" << renderGrid(resultGrid) << ");\n"
      << "    dp::field<" << rc - 1 << ", int> seen_" << res << "(" << renderGrid(resultGrid) << ");\n";
    const std::string body = partialRefs(args) + "const long x = " + e.reference + ";\nlong &acc = " +
                             access("fold_" + res, q) + ";\nif (" + access("seen_" + res, q) +
                             "++) acc = " + combine + "; else acc = x;\n";
    o << loops(domain, body, "    ");
    std::vector<std::string> r; // the reduced grid's own loop variables
    for (int k = 0; k + 1 < rc; ++k)
      r.push_back("v" + std::to_string(k));
    o << loops(reduced, "if (" + access("seen_" + res, r) + ") {\n  const long x = " + access("fold_" + res, r) +
                            ";\n  long acc = " + access("want_" + res, r) + ";\n  " +
                            access("want_" + res, r) + " = " + combine + ";\n}\n",
               "    ");
    o << "    expect_equal(" << c << ", \"" << res << "\", " << res << ", want_" << res << ");\n"
      << "    std::printf(\"case " << c << ": %lu\\n\", checksum(" << res << "));\n  }\n";
    return o.str();
  }

  std::string scanCase(int c) {
    const int rc = r_.between(1, 4);
    const Grid domain = randomGrid(rc);
    const int dim = r_.below(rc);
    std::ostringstream d, o;
    std::vector<Arg> args;
    Expr e;
    bool implicit = false;
    const std::string f = mapFunction(c, domain, args, e, d, implicit);
    const auto [opText, combine] = op(c);
    const Grid resultGrid = coveringGrid(domain);
    const std::string res = "s" + std::to_string(c);
    o << "  { // case " << c << ": scan<" << dim << "> over " << renderGrid(domain) << "\n" << d.str()
      << kernels_.str();
    kernels_.str("");
    declare(FieldDecl{res, resultGrid, "long", r_.between(1, 999)}, o);
    o << "    dp::field<" << rc << ", long> want_" << res << " = " << res << ".clone();\n"
      << "    dp::scan<" << dim << ">(" << options(false) << renderGrid(domain) << ", " << opText << ", " << res << ", " << f
      << actualList(args) << ");\n";
    // Reference: loops with the scanned dimension innermost, in position order.
    Grid order = domain;
    std::rotate(order.begin() + dim, order.begin() + dim + 1, order.end());
    std::string body = partialRefs(args) + "const long x = " + e.reference + ";\n";
    std::vector<std::string> v;
    for (int k = 0; k < rc; ++k)
      v.push_back("v" + std::to_string(k));
    // Rename: loops() names loop d's value v<d>; map back to the domain's.
    std::string renamed;
    {
      std::vector<int> from(static_cast<size_t>(rc)); // order position -> domain dimension
      for (int k = 0, p = 0; k < rc; ++k)
        if (k != dim)
          from[size_t(p++)] = k;
      from[size_t(rc - 1)] = dim;
      std::string decl;
      for (int p = 0; p < rc; ++p)
        decl += "const std::int64_t w" + std::to_string(from[size_t(p)]) + " = v" + std::to_string(p) + ";\n";
      std::string b = body;
      // The reference expressions name v<d>; use w<d> instead.
      std::string out;
      for (size_t i = 0; i < b.size(); ++i) {
        if (b[i] == 'v' && i + 1 < b.size() && std::isdigit(static_cast<unsigned char>(b[i + 1])) &&
            (i == 0 || !std::isalnum(static_cast<unsigned char>(b[i - 1])))) {
          out += 'w';
          continue;
        }
        out += b[i];
      }
      std::vector<std::string> w;
      for (int k = 0; k < rc; ++k)
        w.push_back("w" + std::to_string(k));
      renamed = decl + out + "long &cell = " + access("want_" + res, w) + ";\nif (v" + std::to_string(rc - 1) +
                " == " + std::to_string(order[size_t(rc - 1)].lb) + ") cell = x; else { const long acc = prev; cell = " +
                combine + "; }\nprev = cell;\n";
    }
    o << "    long prev = 0;\n    (void)prev;\n" << loops(order, renamed, "    ");
    o << "    expect_equal(" << c << ", \"" << res << "\", " << res << ", want_" << res << ");\n"
      << "    std::printf(\"case " << c << ": %lu\\n\", checksum(" << res << "));\n  }\n";
    return o.str();
  }

  std::string sortCase(int c) {
    const bool argsort = r_.chance(25);
    const int rc = argsort ? 1 : r_.between(1, 4);
    const Grid domain = randomGrid(rc);
    const int dim = r_.below(rc);
    std::ostringstream o;
    const std::string res = "t" + std::to_string(c);
    const Grid fieldGrid = coveringGrid(domain);
    o << "  { // case " << c << ": sort<" << dim << "> over " << renderGrid(domain) << "\n";
    declare(FieldDecl{res, fieldGrid, argsort ? "int" : "long", r_.between(1, 999)}, o);
    std::string cmp, less, extra;
    const std::string t = argsort ? "int" : "long";
    if (argsort) {
      // Sort positions of a key field: the keys reach the comparator whole.
      const std::string keys = "keys" + std::to_string(c);
      o << "    dp::field<1, long> " << keys << "(dp::grid<1>(64));\n    fill(" << keys << ", " << r_.between(1, 99)
        << ");\n"
        << "    for (std::int64_t k = 0; k < " << res << ".get_grid().size(); ++k)\n"
        << "      " << res << "[" << res << ".get_grid().map_index(k)] = int((k * 7) % 64);\n";
      cmp = "[](int a, int b, const dp::field<1, long> &key) { return key(a) < key(b) || (key(a) == key(b) && a < b); }";
      less = "[&](int a, int b) { return " + keys + "(a) < " + keys + "(b) || (" + keys + "(a) == " + keys + "(b) && a < b); }";
      extra = r_.chance(50) ? ", " + keys : ", dp::read_only(" + keys + ")";
    } else {
      switch (r_.below(4)) {
      case 0:
        cmp = "[](long a, long b) { return a < b; }";
        less = "std::less<long>()";
        break;
      case 1:
        cmp = "std::greater<>()";
        less = "std::greater<long>()";
        break;
      case 2:
        globals_ << "struct by_residue_" << c << " {\n  bool operator()(const long &a, const long &b) const {\n"
                 << "    return (a % 4 + 4) % 4 < (b % 4 + 4) % 4 || ((a % 4 + 4) % 4 == (b % 4 + 4) % 4 && a < b);\n  }\n};\n";
        cmp = "by_residue_" + std::to_string(c) + "{}";
        less = cmp;
        break;
      default:
        cmp = "[](long a, long b) { return (a < 0 ? -a : a) < (b < 0 ? -b : b) || ((a < 0 ? -a : a) == (b < 0 ? -b : b) && a < b); }";
        less = cmp;
      }
    }
    o << "    dp::field<" << rc << ", " << t << "> want_" << res << " = " << res << ".clone();\n"
      << "    dp::sort<" << dim << ">(" << options(false) << renderGrid(domain) << ", " << cmp << ", " << res << extra << ");\n";
    // Reference: gather every pencil in position order, sort, scatter.
    Grid order = domain;
    std::rotate(order.begin() + dim, order.begin() + dim + 1, order.end());
    Grid outer(order.begin(), order.end() - 1);
    std::vector<std::string> idx;
    for (int k = 0; k < rc; ++k)
      idx.push_back(k == dim ? "lb + k * st" : "");
    // outer loop vars v0..v(rc-2) are the domain's dims other than dim, in order.
    for (int k = 0, p = 0; k < rc; ++k)
      if (k != dim)
        idx[size_t(k)] = "v" + std::to_string(p++);
    const Seq &s = domain[size_t(dim)];
    std::string body = "const std::int64_t lb = " + std::to_string(s.lb) + ", st = " + std::to_string(s.stride) +
                       ";\nstd::vector<" + t + "> pencil;\nfor (std::int64_t k = 0; k < " + std::to_string(s.extent) +
                       "; ++k)\n  pencil.push_back(" + access("want_" + res, idx) + ");\nstd::sort(pencil.begin(), pencil.end(), " +
                       less + ");\nfor (std::int64_t k = 0; k < " + std::to_string(s.extent) + "; ++k)\n  " +
                       access("want_" + res, idx) + " = pencil[size_t(k)];\n";
    o << (outer.empty() ? "    {\n" + body + "    }\n" : loops(outer, body, "    "));
    o << "    expect_equal(" << c << ", \"" << res << "\", " << res << ", want_" << res << ");\n"
      << "    std::printf(\"case " << c << ": %lu\\n\", checksum(" << res << "));\n  }\n";
    return o.str();
  }

  Random r_;
  Random o_; ///< options only
  std::uint64_t seed_;
  std::ostringstream globals_, kernels_;
  std::string genericParams_;
};

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: dpgen SEED > program.cpp\n");
    return 2;
  }
  Generator g(std::strtoull(argv[1], nullptr, 10));
  std::fputs(g.program().c_str(), stdout);
  return 0;
}
