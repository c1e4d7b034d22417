// A program whose plain loop Neovim converts at the cursor (line 12),
// through dpstub-lsp's "Convert this loop to a dp call-site".
#include <cstdio>
#include <cstdlib>

int main() {
  const int n = 1000;
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = i % 17;
  for (int i = 0; i < n; ++i)
    b[i] = 0.5 * a[i] + 1;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += b[i];
  printf("%.17g\n", s);
  free(a);
  free(b);
  return 0;
}
