// A plain loop in a file without main, asked for by --selection: its
// pointers come from callers, so once dpstub proves the iterations
// independent the call-site borrows them, as far as the accesses reach.
// SELECTION: 7:1-18:1

void shift_right(int n, const double *in, double *out) {
  for (int i = 0; i < n; i++)
    out[i] = 2.0 * in[i + 1];
// DIAG: borrow_plain.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, double> dp_out = dp::borrow(out, n > 0 ? n : 0);
// REWRITE-NEXT: dp::field<1, const double> dp_in = dp::borrow(in, n > 0 ? n + 1 : 0);

  // In place, one element to the left: the iterations depend on one
  // another, so the loop stays.
  for (int i = 1; i < n; i++)
    out[i - 1] = out[i];
// DIAG: borrow_plain.c:[[@LINE-1]]:18: warning: not converted: 'out[i]' and 'out[i - 1]' touch the same element from iterations (1) apart, so they must run in order [dp-migrate]
// DIAG: borrow_plain.c:[[@LINE-2]]:5: note: the other access
}

// SUMMARY: migrated 1 of 2 loops (1 refused)
