// A return, break, continue or goto that some threads of a tile take and
// others not, ahead of a barrier the others then wait at forever: an error
// at the exit, with notes at the condition and at the barrier skipped. The
// host reference finds the same programs only when they run (a barrier
// some threads never reach).
// EXIT: 1
#include <dp/dp.hpp>

#include <functional>

void meet(const dp::tile_group<1> &t) { t.barrier(); }
float clamp_positive(float x) {
  if (x < 0)
    return 0; // no barrier in this function: returning early is fine
  return x;
}

void early_returns(dp::field<1, float> &v) {
  dp::forall(dp::tile<16>(v.get_grid()),
             [](const dp::tile_group<1> &t, float &x) {
               if (!t.in_domain())
                 return;
// DIAG: tiles_early_exits.cpp:[[@LINE-1]]:18: error: return under a condition that depends on the thread, before a barrier: the threads of a tile that return never meet the others there (padding threads run the kernel too, with in_domain() false); let every thread reach the barrier and guard the work instead
// DIAG: tiles_early_exits.cpp:[[@LINE-3]]:23: note: this condition depends on the thread through 't.in_domain()'
               x = 1;
               t.barrier();
// DIAG: tiles_early_exits.cpp:[[@LINE-1]]:18: note: the barrier those threads never reach
             },
             dp::_tile, v);
  dp::scalar<float> s(0);
  dp::reduce(dp::tile<16>(v.get_grid()), std::plus<>(), s,
             [](const dp::tile_group<1> &t, float x) {
               if (x < 0)
                 return 0.0f;
// DIAG: tiles_early_exits.cpp:[[@LINE-1]]:18: error: return under a condition that depends on the thread, before a barrier: the threads of a tile that return never meet the others there (padding threads run the kernel too, with in_domain() false); let every thread reach the barrier and guard the work instead
// DIAG: tiles_early_exits.cpp:[[@LINE-3]]:20: note: this condition depends on the thread through 'x'
               meet(t);
// DIAG: tiles_early_exits.cpp:[[@LINE-1]]:16: note: the barrier those threads never reach
               return x;
             },
             dp::_tile, v);
  // In loops: a break skips the barriers of the iterations it leaves, a
  // return those of later iterations, a continue the ones after it.
  dp::forall(dp::tile<16>(v.get_grid()),
             [](const dp::tile_group<1> &t, float &x) {
               for (int k = 0; k < 4; ++k) {
                 t.barrier();
                 if (x > float(k))
                   break;
// DIAG: tiles_early_exits.cpp:[[@LINE-1]]:20: error: break under a condition that depends on the thread, before a barrier: the threads of a tile that leave the loop never meet the others there (padding threads run the kernel too, with in_domain() false); let every thread reach the barrier and guard the work instead
// DIAG: tiles_early_exits.cpp:[[@LINE-3]]:22: note: this condition depends on the thread through 'x'
// DIAG: tiles_early_exits.cpp:[[@LINE-5]]:20: note: the barrier those threads never reach
               }
               for (int k = 0; k < 4; ++k) {
                 if (t.local()[0] == k)
                   continue;
// DIAG: tiles_early_exits.cpp:[[@LINE-1]]:20: error: continue under a condition that depends on the thread, before a barrier: the threads of a tile that skip to the next iteration never meet the others there (padding threads run the kernel too, with in_domain() false); let every thread reach the barrier and guard the work instead
// DIAG: tiles_early_exits.cpp:[[@LINE-3]]:24: note: this condition depends on the thread through 't.local()'
                 meet(t);
// DIAG: tiles_early_exits.cpp:[[@LINE-1]]:18: note: the barrier those threads never reach
               }
               while (true) {
                 t.barrier();
                 if (!t.in_domain())
                   return;
// DIAG: tiles_early_exits.cpp:[[@LINE-1]]:20: error: return under a condition that depends on the thread, before a barrier: the threads of a tile that return never meet the others there (padding threads run the kernel too, with in_domain() false); let every thread reach the barrier and guard the work instead
// DIAG: tiles_early_exits.cpp:[[@LINE-3]]:25: note: this condition depends on the thread through 't.in_domain()'
// DIAG: tiles_early_exits.cpp:[[@LINE-5]]:20: note: the barrier those threads never reach
                 x += 1;
               }
             },
             dp::_tile, v);
  // Fine: a return after the last barrier, one in a nested lambda, one in
  // a callee without a barrier; a continue after the loop's barrier, a
  // break out of a switch or a loop with no barrier left to skip.
  dp::forall(dp::tile<16>(v.get_grid()),
             [](const dp::tile_group<1> &t, float &x) {
               for (int k = 0; k < 4; ++k) {
                 t.barrier();
                 if (x > float(k))
                   continue;
                 switch (k) {
                 case 1:
                   if (x < 0)
                     break;
                   x += 1;
                   break;
                 default:
                   break;
                 }
               }
               for (int k = 0; k < 4; ++k)
                 if (x > float(k))
                   break;
               t.barrier();
             },
             dp::_tile, v);
  dp::reduce(dp::tile<16>(v.get_grid()), std::plus<>(), s,
             [](const dp::tile_group<1> &t, float x) {
               auto square = [](float y) {
                 if (y < 0)
                   return -y * y;
                 return y * y;
               };
               const float c = clamp_positive(x);
               t.barrier();
               if (!t.in_domain())
                 return 0.0f;
               return square(c);
             },
             dp::_tile, v);
}

