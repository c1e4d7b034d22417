// Kernels in a file without main (NeoRodinia's, a library's): their
// pointer parameters come from callers dpstub cannot see, so they cannot
// become fields. Where a directive's data clauses, or else the loop's
// accesses, give an array's length, the call-site borrows it (dp::borrow
// over that many elements from the first); its results are in the
// caller's memory at the block's end.
#include <stdbool.h>
#include <stddef.h>

// OpenMP offloading: map(tofrom:) and map(to:), read-only elements stay
// read-only; the pointers stay pointers, only the loop's accesses change.
// C lets a caller pass one array as both (axpy(n, a, y, y)): a pointer
// the loop only reads is borrowed by dp::borrow_read, a copy where it
// overlaps what the call-site writes, since every iteration reads it
// before it writes. The file's functions keep C linkage for the C files
// that call them (c_linkage.c).
void axpy(int n, float a, float *y, const float *x) {
// REWRITE: extern "C" void axpy(int n, float a, float *y, const float *x) {
  #pragma omp target teams distribute parallel for map(tofrom: y[0:n]) map(to: x[0:n])
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
// DIAG: borrow.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      {
// REWRITE-NEXT:   // pointers borrowed for this call-site: what the loop wrote is there at the '}'
// REWRITE-NEXT:   dp::field<1, float> dp_y = dp::borrow(y, n);
// REWRITE-NEXT:   dp::field<1, const float> dp_x = dp::borrow_read(x, n, dp_y);
// REWRITE-NEXT:   dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, float> &y, const dp::field<1, const float> &x) {
// REWRITE-NEXT:     const int i = idx[0];
// REWRITE-NEXT:     y(i) += a * x(i);
// REWRITE-NEXT:   }, dp_y, dp_x);
// REWRITE-NEXT: }
}

// The length as written (a local the host computes before the loop);
// OpenACC's copyin on a compute construct is a data clause, and a
// reduction borrows in its block.
double dot(int rows, int cols, const double *restrict u, const double *restrict v) {
  const int size = rows * cols;
  double sum = 0.0;
#pragma acc parallel loop reduction(+:sum) copyin(u[:size], v[0 : size])
  for (int k = 0; k < size; k++)
    sum += u[k] * v[k];
// DIAG: borrow.c:[[@LINE-2]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE:      // pointers borrowed for this call-site
// REWRITE-NEXT: dp::field<1, const double> dp_u = dp::borrow_read(u, size);
// REWRITE-NEXT: dp::field<1, const double> dp_v = dp::borrow_read(v, size);
// REWRITE-NEXT: dp::scalar<double> dp_sum(sum);
  return sum;
}

// An iteration that reads after it writes would see its own write through
// an alias, which a copy would not: plain dp::borrow, whose overlap with
// the written memory is a dp::error naming the call-site.
void write_then_read(int n, double *w, const double *r) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    w[i] = 1.0;
    w[i] += r[i];
  }
// DIAG: borrow.c:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, double> dp_w = dp::borrow(w, n > 0 ? n : 0);
// REWRITE-NEXT: dp::field<1, const double> dp_r = dp::borrow(r, n > 0 ? n : 0);
}

// A name the body uses already is not taken again.
void shift(int n, double *w, double dp_w) {
#pragma acc parallel loop copy(w[0:n])
  for (int i = 0; i < n; i++)
    w[i] += dp_w;
// DIAG: borrow.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::field<1, double> dp_dp_w = dp::borrow(w, n);
// REWRITE: }, dp_dp_w);
}

// Without a length from the first element, the loop stays, its reason
// the pointer's.
void tail(int n, double *t) {
#pragma omp target teams distribute parallel for map(tofrom: t[1:n - 1])
  for (int i = 1; i < n; i++)
    t[i] *= 2.0;
// DIAG: borrow.c:[[@LINE-1]]:5: warning: not converted: 't' cannot become a dp::field: its allocation is not in this file (it comes from a caller or a call dpstub cannot see) [dp-migrate]
}

