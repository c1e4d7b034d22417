/* Declared twice over: one with its prototype, one without. */
void fill(int n, double *a);
int count();
int save();
