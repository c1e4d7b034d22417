#!/usr/bin/env bash
# Sets up, builds and runs the benchmarks; prints their ratio tables (every
# ratio taken within one run, on this machine):
#   - the host backend (2 threads) against hand-written oneTBB, translated
#     by dpstub (the stubs' native host path) and untranslated;
#   - dpstub's cost against clang++ -fsyntax-only, and --all -j 1 vs -j 2;
#   - dpstub-lsp's latency on a parsed file;
#   - dp::mpi on 2 ranks: weak scaling, exchange cost, overlap.
#   bash scripts/bench.sh [host|tool|mpi]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${DPSTUB_BUILD_DIR:-build}
which=${1:-all}
bash scripts/setup.sh >/dev/null
bash scripts/build.sh >/dev/null
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -m)"
if [ "$which" = all ] || [ "$which" = host ]; then
  cmake --build "$build" --target host_bench host_bench_dp >/dev/null
  echo; echo "## Host backend, translated by dpstub"
  "$build/bench/host_bench_dp" 2>/dev/null | sed -n '/^Host backend/,$p'
  echo; echo "## Host backend, untranslated (the host reference)"
  "$build/bench/host_bench" 2>/dev/null | sed -n '/^Host backend/,$p'
fi
if [ "$which" = all ] || [ "$which" = tool ]; then
  echo; echo "## dpstub's cost"
  "$build/bench/tool_bench" "$build"
  if [ -x "$build/bench/lsp_bench" ]; then
    echo; echo "## dpstub-lsp"
    "$build/bench/lsp_bench"
  fi
fi
if { [ "$which" = all ] || [ "$which" = mpi ]; } && [ -f "$build/runtime/libdp_mpi.a" ]; then
  echo; echo "## dp::mpi (translated by dpstub)"
  cmake --build "$build" --target mpi_bench_dp >/dev/null
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1 \
    mpirun --oversubscribe --bind-to none -np 2 "$build/bench/mpi_bench_dp"
fi