// With no data clause (a host loop's directive has none), the accesses
// give the length: the elements from the first to the furthest one the
// loop touches, none when it runs no iteration.
void clear(int n, double *c) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    c[i] = 0.0;
// DIAG: borrow.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::field<1, double> dp_c = dp::borrow(c, n > 0 ? n : 0);
}

// Rows of a linearised matrix, an inner loop over each: the furthest
// element is the last row's last; a stencil over the interior reaches
// one element beyond its loop's bounds each side.
void matvec(int n, const float *a, const float *x, float *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    float t = 0.0f;
    for (int j = 0; j < n; j++)
      t += a[i * n + j] * x[j];
    y[i] = t;
  }
// DIAG: borrow.c:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, float> dp_y = dp::borrow(y, n > 0 ? n : 0);
// REWRITE-NEXT: dp::field<1, const float> dp_a = dp::borrow_read(a, n > 0 ? n * n : 0, dp_y);
// REWRITE-NEXT: dp::field<1, const float> dp_x = dp::borrow_read(x, n > 0 ? n : 0, dp_y);
}
void smooth(int n, const double *in, double *out) {
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0;
// DIAG: borrow.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, double> dp_out = dp::borrow(out, n > 2 ? n - 1 : 0);
// REWRITE-NEXT: dp::field<1, const double> dp_in = dp::borrow_read(in, n > 2 ? n : 0, dp_out);
}

// Indexed through a macro: its brackets are not in the loop's text.
#define AT(p, k) p[k]
void fill(int n, double *f) {
#pragma omp target teams distribute parallel for map(from: f[0:n])
  for (int i = 0; i < n; i++)
    AT(f, i) = 1.0;
// DIAG: borrow.c:[[@LINE-1]]:8: warning: not converted: 'f' cannot become a dp::field: its allocation is not in this file (it comes from a caller or a call dpstub cannot see) [dp-migrate]
}

// A data region over memory only its loops use: the region borrows it
// once, so the loops' own borrows share its blocks (the data crosses to
// the device once, and comes back at the region's end).
void relax(int n, int steps, double *u, double *tmp) {
#pragma acc data copy(u[0:n]) create(tmp[0:n])
  for (int s = 0; s < steps; s++) {
#pragma acc parallel loop
    for (int i = 1; i < n - 1; i++)
      tmp[i] = 0.5 * (u[i - 1] + u[i + 1]);
// DIAG: borrow.c:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma acc parallel loop
    for (int i = 1; i < n - 1; i++)
      u[i] = tmp[i];
// DIAG: borrow.c:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
  }
// REWRITE:      extern "C" void relax(int n, int steps, double *u, double *tmp) {
// REWRITE-NEXT:   {
// REWRITE-NEXT:     dp::field<1, double> dp_region_u = dp::borrow(u, n);
// REWRITE-NEXT:     dp::field<1, double> dp_region_tmp = dp::borrow(tmp, n);
// REWRITE-NEXT:   for (int s = 0; s < steps; s++) {
// REWRITE:          dp::field<1, double> dp_tmp = dp::borrow(tmp, n);
}

// A C struct of plain members is a plain element too (NeoRodinia's bfs
// nodes).
struct span {
  int start;
  int count;
};
void ends(int n, const struct span *spans, int *end) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    end[i] = spans[i].start + spans[i].count;
// DIAG: borrow.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, int> dp_end = dp::borrow(end, n > 0 ? n : 0);
// REWRITE-NEXT: dp::field<1, const struct span> dp_spans = dp::borrow_read(spans, n > 0 ? n : 0, dp_end);
// REWRITE:      end(i) = spans(i).start + spans(i).count;
}

