// Unstructured data directives over memory that stays a pointer (a
// class's member arrays, a caller's pointer): once every loop of the file
// converts, `enter data` becomes dp::enter_data, which keeps the block
// the call-sites borrow alive (on a device, resident between them),
// `exit data` dp::exit_data and `update` dp::update_host/update_device
// over the pointer. `this` needs nothing: the kernels take the members'
// values. A pointer without a length from its first element keeps its
// directive, with the reason.
#include <cstdio>

class Grid {
  int n;
  double *u, *v;

public:
  explicit Grid(int n) : n(n), u(new double[n]), v(new double[n]) {
#pragma acc enter data copyin(this) create(u[0:n], v[0:n])
  }
// REWRITE: explicit Grid(int n) : n(n), u(new double[n]), v(new double[n]) {
// REWRITE-NEXT: dp::enter_data(u, n); dp::enter_data(v, n);
// REWRITE-NEXT: }
  ~Grid() {
#pragma acc exit data delete(u[0:n], v[0:n], this)
    delete[] u;
    delete[] v;
  }
// REWRITE: ~Grid() {
// REWRITE-NEXT: dp::exit_data(u); dp::exit_data(v);
// REWRITE-NEXT: delete[] u;

  void fill() {
#pragma acc parallel loop present(u[0:n], v[0:n])
    for (int i = 0; i < n; i++) {
      u[i] = i;
      v[i] = 0;
    }
  }
// DIAG: resident.cpp:[[@LINE-5]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, double> dp_u = dp::borrow(u, n);
// REWRITE-NEXT: dp::field<1, double> dp_v = dp::borrow(v, n);

  void smooth() {
#pragma acc parallel loop present(u[0:n], v[0:n]) async(1)
    for (int i = 1; i < n - 1; i++)
      v[i] = (u[i - 1] + u[i] + u[i + 1]) / 3;
#pragma acc update self(v[0:n]) async(1)
#pragma acc wait(1)
  }
// DIAG: resident.cpp:[[@LINE-5]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::update_host(dp_async_queue(1), v, n);
// REWRITE-NEXT: dp_async_queue(1).wait();

  void host_edit() {
    v[0] = -1; // the host writes its copy, then sends it
#pragma acc update device(v[0:1])
  }
// REWRITE: v[0] = -1; // the host writes its copy, then sends it
// REWRITE-NEXT: dp::update_device(v, 1);

  double at(int i) const { return v[i]; }
};

void scale(int n, float *p, float *q) {
#pragma omp target enter data map(to: p[0:n])
#pragma omp target enter data map(to: q)
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    p[i] = 2 * p[i];
#pragma omp target update from(p[0:n])
#pragma omp target exit data map(delete: p[0:n])
}
// DIAG: resident.cpp:[[@LINE-5]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::enter_data(p, n);
// REWRITE-NEXT: #pragma omp target enter data map(to: q)
// REWRITE: dp::update_host(p, n);
// REWRITE-NEXT: dp::exit_data(p);

// A window (Gaussian elimination's column below the pivot, its first
// element depending on `t`) inside the entered array: the block held
// from dp::enter_data on serves it.
void eliminate(int size, int t, float *m) {
#pragma acc enter data copyin(m[0:size * size])
#pragma acc parallel loop
  for (int i = 0; i < size - 1 - t; i++)
    m[size * (i + t + 1) + t] = 0;
#pragma acc exit data copyout(m[0:size * size])
}
// DIAG: resident.cpp:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::enter_data(m, size * size);
// REWRITE: dp::field<1, float> dp_m = dp::borrow(m + dp_m_first, dp::grid<1>(dp::arithmetic_sequence(dp_m_first, dp_m_end)));
// REWRITE: dp::exit_data(m);

// A data region whose arrays it only hands to functions of this file,
// whose every use of them is in a converted loop (Gaussian elimination's
// forward pass): the region borrows them for its whole extent, and the
// windows the loops borrow at each step are served by its blocks.
void fan(float *m, int size, int t) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < size - 1 - t; i++)
    m[size * (i + t + 1) + t] *= 0.5f;
}
// DIAG: resident.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
void forward(int size, float *m) {
#pragma omp target data map(tofrom: m[0:size * size])
  for (int t = 0; t < size - 1; t++)
    fan(m, size, t);
}
// REWRITE: void forward(int size, float *m) {
// REWRITE-NEXT: {
// REWRITE-NEXT: dp::field<1, float> dp_region_m = dp::borrow(m, size * size);
// REWRITE-NEXT: for (int t = 0; t < size - 1; t++)
// REWRITE-NEXT: fan(m, size, t);
// REWRITE-NEXT: }

// The same with a callee that also reads the array on the host: the
// region cannot hold it (each loop borrows on its own), and with no loop
// left for OpenMP, here or in the functions it calls, its directive goes.
void fan_logged(float *m, int size, int t) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < size - 1 - t; i++)
    m[size * (i + t + 1) + t] *= 0.5f;
  std::printf("%f\n", m[0]);
}
// DIAG: resident.cpp:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
void forward_logged(int size, float *m) {
#pragma omp target data map(tofrom: m[0:size * size])
  for (int t = 0; t < size - 1; t++)
    fan_logged(m, size, t);
}
// REWRITE-NOT: #pragma omp target data
// REWRITE: void forward_logged(int size, float *m) {
// REWRITE-NEXT: for (int t = 0; t < size - 1; t++)

int main() {
  Grid g(8);
  g.fill();
  g.smooth();
  g.host_edit();
  float p[4] = {1, 2, 3, 4};
  scale(4, p, p);
  float m[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  eliminate(3, 0, m);
  forward(3, m);
  forward_logged(3, m);
  std::printf("%f %f %f %f %f\n", g.at(0), g.at(3), double(p[3]), double(m[3]), double(m[4]));
  return 0;
}
// DIAG: resident.cpp:65:1: warning: 'omp target enter data' is not carried over: 'q' stays a pointer, and its clause gives no length from its first element ('q[0:n]') [dp-migrate]
// SUMMARY: migrated 6 of 6 loops (0 refused)
