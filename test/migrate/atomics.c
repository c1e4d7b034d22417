// Atomic and critical updates inside a loop. One that updates a variable
// of the enclosing scope, and nothing else in the loop touches it, is the
// reduction the iterations make together (OpenMP codes write it before
// they learn the reduction clause): the loop becomes a dp::reduce and the
// directive goes. One that updates an element other iterations may pick
// (a histogram's bins) is dp::atomic_add's when it adds, dp::atomic_mul's,
// dp::atomic_max's, dp::atomic_min's, dp::atomic_and's, dp::atomic_or's
// or dp::atomic_xor's when it multiplies, keeps a maximum or minimum, or
// sets bits; a division of such elements has no counterpart in a dp
// kernel, nor do a capture, a read or a critical section doing more than
// one update (other than an arg max's: the value, and the index set with
// it).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The same updates with no atomic and no reduction clause: the
 * original's threads (and SIMD lanes) race on the shared variable, which
 * the call-site reduces, saying so in a note. A bare `omp for` races
 * where its region shares the variable, not where the region made it
 * each thread's own (a reduction clause of the region's). */
double unguarded(int n, const double *w) {
  double sum = 0, top = 0;
#pragma omp parallel for simd
  for (int i = 0; i < n; i++)
    sum += w[i];
// DIAG: atomics.c:[[@LINE-2]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// DIAG: atomics.c:[[@LINE-2]]:5: note: 'sum' has no reduction clause: the original's threads race on it; the call-site reduces it as reduction(+: sum) would [dp-migrate]
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    top = fmax(top, w[i]);
// DIAG: atomics.c:[[@LINE-2]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// DIAG: atomics.c:[[@LINE-2]]:5: note: 'top' has no reduction clause: the original's threads race on it; the call-site reduces it as reduction(max: top) would [dp-migrate]
  return sum + top;
}
double in_regions(int n, const double *w) {
  double shared = 0, own = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      shared += w[i];
  }
// DIAG: atomics.c:[[@LINE-3]]:5: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// DIAG: atomics.c:[[@LINE-3]]:7: note: 'shared' has no reduction clause: the original's threads race on it; the call-site reduces it as reduction(+: shared) would [dp-migrate]
#pragma omp parallel reduction(+: own)
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      own += w[i];
  }
// DIAG: atomics.c:[[@LINE-3]]:5: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
  return shared + own;
}

void guarded(int n, const double *w, const int *key, int *hist, double *mass, short *small, double *peak,
             int *first, unsigned *seen, long *kept, float *scale) {
  double total = 0, biggest = 0, prod = 1, t = 0;
  long count = 0;
  int where = -1;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    total += w[i];
  }
// DIAG: atomics.c:[[@LINE-4]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE:      dp::scalar<double> dp_total(total);
// REWRITE:        double total = 0;
// REWRITE-NEXT:   total += w(i);
// REWRITE-NEXT:   return total;
// REWRITE-NOT: {{^}}#pragma omp atomic{{$}}

  // A named critical section around a maximum, and an atomic count: one
  // dp::reduce of both, every other statement kept.
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = w[i] * 2;
#pragma omp atomic update
    count++;
#pragma omp critical (biggest)
    {
      if (v > biggest)
        biggest = v;
    }
  }
// DIAG: atomics.c:[[@LINE-10]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE:       long count = 0;
// REWRITE-NEXT:  double biggest = -std::numeric_limits<double>::infinity();
// REWRITE-NEXT:  double v = w(i) * 2;
// REWRITE-NEXT:  count++;
// REWRITE-NEXT:  {
// REWRITE-NEXT:    if (v > biggest)
// REWRITE-NEXT:      biggest = v;
// REWRITE-NEXT:  }
// REWRITE-NOT: {{^}}#pragma omp critical

  // OpenACC's atomic update, a product.
#pragma acc parallel loop copyin(w[0:n])
  for (int i = 0; i < n; i++) {
#pragma acc atomic update
    prod *= 1.0 + w[i] / n;
  }
