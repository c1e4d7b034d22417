// Every kernel kind, and the rewrite of each call-site.
#include <dp/dp.hpp>
// The launchers' declarations right after <dp/dp.hpp>: before any macro
// of the user's.
// REWRITE: #include <dp/dp.hpp>
// REWRITE-NEXT: #include "forall_kernels.cpp.dpstub.hpp" // dpstub: launchers of this file's call-sites

void scale(float &out, float in, float factor) { out = in * factor; }
// REWRITE: DP_HOST_DEVICE void scale(float &out, float in, float factor) { out = in * factor; }

static float square(float x) { return x * x; }
// REWRITE: DP_HOST_DEVICE static float square(float x) { return x * x; }

struct add_square {
  float bias;
  void operator()(float &out, float in) const { out = square(in) + bias; }
// REWRITE: DP_HOST_DEVICE void operator()(float &out, float in) const { out = square(in) + bias; }
};

void run(dp::field<1, float> &out, dp::field<1, float> &in) {
  const dp::grid<1> g = out.get_grid();
  dp::forall(g, scale, out, in, 2.0f);
// REWRITE: dpstub::forall_kernels_cpp::forall_[[@LINE-1]]_3(g, scale, out, in, 2.0f);
// STUB: // dp::forall at forall_kernels.cpp:[[@LINE-2]]:3
// STUB: //   kernel:       void scale(float &out, float in, float factor) [function]
// STUB: //   compute rank: 1
// STUB: //   argument 1 `out` (dp::field<1, float>, rank 1) -> float &out: elemental projection, read-write
// STUB: //   argument 2 `in` (dp::field<1, float>, rank 1) -> float in: elemental projection, read-only (const float *__restrict__)
// STUB: //   argument 3 `2.0f` (float, rank 0) -> float factor: broadcast scalar, read-only
// STUB: template <class Kernel> struct forall_[[@LINE-8]]_3_params {
// STUB:   dp::rt::projection<float, 1> a0; // `out`: elemental projection, read-write
// STUB:   dp::rt::projection<const float, 1> a1; // `in`: elemental projection, read-only (const float *__restrict__)
// STUB:   float a2; // `2.0f`: broadcast scalar, read-only
// STUB: };
// STUB:   float v0 = p.a0[pos]; // written back below
// STUB:   const float &v1 = p.a1[pos];
// STUB:   const auto &v2 = p.a2;
// STUB:   ::scale(v0, v1, v2);
// STUB:   p.a0[pos] = v0;
// STUB: DP_GLOBAL void dp_forall__forall_kernels_cpp__[[@LINE-18]](const dp::rt::launch_geometry<1> geometry, const Params p) {
// STUB:   if (dp::rt::map_thread<Mode>(geometry, thread.group, thread.local, pos))
// STUB: void forall_[[@LINE-20]]_3(const Domain &domain, Kernel &&kernel, A &&...a) {
// STUB:   static_assert(sizeof...(A) == 3,
// STUB:   auto &&[a0, a1, a2] = std::forward_as_tuple(std::forward<A>(a)...);
// STUB:   (void)kernel; // a function: the stub calls it by name
// STUB:   dp::rt::launch_context<1> launch("dp::forall", "forall_kernels.cpp:[[@LINE-24]]:3", domain);
// STUB:       launch.project<float>(a0, 0, dp::rt::access::write),
// STUB:       launch.project<const float>(a1, 1, dp::rt::access::read),
// STUB:       a2};
// STUB:       &dp_forall__forall_kernels_cpp__[[@LINE-28]]<1, params_type>, nullptr, nullptr, nullptr, nullptr, nullptr,
// STUB:       &dp_forall__forall_kernels_cpp__[[@LINE-29]]<7, params_type>}};
  dp::forall(g, add_square{1.0f}, out, in);
// REWRITE: dpstub::forall_kernels_cpp::forall_[[@LINE-1]]_3(g, add_square{1.0f}, out, in);
// STUB: // dp::forall at forall_kernels.cpp:[[@LINE-2]]:3
// STUB: //   kernel:       void add_square::operator()(float &out, float in) [function object]
// STUB:   Kernel kernel; // captured fields refer to the launch's copies
// STUB:   p.kernel(v0, v1);
// STUB:       launch.capture(kernel, false),
  dp::forall(g, [](float &o, float i) { o = square(i); }, out, in);
// REWRITE: dpstub::forall_kernels_cpp::forall_[[@LINE-1]]_3(g, [] DP_HOST_DEVICE (float &o, float i) { o = square(i); }, out, in);
// STUB: // dp::forall at forall_kernels.cpp:[[@LINE-2]]:3
// STUB: //   kernel:       void lambda(float &o, float i) [lambda]
  auto twice = [=](float &o) { o = 2 * o; };
// REWRITE: auto twice = [=] DP_HOST_DEVICE (float &o) { o = 2 * o; };
  dp::forall(g, twice, out);
// STUB: // dp::forall at forall_kernels.cpp:[[@LINE-1]]:3
  float bias = 1.0f;
  dp::forall(g, [&](float &o) { o += bias; }, out);
// DIAG: forall_kernels.cpp:[[@LINE-1]]:38: warning: kernel lambda captures 'bias' by reference: on a GPU the reference points to host memory; capture it by value
// STUB: // dp::forall at forall_kernels.cpp:{{[0-9]+}}:3
// STUB: //   kernel:       ::lambda_{{[0-9]+}}_30 (generic) [function object]
// STUB: //   argument 1 `out` (dp::field<1, float>, rank 1) -> P0 &o: elemental projection, read-write
// STUB: //   argument 2 `in` (dp::field<1, float>, rank 1) -> P1 i: elemental projection, read-only (const float *__restrict__)
// STUB: //   kernel:       void scale_by::operator()(float &out, float in) [function object]
// STUB:   p.kernel(v0, v1);
// STUB: //   kernel:       void count_up::operator()(dp::index<1> i, float &v) [function object]
// STUB:   p.kernel(v0, v1);
}

