/* A function of the caller's file (main.c) that the kernels call: once
 * net.c is C++, it must still call it by its C name. */
#ifndef PROGRESS_H
#define PROGRESS_H
void progress(const char *stage, int n);
#endif
