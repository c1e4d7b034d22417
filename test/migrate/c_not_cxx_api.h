/* Declared twice over: one with its prototype, one without. */
void fill(int n, double *a);
int count();
int save();
/* A parameter named by a C++ keyword, in a header dpstub does not edit
   (NPB's `npb-C.h`: `char class`). */
void label(int n, char class);