// An element's member array (b+tree's nodes): the access is of the
// element, `nodes(k).keys[t]` in the kernel. Two iterations meeting at
// one element may touch different members, so that is no proof of a
// dependence: the directive is taken at its word.
struct tree_node {
  int keys[4];
  int indices[4];
};
void find_keys(const struct tree_node *nodes, long count, const long *at, int *found, int q, int key) {
#pragma omp target parallel for map(to: nodes[0:count], at[0:q]) map(tofrom: found[0:q])
  for (int b = 0; b < q; b++)
    for (int t = 0; t < 4; t++)
      if (nodes[at[b]].keys[t] == key)
        found[b] = nodes[at[b]].indices[t];
// DIAG: borrow.c:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::field<1, const struct tree_node> dp_nodes = dp::borrow(nodes, count);
// REWRITE: if (nodes(at(b)).keys[t] == key)
// REWRITE-NEXT: found(b) = nodes(at(b)).indices[t];
}
void bump_root(struct tree_node *nodes) {
#pragma omp parallel for
  for (int t = 0; t < 4; t++)
    nodes[0].keys[t] += 1;
// DIAG: borrow.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::field<1, struct tree_node> dp_nodes = dp::borrow(nodes, 1);
// REWRITE: nodes(0).keys[t] += 1;
}
// A member array handed to a helper as a pointer it writes through: the
// loop writes the element, whose field is not read-only.
static void clear_keys(int *keys) {
  for (int j = 0; j < 4; j++)
    keys[j] = 0;
}
static int first_key(const int *keys) { return keys[0]; }
void clear_nodes(int n, struct tree_node *nodes, const struct tree_node *from, int *firsts) {
#pragma omp parallel for
  for (int k = 0; k < n; k++) {
    firsts[k] = first_key(from[k].keys);
    clear_keys(nodes[k].keys);
  }
// DIAG: borrow.c:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, struct tree_node> dp_nodes = dp::borrow(nodes, n > 0 ? n : 0);
// REWRITE-NEXT: dp::field<1, const struct tree_node> dp_from = dp::borrow_read(from, n > 0 ? n : 0, dp_firsts, dp_nodes);
// REWRITE-NEXT: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, int> &firsts, const dp::field<1, const struct tree_node> &from, dp::field<1, struct tree_node> &nodes) {
// REWRITE:      clear_keys(nodes(k).keys);
}

// Gaussian elimination's Fan1 (NeoRodinia's gaussian): t is a parameter
// of unknown sign, so the elements the loop touches need not start at the
// pointer's first, and which row is the least depends on size's sign:
// the call-site borrows the window from the least element the loop
// touches to the greatest, the field's indices the pointer's.
void fan1(float *m, const float *a, int size, int t) {
#pragma omp parallel for
  for (int i = 0; i < size - 1 - t; i++)
    m[size * (i + t + 1) + t] = a[size * (i + t + 1) + t] / a[size * t + t];
// DIAG: borrow.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      const bool dp_touches = size > t + 1;
// REWRITE-NEXT: const std::int64_t dp_m_first = dp_touches ? std::min<std::int64_t>({size * t + size + t, size * size + t - size}) : 0;
// REWRITE-NEXT: const std::int64_t dp_m_end = dp_touches ? std::max<std::int64_t>({size * t + size + t + 1, size * size + t - size + 1}) : 0;
// REWRITE-NEXT: dp::field<1, float> dp_m = dp::borrow(m + dp_m_first, dp::grid<1>(dp::arithmetic_sequence(dp_m_first, dp_m_end)));
// REWRITE-NEXT: const std::int64_t dp_a_first = dp_touches ? std::min<std::int64_t>({size * t + size + t, size * size + t - size, size * t + t}) : 0;
// REWRITE-NEXT: const std::int64_t dp_a_end = dp_touches ? std::max<std::int64_t>({size * t + size + t + 1, size * size + t - size + 1, size * t + t + 1}) : 0;
// REWRITE-NEXT: dp::field<1, const float> dp_a = dp::borrow_read(a + dp_a_first, dp::grid<1>(dp::arithmetic_sequence(dp_a_first, dp_a_end)), dp_m);
// REWRITE:      m(size * (i + t + 1) + t) = a(size * (i + t + 1) + t) / a(size * t + t);
}

// A step of an outer host loop (NeoRodinia's lud): that loop's variable
// counts from 0 and stays below size wherever the call-site runs, which
// bounds the rows it reaches.
void lu_rows(float *a, int size) {
  for (int i = 0; i < size; i++) {
#pragma omp parallel for
    for (int j = i; j < size; j++) {
      float sum = a[i * size + j];
      for (int k = 0; k < i; k++)
        sum -= a[i * size + k] * a[k * size + j];
      a[i * size + j] = sum;
    }
// DIAG: borrow.c:[[@LINE-6]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::field<1, float> dp_a = dp::borrow(a, size > i ? i * size + size : 0);
  }
}

