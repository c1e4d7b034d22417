// Each misuse of tiles and of non-rectangular domains is an error at what it
// concerns; the host reference rejects the same programs, at compile time
// or, for a divergent barrier, at run time. A barrier under a condition the
// whole tile shares, and tile memory declared in a callee, are fine.
// EXIT: 1
#include <dp/dp.hpp>

#include <functional>

void helper(const dp::tile_group<1> &t) {
  dp::tile_static<int[64]> scratch(t);
  scratch[t.local()[0]] = 0;
}

void misuse(dp::field<1, float> &v, dp::field<2, float> &m) {
  dp::forall(v.get_grid(), [](dp::index<1> t, float &x) { x = float(t[0]); }, dp::_tile_index, v);
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:79: error: argument 1 is a tile token, but this dp::forall is not over a tiled domain: write dp::tile<T0, ...>(grid) to run it in tiles
  dp::forall(dp::tile<16>(v.get_grid()), [](dp::index<1> t, float &x) { x = 0; }, dp::_tile, v);
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:83: error: argument 1 is dp::_tile, but kernel parameter 't' is not a dp::tile_group<1> taken by value or const&
  dp::forall(dp::tile<16>(v.get_grid()), [](dp::tile_group<1> &t, float &x) { x = 0; }, dp::_tile, v);
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:89: error: argument 1 is dp::_tile, but kernel parameter 't' is not a dp::tile_group<1> taken by value or const&
  dp::forall(dp::tile<16>(v.get_grid()),
             [](const dp::tile_group<1> &t, float &x) {
               if (t.in_domain())
                 t.barrier();
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:20: error: barrier under a condition that depends on the thread: the threads of a tile that skip it never meet the others (padding threads run the kernel too, with in_domain() false); move the barrier out of the condition
// DIAG: tiles_diagnostics.cpp:[[@LINE-3]]:22: note: this condition depends on the thread through 't.in_domain()'
               x = 1;
             },
             dp::_tile, v);
  dp::forall(dp::tile<16>(v.get_grid()),
             [](const dp::tile_group<1> &t, const float &x) {
               const bool first = t.local()[0] == 0;
               while (first)
                 t.barrier();
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:20: error: barrier under a condition that depends on the thread: the threads of a tile that skip it never meet the others (padding threads run the kernel too, with in_domain() false); move the barrier out of the condition
// DIAG: tiles_diagnostics.cpp:[[@LINE-3]]:23: note: this condition depends on the thread through 'first'
             },
             dp::_tile, v);
  dp::forall(dp::tile<16>(v.get_grid()),
             [](const dp::tile_group<1> &t, float &x) {
               if (x > 0)
                 t.barrier();
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:20: error: barrier under a condition that depends on the thread: the threads of a tile that skip it never meet the others (padding threads run the kernel too, with in_domain() false); move the barrier out of the condition
// DIAG: tiles_diagnostics.cpp:[[@LINE-3]]:20: note: this condition depends on the thread through 'x'
             },
             dp::_tile, v);
  dp::field<2, float> sums(m.get_grid());
  dp::scan<1>(dp::tile<4, 4>(m.get_grid()), std::plus<>(), sums, [](float x) { return x; }, m);
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:15: error: the compute domain of dp::scan<1> must be a dp::grid<N> (tiled, dp::where and triangle domains are for dp::forall and the full dp::reduce), not 'dp::tiled_grid<2, 4, 4>'
  dp::scalar<float> s(0);
  dp::reduce(dp::tile<16>(v.get_grid()), std::plus<>(), s,
             [](const dp::tile_group<1> &t, float x) {
               if (x > 0)
                 t.barrier();
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:20: error: barrier under a condition that depends on the thread: the threads of a tile that skip it never meet the others (padding threads run the kernel too, with in_domain() false); move the barrier out of the condition
// DIAG: tiles_diagnostics.cpp:[[@LINE-3]]:20: note: this condition depends on the thread through 'x'
               return x;
             },
             dp::_tile, v);
  dp::reduce(v.get_grid(), std::plus<>(), s, [](dp::index<1> t) { return float(t[0]); },
             dp::_local_index);
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:14: error: argument 1 is a tile token, but this dp::reduce is not over a tiled domain: write dp::tile<T0, ...>(grid) to run it in tiles
  dp::field<1, float> r(dp::grid<1>(3));
  dp::reduce<1>(dp::lower_triangle(3), std::plus<>(), r, [](float x) { return x; }, m);
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:17: error: the compute domain of dp::reduce<1> must be a dp::grid<N> (tiled, dp::where and triangle domains are for dp::forall and the full dp::reduce), not 'dp::triangle_domain<dp::triangle_part::lower>'
}