// DIAG: atomics.c:[[@LINE-4]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: dp::reduce({{.*}}std::multiplies<>(), dp_prod,{{.*}}
// REWRITE-NOT: {{^}}#pragma acc atomic update

  // A histogram: the bin each iteration updates is its key's. Additions
  // to elements other iterations may pick are dp::atomic_add's.
  // The arrays come from the caller: the data clauses say how far.
#pragma acc parallel loop copyin(key[0:n], w[0:n]) copy(hist[0:16], mass[0:3])
  for (int i = 0; i < n; i++) {
#pragma acc atomic
    hist[key[i]]++;
#pragma acc atomic update
    mass[key[i] % 3] -= w[i] * 2;
#pragma acc atomic
    --hist[(key[i] + 1) % 4];
  }
// DIAG: atomics.c:[[@LINE-8]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, int> dp_hist = dp::borrow(hist, 16);
// REWRITE:      const int i = idx[0];
// REWRITE-NEXT: dp::atomic_add(hist(key(i)), 1);
// REWRITE-NEXT: dp::atomic_add(mass(key(i) % 3), -(w(i) * 2));
// REWRITE-NEXT: dp::atomic_add(hist((key(i) + 1) % 4), -1);
// REWRITE-NOT: {{^}}#pragma acc atomic{{$}}
  // The same addition under a critical section (older OpenMP codes): the
  // section serialises additions, which commute; so does dp::atomic_add.
#pragma omp target teams distribute parallel for map(to: key[0:n], w[0:n]) map(tofrom: mass[0:3])
  for (int i = 0; i < n; i++) {
#pragma omp critical (bins)
    {
      mass[key[i] % 3] += w[i]; // weighed
    }
  }
// DIAG: atomics.c:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      {{ *}}dp::atomic_add(mass(key(i) % 3), w(i)); // weighed
// REWRITE-NOT: {{^}}#pragma omp critical (bins)
  // A maximum under a critical section, and OpenMP 5.1's `atomic
  // compare` keeping a minimum: dp::atomic_max, dp::atomic_min. The
  // element compared goes with the condition; the value stays as written.
#pragma omp target teams distribute parallel for map(to: key[0:n], w[0:n]) map(tofrom: peak[0:8], first[0:8])
  for (int i = 0; i < n; i++) {
#pragma omp critical
    if (w[i] * 2 > peak[key[i]])
      peak[key[i]] = w[i] * 2;
#pragma omp atomic compare
    if (first[key[i]] > i) {
      first[key[i]] = i;
    }
  }
// DIAG: atomics.c:[[@LINE-9]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      {{ *}}const int i = idx[0];
// REWRITE-NEXT: {{ *}}dp::atomic_max(peak(key(i)), w(i) * 2);
// REWRITE-NEXT: {{ *}}dp::atomic_min(first(key(i)), i);
// REWRITE-NEXT: {{ *}}}, dp_w, dp_key, dp_peak, dp_first);
  // Bits set, cleared and flipped, a product, and maxima and minima
  // written as the calls and conditional expressions C codes use.
#pragma acc parallel loop copyin(key[0:n], w[0:n]) copy(seen[0:8], kept[0:8], hist[0:8], scale[0:8], peak[0:8], first[0:8])
  for (int i = 0; i < n; i++) {
#pragma acc atomic update
    seen[key[i]] |= 1u << (i % 32);
#pragma acc atomic
    kept[key[i]] &= ~(1L << (i % 40));
#pragma acc atomic update
    hist[key[i]] ^= i;
#pragma acc atomic update
    scale[key[i]] = 0.5f * scale[key[i]];
#pragma omp critical
    peak[key[i] % 4] = fmax(w[i], peak[key[i] % 4]);
#pragma omp atomic compare
    first[key[i]] = i < first[key[i]] ? i : first[key[i]];
  }