// A stride of unknown sign: the window from the least element touched
// to the greatest, either end first.
void zero(int n, int stride, float *z) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    z[i * stride] = 0.0f;
// DIAG: borrow.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      const bool dp_touches = n > 0;
// REWRITE-NEXT: const std::int64_t dp_z_first = dp_touches ? std::min<std::int64_t>({0, n * stride - stride}) : 0;
// REWRITE-NEXT: const std::int64_t dp_z_end = dp_touches ? std::max<std::int64_t>({1, n * stride - stride + 1}) : 0;
// REWRITE-NEXT: dp::field<1, float> dp_z = dp::borrow(z + dp_z_first, dp::grid<1>(dp::arithmetic_sequence(dp_z_first, dp_z_end)));
}

// A device loop whose array no data clause names, and whose accesses do
// not show how far it reaches (every one under a condition: it may touch
// none): the warning says what would let the call-site borrow it.
void zero_odd(int n, float *z) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    if (i % 2)
      z[i] = 0.0f;
// DIAG: borrow.c:[[@LINE-1]]:7: warning: not converted: 'z' cannot become a dp::field: its allocation is not in this file (it comes from a caller or a call dpstub cannot see) [dp-migrate]
// DIAG: borrow.c:[[@LINE-2]]:7: note: the call-site could borrow 'z', but the loop's accesses do not show how far it reaches; a length in a data clause, such as copy(z[0:n]), would give it
}

// A reduction into an element of borrowed memory: the kernel reads the
// borrowed array, and the host's element stays the pointer's (`x[i]`).
void solve(int n, const double *l, double *x) {
  for (int i = 0; i < n; i++) {
#pragma acc parallel loop copyin(l[0:n * n], x[0:n])
    for (int j = 0; j < i; j++)
      x[i] -= l[i * n + j] * x[j];
// DIAG: borrow.c:[[@LINE-2]]:5: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, const double> dp_x = dp::borrow_read(x, n);
// REWRITE-NEXT: dp::field<1, const double> dp_l = dp::borrow_read(l, n * n);
// REWRITE-NEXT: dp::scalar<double> dp_x_i(x[i]);
// REWRITE:      x_i -= l(i * n + j) * x(j);
// REWRITE:      x[i] = dp_x_i.get();
  }
}
// A filter over an image, bounds-checked at its edges (NeoRodinia's
// stencil): the conditions, not the loops, say how far img reaches, and
// the filter's rows and columns some pixel uses: each window from its
// bounds clipped to its loops' range (kh / 2 is at least 0 and below kh
// where the loops run), empty where the loop touches nothing.
void convolve(const float *img, float *out, int w, int h, const float *k, int kw, int kh) {
#pragma omp parallel for
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++) {
      float acc = 0;
      for (int dy = 0; dy < kh; dy++)
        for (int dx = 0; dx < kw; dx++) {
          int y = r + dy - kh / 2;
          int x = c + dx - kw / 2;
          if (y >= 0 && y < h && x >= 0 && x < w)
            acc += img[y * w + x] * k[dy * kw + dx];
        }
      out[r * w + c] = acc;
    }
}
// DIAG: borrow.c:[[@LINE-13]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      const bool dp_touches = h > 0 && w > 0 && kh > 0 && kw > 0;
// REWRITE-NEXT: dp::field<1, const float> dp_img = dp::borrow(img, dp_touches ? h * w : 0);
// REWRITE-NEXT: const std::int64_t dp_k_first = dp_touches ? kw * std::max<std::int64_t>(0, (kh / 2) - h + 1) + std::max<std::int64_t>(0, (kw / 2) - w + 1) : 0;
// REWRITE-NEXT: const std::int64_t dp_k_end = dp_touches ? kw * std::min<std::int64_t>(kh - 1, h + (kh / 2) - 1) + std::min<std::int64_t>(kw - 1, w + (kw / 2) - 1) + 1 : 0;
// REWRITE-NEXT: dp::field<1, const float> dp_k = dp::borrow(k + dp_k_first, dp::grid<1>(dp::arithmetic_sequence(dp_k_first, dp_k_end)));
// REWRITE:      acc += img(y * w + x) * k(dy * kw + dx);