// What varies reaches a callee through its parameters: `level` is a
// per-point value at the call below, `rounds` the same for every thread.
void settle(const dp::tile_group<1> &t, float level, int rounds) {
  for (int r = 0; r < rounds; ++r)
    t.barrier();
  if (level > 0)
    t.barrier();
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:7: error: barrier under a condition that depends on the thread: the threads of a tile that skip it never meet the others (padding threads run the kernel too, with in_domain() false); move the barrier out of the condition
// DIAG: tiles_diagnostics.cpp:[[@LINE-3]]:7: note: this condition depends on the thread through 'level'
}

// ... and out of one through its result.
bool leads(const dp::tile_group<1> &t) { return t.local()[0] == 0; }

void through_callees(dp::field<1, float> &v) {
  dp::forall(dp::tile<16>(v.get_grid()),
             [](const dp::tile_group<1> &t, float &x) { settle(t, x * 2, 3); }, dp::_tile, v);
  dp::forall(dp::tile<16>(v.get_grid()),
             [](const dp::tile_group<1> &t, float &x) {
               if (leads(t))
                 t.barrier();
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:20: error: barrier under a condition that depends on the thread: the threads of a tile that skip it never meet the others (padding threads run the kernel too, with in_domain() false); move the barrier out of the condition
// DIAG: tiles_diagnostics.cpp:[[@LINE-3]]:20: note: this condition depends on the thread through 'leads(t)'
               x = 1;
             },
             dp::_tile, v);
}

// A lambda nested in the kernel and called from it is seen once.
void nested_step(dp::field<1, float> &v) {
  dp::forall(dp::tile<16>(v.get_grid()),
             [](const dp::tile_group<1> &t, float &x) {
               auto step = [&]() {
                 if (t.in_domain())
                   t.barrier();
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:22: error: barrier under a condition that depends on the thread: the threads of a tile that skip it never meet the others (padding threads run the kernel too, with in_domain() false); move the barrier out of the condition
// DIAG: tiles_diagnostics.cpp:[[@LINE-3]]:24: note: this condition depends on the thread through 't.in_domain()'
               };
               step();
               x = 1;
             },
             dp::_tile, v);
}

void fine(dp::field<1, float> &v) {
  dp::forall(dp::tile<16>(v.get_grid()),
             [](const dp::tile_group<1> &t, float &x) {
               for (int step = 0; step < 4; ++step)
                 t.barrier();
               if (t.tile()[0] % 2 == 0)
                 t.barrier();
               helper(t);
               x = 2;
             },
             dp::_tile, v);
}

bool positive(dp::index<1> i) { return i[0] > 0; }

void more(dp::field<1, float> &v) {
  dp::forall(v.get_grid(),
             [](float &x) {
               dp::tile_group<1> none;
               dp::tile_static<float> s(none);
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:39: error: dp::tile_static<float> in the kernel of a dp::forall that is not over a tiled domain: tile memory exists only for the threads of a tile (a dp::forall or dp::reduce over dp::tile<T0, ...>(grid))
               x = s.get();
             },
             v);
  dp::forall(dp::where(v.get_grid(), positive), [](float &x) { x = 0; }, v);
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:14: warning: dp::forall call-site left untouched: the dp::where predicate is a function pointer, which a GPU cannot call; pass a lambda or a function object
  dp::forall(dp::where(v.get_grid(), &positive), [](float &x) { x = 0; }, v);
// DIAG: tiles_diagnostics.cpp:[[@LINE-1]]:14: warning: dp::forall call-site left untouched: the dp::where predicate is a function pointer, which a GPU cannot call; pass a lambda or a function object
}