// DIAG: atomics.c:[[@LINE-14]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      {{ *}}const int i = idx[0];
// REWRITE-NEXT: {{ *}}dp::atomic_or(seen(key(i)), 1u << (i % 32));
// REWRITE-NEXT: {{ *}}dp::atomic_and(kept(key(i)), ~(1L << (i % 40)));
// REWRITE-NEXT: {{ *}}dp::atomic_xor(hist(key(i)), i);
// REWRITE-NEXT: {{ *}}dp::atomic_mul(scale(key(i)), 0.5f);
// REWRITE-NEXT: {{ *}}dp::atomic_max(peak(key(i) % 4), w(i));
// REWRITE-NEXT: {{ *}}dp::atomic_min(first(key(i)), i);
  // A compare-and-swap (`atomic compare` setting a value where another
  // is found) has no counterpart: only a maximum's or minimum's condition.
#pragma omp target teams distribute parallel for map(to: key[0:n]) map(tofrom: first[0:8])
  for (int i = 0; i < n; i++) {
#pragma omp atomic compare
    if (first[key[i]] == -1) {
      first[key[i]] = i;
    }
  }
// DIAG: atomics.c:[[@LINE-5]]:1: warning: not converted: 'omp atomic' updates 'first[key[i]]', an element other iterations may update too, under a condition other than a maximum's or minimum's (`if (v > m[k]) m[k] = v;`); test it before the update [dp-migrate]
  // Updates of one array by two operators do not commute: the loop stays.
#pragma omp target teams distribute parallel for map(to: key[0:n], w[0:n]) map(tofrom: peak[0:8])
  for (int i = 0; i < n; i++) {
#pragma omp atomic update
    peak[key[i]] += w[i];
#pragma omp critical
    if (w[i] > peak[(key[i] + 1) % 8])
      peak[(key[i] + 1) % 8] = w[i];
  }
// DIAG: atomics.c:[[@LINE-2]]:7: warning: not converted: 'omp critical' updates 'peak[(key[i] + 1) % 8]' with dp::atomic_max, and the loop updates 'peak[key[i]]' with dp::atomic_add: updates of one array by two operators do not commute [dp-migrate]
  // Under a condition inside the section, or written in a macro, the
  // addition is not rewritten; the refusal says which.
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp critical
    if (w[i] > 0)
      hist[key[i]]++;
  }
// DIAG: atomics.c:[[@LINE-4]]:1: warning: not converted: 'omp critical' updates 'hist[key[i]]', an element other iterations may update too, under a condition other than a maximum's or minimum's (`if (v > m[k]) m[k] = v;`); test it before the update [dp-migrate]
#define COUNT(bin) hist[bin] += 1
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    COUNT(key[i]);
  }
// DIAG: atomics.c:[[@LINE-3]]:1: warning: not converted: 'omp atomic' updates 'hist[key[i]]', an element other iterations may update too, written inside a macro, whose text dpstub cannot make a call to dp's atomic updates (dp::atomic_add, ...); write the update out [dp-migrate]
  // A variable's update written in a macro is the kernel's own partial
  // value's: the macro's text stays as it is.
#define ADD(s, v) s += v
  double sum = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    ADD(sum, w[i]);
  }
// DIAG: atomics.c:[[@LINE-4]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE:      {{ *}}const int i = idx[0];
// REWRITE-NEXT: {{ *}}double sum = 0;
// REWRITE-NEXT: {{ *}}ADD(sum, w(i));
// REWRITE-NEXT: {{ *}}return sum;
  printf("%g\n", sum);
  // Without the clauses nothing says how far the keys reach.
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    hist[key[i]]++;
  }
// DIAG: atomics.c:[[@LINE-2]]:5: warning: not converted: 'hist' cannot become a dp::field: its allocation is not in this file (it comes from a caller or a call dpstub cannot see) [dp-migrate]

  // A division of such elements, elements of 16 bits (no GPU updates
  // them atomically), and a bin the loop also reads.
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    mass[key[i] % 3] /= w[i];
  }
// DIAG: atomics.c:[[@LINE-3]]:1: warning: not converted: 'omp atomic' updates 'mass[key[i] % 3]', an element other iterations may update too, by an operation no dp atomic update makes (they add, multiply, take a minimum or maximum, or and, or, xor bits) [dp-migrate]
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    small[key[i]] += 1;
  }
