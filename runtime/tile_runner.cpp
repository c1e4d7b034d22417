//===- tile_runner.cpp - The threads of one tile on one host thread -------===//
//
// A tile's threads must meet at barriers, so on the host they cannot simply
// run one after the other: each runs on its own fiber, and a barrier
// switches to the next thread of the tile until every thread has reached
// it. Context switching comes from a library: Boost.Context's fibers where
// the build found them (Debian's libboost-context-dev), else POSIX
// ucontext (glibc's makecontext/swapcontext, slower: each switch is a
// system call).
//
// Most tile kernels have no barrier. The first thread therefore runs on a
// fiber, and when it returns without reaching a barrier the others run as
// plain calls; a barrier one of them reaches is then the same error as a
// barrier some threads reach and others return without reaching.
//
//===----------------------------------------------------------------------===//

#include "dp/reference/host_tiles.hpp"

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#if DP_FIBERS_BOOST
#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#else
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#endif

namespace dp::detail {

namespace {

/// Each fiber's stack: guarded by an inaccessible page, and only the pages
/// a kernel touches are ever backed by memory.
constexpr std::size_t stack_bytes = 256 * 1024;

#if DP_FIBERS_BOOST
namespace ctx = boost::context;

/// Stacks for this host thread's fibers, reused from tile to tile.
struct stack_pool {
  std::vector<ctx::stack_context> free;
  ~stack_pool() {
    ctx::protected_fixedsize_stack allocator(stack_bytes);
    for (ctx::stack_context &s : free)
      allocator.deallocate(s);
  }
  static stack_pool &local() {
    static thread_local stack_pool pool;
    return pool;
  }
};

/// Boost.Context's StackAllocator over the pool.
struct pooled_stack {
  ctx::stack_context allocate() {
    stack_pool &pool = stack_pool::local();
    if (pool.free.empty())
      return ctx::protected_fixedsize_stack(stack_bytes).allocate();
    ctx::stack_context s = pool.free.back();
    pool.free.pop_back();
    return s;
  }
  void deallocate(ctx::stack_context &s) noexcept {
    try {
      stack_pool::local().free.push_back(s);
    } catch (...) {
      ctx::protected_fixedsize_stack(stack_bytes).deallocate(s);
    }
  }
};

/// One tile thread's fiber. A fiber destroyed while suspended at a barrier
/// (the tile failed) is unwound: its frames' destructors run.
class fiber_thread {
public:
  /// Runs body(arg) on a new fiber until it suspends or returns.
  void start(void (*body)(void *), void *arg) {
    fiber_ = ctx::fiber(std::allocator_arg, pooled_stack(),
                        [this, body, arg](ctx::fiber &&caller) {
                          caller_ = std::move(caller);
                          body(arg);
                          return std::move(caller_);
                        });
    resume();
  }
  void resume() { fiber_ = std::move(fiber_).resume(); }
  /// From inside the fiber: back to whoever resumed it.
  void suspend() { caller_ = std::move(caller_).resume(); }

private:
  ctx::fiber fiber_, caller_;
};

/// Exceptions a suspended fiber's unwinding throws through the thread's
/// frames: they must reach Boost.Context, not the tile.
#define DP_RETHROW_FIBER_UNWIND                                                                    \
  catch (const ctx::detail::forced_unwind &) {                                                    \
    throw;                                                                                         \
  }
#else
/// POSIX ucontext stacks, reused from tile to tile.
struct stack_pool {
  std::vector<void *> free;
  static std::size_t page() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }
  ~stack_pool() {
    for (void *s : free)
      munmap(s, stack_bytes + page());
  }
  static stack_pool &local() {
    static thread_local stack_pool pool;
    return pool;
  }
  void *take() {
    if (!free.empty()) {
      void *s = free.back();
      free.pop_back();
      return s;
    }
    void *s = mmap(nullptr, stack_bytes + page(), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED)
      throw std::bad_alloc();
    mprotect(s, page(), PROT_NONE); // the guard page: stacks grow down
    return s;
  }
};

/// One tile thread's context. A tile that fails abandons its suspended
/// threads: their frames are not unwound (Boost.Context builds unwind them).
class fiber_thread {
public:
  fiber_thread() = default;
  fiber_thread(const fiber_thread &) = delete;
  fiber_thread &operator=(const fiber_thread &) = delete;
  ~fiber_thread() {
    if (stack_)
      stack_pool::local().free.push_back(stack_);
  }
  void start(void (*body)(void *), void *arg) {
    body_ = body;
    arg_ = arg;
    stack_ = stack_pool::local().take();
    getcontext(&self_);
    self_.uc_stack.ss_sp = stack_;
    self_.uc_stack.ss_size = stack_bytes + stack_pool::page();
    self_.uc_link = &caller_; // a returning thread resumes the scheduler
    const auto p = reinterpret_cast<std::uintptr_t>(this);
    makecontext(&self_, reinterpret_cast<void (*)()>(&trampoline), 2,
                static_cast<unsigned>(p >> 32), static_cast<unsigned>(p & 0xffffffffu));
    resume();
  }
  void resume() { swapcontext(&caller_, &self_); }
  void suspend() { swapcontext(&self_, &caller_); }

private:
  static void trampoline(unsigned hi, unsigned lo) {
    auto *self = reinterpret_cast<fiber_thread *>((std::uintptr_t(hi) << 32) | lo);
    self->body_(self->arg_);
  }
  ucontext_t self_{}, caller_{};
  void *stack_ = nullptr;
  void (*body_)(void *) = nullptr;
  void *arg_ = nullptr;
};

#define DP_RETHROW_FIBER_UNWIND
#endif

enum class thread_state : unsigned char { running, waiting, returned };

/// The tile being run on this host thread.
struct tile_run {
  const tile_threads &threads;
  std::unique_ptr<fiber_thread[]> fibers;
  std::vector<thread_state> state;
  std::int64_t current = 0;
  bool plain = false; ///< the first thread returned without a barrier
  std::exception_ptr error;
  unsigned char *arena = nullptr;

