// A proxy application's allocation helpers (LULESH keeps these in its
// header): templates over the element type, the count their parameter.
#include <stdlib.h>

template <typename T>
T *Allocate(size_t size) {
  return static_cast<T *>(malloc(sizeof(T) * size));
}

template <typename T>
void Release(T **ptr) {
  if (*ptr != NULL) {
    free(*ptr);
    *ptr = NULL;
  }
}

// Sets the pointer to null and releases nothing: not a release.
template <typename T>
void Forget(T **ptr) {
  *ptr = NULL;
}