// A generic lambda is written as a function object before its function
// (nvcc takes no generic __host__ __device__ lambda): lambda_objects.cpp
// has every such form.
// REWRITE: struct lambda_[[@LINE+2]]_30 {
void run_generic(dp::field<1, float> &out, dp::field<1, float> &in) {
  dp::forall(out.get_grid(), [](auto &o, auto i) { o += i; }, out, in);
// REWRITE: dpstub::forall_kernels_cpp::forall_[[@LINE-1]]_3(out.get_grid(), lambda_[[@LINE-1]]_30(), out, in);
}

// An operator() inherited from a base class, and from a class template's
// specialization (instantiated for the stub, as nothing here calls it).
struct scale_base {
  float factor;
  void operator()(float &out, float in) const { out = in * factor; }
// REWRITE: DP_HOST_DEVICE void operator()(float &out, float in) const { out = in * factor; }
};
struct scale_by : scale_base {};
template <int N> struct count_base {
  void operator()(dp::index<N> i, float &v) const { v = float(i[0]); }
// REWRITE: DP_HOST_DEVICE void operator()(dp::index<N> i, float &v) const { v = float(i[0]); }
};
template <int N> struct count_up : count_base<N> {};
void run_inherited(dp::field<1, float> &out, dp::field<1, float> &in) {
  const scale_by twice{{2.0f}};
  dp::forall(out.get_grid(), twice, out, in);
// REWRITE: dpstub::forall_kernels_cpp::forall_[[@LINE-1]]_3(out.get_grid(), twice, out, in);
  dp::forall(out.get_grid(), count_up<1>(), dp::_index, out);
// REWRITE: dpstub::forall_kernels_cpp::forall_[[@LINE-1]]_3(out.get_grid(), count_up<1>(), dp::_index, out);
}

// A kernel that loops itself, or calls a function of the user's that
// does: the host's rows compile it into one row loop per position type,
// not one per row counter too.
static float row_total(const dp::field<2, float> &m, int i) {
  float t = 0;
  for (int j = 0; j < m.get_grid().extent(1); ++j)
    t += m(i, j);
  return t;
}
void run_looping(dp::field<1, float> &out, const dp::field<2, float> &m) {
  dp::forall(out.get_grid(), [](dp::index<1> i, float &o, const dp::field<2, float> &m) {
    for (int j = 0; j < m.get_grid().extent(1); ++j)
      o += m(i[0], j);
  }, out, m);
// STUB: // dp::forall at forall_kernels.cpp:[[@LINE-4]]:3
// STUB: void forall_[[@LINE-5]]_3(const Domain &domain, Kernel &&kernel, A &&...a) {
// STUB:   // The kernel loops itself: the host's rows compile it once per position type.
// STUB-NEXT:   launch.run(stubs, params, dp::rt::looping([](const auto &pos, const params_type &p) DP_ALWAYS_INLINE {
  dp::forall(out.get_grid(), [](dp::index<1> i, float &o, const dp::field<2, float> &m) {
    o = row_total(m, i[0]);
  }, out, m);
// STUB: // dp::forall at forall_kernels.cpp:[[@LINE-3]]:3
// STUB: void forall_[[@LINE-4]]_3(const Domain &domain, Kernel &&kernel, A &&...a) {
// STUB:   launch.run(stubs, params, dp::rt::looping([](const auto &pos, const params_type &p) DP_ALWAYS_INLINE {
// dp's own functions do not count: a field's element access loops over
// its dimensions, and unrolls.
  dp::forall(out.get_grid(), [](dp::index<1> i, float &o, const dp::field<2, float> &m) {
    o *= m(i[0], 0);
  }, out, m);
// STUB: // dp::forall at forall_kernels.cpp:[[@LINE-3]]:3
// STUB: void forall_[[@LINE-4]]_3(const Domain &domain, Kernel &&kernel, A &&...a) {
// STUB-NOT: looping
// STUB:   launch.run(stubs, params, [](const auto &pos, const params_type &p) DP_ALWAYS_INLINE {
}
// REWRITE: #include "forall_kernels.cpp.dpstub.hpp" // dpstub: their invocation stubs