  explicit tile_run(const tile_threads &t)
      : threads(t), fibers(new fiber_thread[static_cast<std::size_t>(t.count)]),
        state(static_cast<std::size_t>(t.count), thread_state::running) {}
};

thread_local tile_run *active = nullptr;

/// This host thread's tile memory, grown between tiles as needed.
unsigned char *arena_of_at_least(std::size_t bytes) {
  struct arena {
    unsigned char *data = nullptr;
    std::size_t size = 0;
    ~arena() { ::operator delete(data, std::align_val_t(tile_memory_alignment)); }
  };
  static thread_local arena a;
  if (a.size < bytes || !a.data) {
    ::operator delete(a.data, std::align_val_t(tile_memory_alignment));
    a.data = nullptr;
    a.size = 0;
    const std::size_t size = bytes ? bytes : 1;
    a.data = static_cast<unsigned char *>(
        ::operator new(size, std::align_val_t(tile_memory_alignment)));
    a.size = size;
  }
  return a.data;
}

struct thread_start {
  tile_run *run;
  std::int64_t k;
};

/// A fiber's body: thread k of the tile, its exception kept for the tile.
void fiber_body(void *arg) {
  const thread_start start = *static_cast<thread_start *>(arg);
  tile_run &run = *start.run;
  try {
    run.threads.run(run.threads.ctx, start.k);
  }
  DP_RETHROW_FIBER_UNWIND
  catch (...) {
    run.error = std::current_exception();
  }
  run.state[static_cast<std::size_t>(start.k)] = thread_state::returned;
}

[[noreturn]] void diverged(std::int64_t waiting, std::int64_t returned) {
  fail("thread " + std::to_string(waiting) + " of the tile (row-major in the tile) reached a " +
       "barrier that thread " + std::to_string(returned) +
       " returned without reaching; every thread of a tile must reach the same barriers "
       "(padding threads too: test in_domain() around the work, not around the barrier)");
}

void start_thread(tile_run &run, std::int64_t k) {
  run.current = k;
  thread_start start{&run, k};
  run.fibers[static_cast<std::size_t>(k)].start(&fiber_body, &start);
}

} // namespace

void run_tile_threads(const tile_threads &threads, std::size_t arena_bytes) {
  if (threads.count <= 0)
    return;
  tile_run run(threads);
  run.arena = arena_of_at_least(arena_bytes);
  struct restore {
    tile_run *saved;
    ~restore() { active = saved; }
  } guard{active};
  active = &run;

  start_thread(run, 0);
  if (run.error)
    std::rethrow_exception(run.error);
  if (run.state[0] == thread_state::returned) {
    run.plain = true; // no barrier: the others are plain calls
    for (std::int64_t k = 1; k < threads.count; ++k) {
      run.current = k;
      threads.run(threads.ctx, k);
    }
    return;
  }
  for (std::int64_t k = 1; k < threads.count && !run.error; ++k)
    start_thread(run, k);
  for (;;) {
    if (run.error)
      std::rethrow_exception(run.error); // suspended fibers are unwound with `run`
    std::int64_t waiting = -1, returned = -1;
    for (std::int64_t k = 0; k < threads.count; ++k) {
      const thread_state s = run.state[static_cast<std::size_t>(k)];
      if (s == thread_state::waiting && waiting < 0)
        waiting = k;
      if (s == thread_state::returned && returned < 0)
        returned = k;
    }
    if (waiting < 0)
      return; // every thread returned
    if (returned >= 0)
      diverged(waiting, returned);
    for (std::int64_t k = 0; k < threads.count && !run.error; ++k) {
      run.state[static_cast<std::size_t>(k)] = thread_state::running;
      run.current = k;
      run.fibers[static_cast<std::size_t>(k)].resume();
    }
  }
}

unsigned char *host_tile_arena() { return active ? active->arena : nullptr; }

void host_tile_barrier() {
  tile_run *run = active;
  if (!run)
    fail("dp::tile_group::barrier() called outside a tiled kernel");
  if (run->plain)
    diverged(run->current, 0);
  run->state[static_cast<std::size_t>(run->current)] = thread_state::waiting;
  run->fibers[static_cast<std::size_t>(run->current)].suspend();
}

void host_tile_memory_full(std::size_t needed, std::size_t capacity) {
  fail("the tile's dp::tile_static objects need " + std::to_string(needed) +
       " bytes of tile memory, more than the " + std::to_string(capacity) + " it has");
}

} // namespace dp::detail