// DIAG: atomics.c:[[@LINE-3]]:1: warning: not converted: 'omp atomic' updates 'small[key[i]]', an element other iterations may update too, of type 'short': dp's atomic updates take 32- and 64-bit values [dp-migrate]
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    hist[key[i]] += 2;
    if (hist[0] > 100)
      t += 1;
  }
// DIAG: atomics.c:[[@LINE-3]]:9: warning: not converted: 'omp atomic' updates 'hist[key[i]]', and the loop also uses 'hist[0]': an element other iterations update can only be updated atomically in the loop [dp-migrate]

  // The variable is read elsewhere in the loop: not a reduction.
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    t += w[i];
    hist[i % 4] = (int)t;
  }
// DIAG: atomics.c:[[@LINE-4]]:1: warning: not converted: 'omp atomic' updates 't', which the loop also uses otherwise: only a reduction's update has a counterpart in a dp kernel [dp-migrate]

  // A critical section around an arg max: the value and the index set
  // with it are one reduction, of equal values the first (`>`) winning.
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp critical
    if (w[i] > biggest) {
      biggest = w[i];
      where = i;
    }
  }
// DIAG: atomics.c:[[@LINE-7]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE:      dp::scalar<dp_reduction_[[MAX:[0-9]+]]> dp_result(dp_reduction_[[MAX]]{biggest, where, std::numeric_limits<std::int64_t>::min()});
// REWRITE-NEXT: dp::reduce(dp::grid<1>(dp::arithmetic_sequence(0, n)), [](dp_reduction_[[MAX]] a, dp_reduction_[[MAX]] b) { const bool b_biggest = b.biggest > a.biggest || (b.biggest == a.biggest && b.dp_biggest_at < a.dp_biggest_at); return dp_reduction_[[MAX]]{b_biggest ? b.biggest : a.biggest, b_biggest ? b.where : a.where, b_biggest ? b.dp_biggest_at : a.dp_biggest_at}; }, dp_result, {{.*}}
// REWRITE:        int where{};
// REWRITE-NEXT:   std::int64_t dp_biggest_at = std::numeric_limits<std::int64_t>::max();
// REWRITE-NEXT:   if (w(i) > biggest) {
// REWRITE-NEXT:     biggest = w(i);
// REWRITE-NEXT:     where = i;
// REWRITE-NEXT:     dp_biggest_at = std::int64_t(i);
// REWRITE-NEXT:   }
// REWRITE-NEXT:   return dp_reduction_[[MAX]]{biggest, where, dp_biggest_at};
// REWRITE:        where = dp_result.get().where;
  // A critical section setting more than the value and its index, and a
  // capture.
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp critical
    if (w[i] > biggest) {
      biggest = w[i];
      count++;
    }
  }
// DIAG: atomics.c:[[@LINE-6]]:1: warning: not converted: 'omp critical' updates 'biggest', 'count' together: of several updates in one critical section only an arg max's (a value, and the variables set where it changes) has a counterpart in a dp kernel [dp-migrate]
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double old;
#pragma omp atomic capture
    old = t++;
    hist[i % 4] += (int)old;
  }
// DIAG: atomics.c:[[@LINE-4]]:1: warning: not converted: 'omp atomic' inside the loop has no counterpart in a dp kernel [dp-migrate]
  // Outside any loop: the host's own update stays (an `atomic update`
  // once read as a data `update`, and went without a word).
#pragma omp atomic update
  t += 1;
#pragma acc atomic update
  t += 2;
// DIAG: atomics.c:[[@LINE-2]]:1: warning: 'acc atomic update' is not carried over: dp has no counterpart for it [dp-migrate]
// REWRITE:      #pragma omp atomic update
// REWRITE-NEXT:   t += 1;
// REWRITE-NEXT: #pragma acc atomic update
  printf("%g %g %ld %d %g %g\n", total, biggest, count, where, prod, t);
}

// SUMMARY: migrated 13 of 24 loops (11 refused)