// A prefix the condition cuts: the elements below the lesser of n and m.
void clear_prefix(int n, int m, double *v) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    if (i < m)
      v[i] = 0.0;
}
// DIAG: borrow.c:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      const bool dp_touches = n > 0 && std::min<std::int64_t>(n - 1, m - 1) >= 0;
// REWRITE-NEXT: dp::field<1, double> dp_v = dp::borrow(v, dp_touches ? std::min<std::int64_t>(n - 1, m - 1) + 1 : 0);

// Conditions that are not bounds of the loops' sums by ones: the
// elements they let through are not a range the tool can prove exact.
void clear_some(int n, int m, double *v, double *u) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    if (2 * i < m)
      v[i] = 0.0;
// DIAG: borrow.c:[[@LINE-1]]:7: warning: not converted: 'v' cannot become a dp::field: its allocation is not in this file (it comes from a caller or a call dpstub cannot see) [dp-migrate]
// DIAG: borrow.c:[[@LINE-2]]:7: note: the call-site could borrow 'v', but the loop's accesses do not show how far it reaches; a data region around the loop would give its length: '#pragma omp target data map(tofrom: v[0:n])'
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    if (i < m || m < 0)
      u[i] = 0.0;
// DIAG: borrow.c:[[@LINE-1]]:7: warning: not converted: 'u' cannot become a dp::field: its allocation is not in this file (it comes from a caller or a call dpstub cannot see) [dp-migrate]
// DIAG: borrow.c:[[@LINE-2]]:7: note: the call-site could borrow 'u', but the loop's accesses do not show how far it reaches; a data region around the loop would give its length: '#pragma omp target data map(tofrom: u[0:n])'
}

// A pointer the directive names device memory (deviceptr, OpenMP's
// is_device_ptr): the host cannot read it, so the call-site cannot borrow
// it, whatever the accesses reach.
void twice_on_device(int n, double *x) {
#pragma acc parallel loop deviceptr(x)
  for (int i = 0; i < n; ++i)
    x[i] *= 2;
// DIAG: borrow.c:[[@LINE-1]]:5: warning: not converted: 'x' cannot become a dp::field: the directive names it in 'deviceptr(x)': device memory, which the host cannot read, so no call-site may borrow it [dp-migrate]
}
void thrice_on_device(int n, double *x) {
#pragma omp target teams distribute parallel for is_device_ptr(x)
  for (int i = 0; i < n; ++i)
    x[i] *= 3;
// DIAG: borrow.c:[[@LINE-1]]:5: warning: not converted: 'x' cannot become a dp::field: the directive names it in 'is_device_ptr(x)': device memory, which the host cannot read, so no call-site may borrow it [dp-migrate]
}
// The data region that note suggests: its section is the length.
void clear_some_given(int n, int m, double *v) {
#pragma omp target data map(tofrom: v[0:n])
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    if (2 * i < m)
      v[i] = 0.0;
}
// DIAG: borrow.c:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]


// A data region's lengths serve the loops inside it. Where host code in
// the region uses an array, the region cannot hold it: the call-site
// borrows it for itself, and with no loop left for OpenMP to offload the
// directive goes (kept, an offloading build would copy the device's
// stale `seen` over the call-site's results at its end); C's bool is
// bool in the C++ written.
int mark(int n, bool *seen, const int *level) {
  int marked = 0;
#pragma omp target data map(tofrom: seen[0:n]) map(to: level[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      seen[i] = seen[i] || level[i] > 0;
// DIAG: borrow.c:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: extern "C" int mark(int n, bool *seen, const int *level) {
// REWRITE-NOT: #pragma omp target data
// REWRITE: dp::field<1, const int> dp_region_level = dp::borrow(level, n);
// REWRITE: dp::field<1, bool> dp_seen = dp::borrow(seen, n);
// REWRITE-NEXT: dp::field<1, const int> dp_level = dp::borrow_read(level, n, dp_seen);
    // The host reads seen inside the region: the region cannot hold it.
    for (int i = 0; i < n; i++)
      marked += seen[i];
  }
  return marked;
}