// A goto the thread decides is an exit too: forward over a barrier, back
// before one (those threads meet it once more than the others), or out of
// a loop whose later iterations meet one.
void gotos(dp::field<1, float> &v) {
  dp::forall(dp::tile<16>(v.get_grid()),
             [](const dp::tile_group<1> &t, float &x) {
               if (!t.in_domain())
                 goto done;
// DIAG: tiles_early_exits.cpp:[[@LINE-1]]:18: error: goto under a condition that depends on the thread, before a barrier: the threads of a tile that jump never meet the others there (padding threads run the kernel too, with in_domain() false); let every thread reach the barrier and guard the work instead
// DIAG: tiles_early_exits.cpp:[[@LINE-3]]:23: note: this condition depends on the thread through 't.in_domain()'
               x = 1;
               t.barrier();
// DIAG: tiles_early_exits.cpp:[[@LINE-1]]:18: note: the barrier those threads never reach
             done:
               x += 1;
             },
             dp::_tile, v);
  dp::forall(dp::tile<16>(v.get_grid()),
             [](const dp::tile_group<1> &t, float &x) {
               int k = 0;
             again:
               t.barrier();
               if (x > float(k++))
                 goto again;
// DIAG: tiles_early_exits.cpp:[[@LINE-1]]:18: error: goto under a condition that depends on the thread, before a barrier: the threads of a tile that jump never meet the others there (padding threads run the kernel too, with in_domain() false); let every thread reach the barrier and guard the work instead
// DIAG: tiles_early_exits.cpp:[[@LINE-3]]:20: note: this condition depends on the thread through 'x'
// DIAG: tiles_early_exits.cpp:[[@LINE-5]]:18: note: the barrier those threads never reach
             },
             dp::_tile, v);
  dp::forall(dp::tile<16>(v.get_grid()),
             [](const dp::tile_group<1> &t, float &x) {
               for (int k = 0; k < 4; ++k) {
                 t.barrier();
                 if (t.local()[0] == k)
                   goto out;
// DIAG: tiles_early_exits.cpp:[[@LINE-1]]:20: error: goto under a condition that depends on the thread, before a barrier: the threads of a tile that jump never meet the others there (padding threads run the kernel too, with in_domain() false); let every thread reach the barrier and guard the work instead
// DIAG: tiles_early_exits.cpp:[[@LINE-3]]:24: note: this condition depends on the thread through 't.local()'
// DIAG: tiles_early_exits.cpp:[[@LINE-5]]:20: note: the barrier those threads never reach
               }
             out:
               x = 1;
             },
             dp::_tile, v);
  // Fine: a goto over no barrier, one onto a label the barrier carries, and
  // one the whole tile takes.
  dp::forall(dp::tile<16>(v.get_grid()),
             [](const dp::tile_group<1> &t, float &x) {
               t.barrier();
               if (x < 0)
                 goto skip;
               x = 1;
             skip:
               t.barrier();
               for (int k = 0; k < 4; ++k) {
                 if (x > float(k))
                   goto next;
                 x += 1;
               next:;
               }
               if (t.tile()[0] == 0)
                 goto end;
               t.barrier();
             end:
               x += 1;
             },
             dp::_tile, v);
}
