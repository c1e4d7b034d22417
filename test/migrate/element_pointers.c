// Pointers into an element's parts kept beyond their statement: `&a[k]`,
// `&a[k].m`, `&a[k].keys[j]`, or a member array used as a pointer. A
// field's host copy is current only through the field, so such an array
// cannot become one; its loops borrow it instead, and the pointers read
// what the loop wrote once its block ends.
#include <stdio.h>
#include <stdlib.h>

struct node {
  int keys[4];
  double w;
};

int main(void) {
  int n = 50;
  struct node *nodes = (struct node *)malloc(n * sizeof(struct node));
  struct node *more = (struct node *)malloc(n * sizeof(struct node));
  for (int b = 0; b < n; b++)
    for (int t = 0; t < 4; t++)
      nodes[b].keys[t] = more[b].keys[t] = b * t;
  int *key = &nodes[3].keys[1];
  int *row = more[4].keys;
#pragma omp parallel for
  for (int b = 0; b < n; b++) {
    nodes[b].w = 0;
    for (int t = 0; t < 4; t++) {
      nodes[b].keys[t] += 1;
      more[b].keys[t] += 2;
      nodes[b].w += nodes[b].keys[t];
    }
  }
// DIAG: element_pointers.c:[[@LINE-8]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      struct node *nodes = (struct node *)malloc(n * sizeof(struct node));
// REWRITE-NEXT: struct node *more = (struct node *)malloc(n * sizeof(struct node));
// REWRITE:      dp::field<1, struct node> dp_nodes = dp::borrow(nodes, n > 0 ? n : 0);
// REWRITE-NEXT: dp::field<1, struct node> dp_more = dp::borrow(more, n > 0 ? n : 0);
  printf("%d %d %g\n", *key, row[2], nodes[7].w);
  free(nodes);
  free(more);
  return 0;
}
// SUMMARY: migrated 1 of 1 loop (0 refused)