// A reduction into an element writes it on the host, through the pointer:
// a region around such a loop does not hold that pointer (the device copy
// it held would be stale after the write); the loop borrows it, the region
// holds l, and with no loop left for OpenACC the directive goes (kept, an
// OpenACC build would copy its stale x over the host's at its end).
void solve_all(int n, const double *l, double *x) {
#pragma acc data copyin(l[0:n * n]) copy(x[0:n])
  for (int i = 0; i < n; i++) {
#pragma acc parallel loop
    for (int j = 0; j < i; j++)
      x[i] -= l[i * n + j] * x[j];
// DIAG-DAG: borrow.c:[[@LINE-2]]:5: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: extern "C" void solve_all(int n, const double *l, double *x) {
// REWRITE-NOT: #pragma acc data
// REWRITE: dp::field<1, const double> dp_region_l = dp::borrow(l, n * n);
  }
}

// Pointers into a borrowed array (OffsetPointer.h): made in the loop,
// they are offsets there, and the row's affine offset gives the length;
// a private one made from an index (the offset unknown) borrows what the
// data clause gives.
void rows_scale(int n, int m, double *a, const double *s) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double *row = &a[i * m];
    for (int j = 0; j < m; j++)
      row[j] *= s[i];
  }
}
// DIAG-DAG: borrow.c:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::field<1, double> dp_a = dp::borrow(a, n > 0 && m > 0 ? n * m : 0);
// REWRITE: const std::int64_t row = i * m;
// REWRITE: a(row + j) *= s(i);
void boxes(int n, int m, const int *first, double *a) {
  double *p;
#pragma omp target teams distribute parallel for map(tofrom: a[0:n * m]) private(p)
  for (int i = 0; i < n; i++) {
    p = a + first[i];
    for (int j = 0; j < m; j++)
      p[j] += 1;
  }
}
// DIAG-DAG: borrow.c:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: double *p;
// REWRITE: dp::field<1, double> dp_a = dp::borrow(a, n * m);
// REWRITE: std::int64_t p;
// REWRITE-NEXT: p = first(i);
// REWRITE: a(p + j) += 1;

// Made outside the loop, the pointer stays a pointer there, which a
// kernel cannot take as an offset into its borrowed array.
void from_tail(int n, double *a) {
  double *t = a + n;
#pragma omp parallel for map(tofrom: a[0:2 * n])
  for (int i = 0; i < n; i++)
    t[i] = i;
// DIAG-DAG: borrow.c:[[@LINE-1]]:5: warning: not converted: 'a' cannot become a dp::field: 't' points into it from outside the loop ('a + n', line [[@LINE-4]]), where it stays a pointer: a call-site borrows the array for the loop alone; make 't' in the loop [dp-migrate]
}
// REWRITE: double *t = a + n;

// Unstructured data directives naming a pointer that stays one: OpenACC
// may still run loops that rely on them (under another build, or loops
// dpstub refuses), so they stay, with a warning.
void scale_present(int n, float *p) {
#pragma acc enter data copyin(p[0:n])
#pragma acc parallel loop present(p[0:n])
  for (int i = 0; i < n; i++)
    p[i] = 2 * p[i];
#pragma acc exit data copyout(p[0:n])
}
// DIAG-DAG: borrow.c:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: #pragma acc enter data copyin(p[0:n])
// REWRITE: #pragma acc exit data copyout(p[0:n])
// DIAG: borrow.c:[[@LINE-9]]:1: warning: 'acc enter data' is not carried over: 'p' stays a pointer, not a dp::field [dp-migrate]
// DIAG: borrow.c:[[@LINE-6]]:1: warning: 'acc exit data' is not carried over: 'p' stays a pointer, not a dp::field [dp-migrate]

// SUMMARY: migrated 25 of 33 loops (8 refused)
