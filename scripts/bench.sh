#!/usr/bin/env bash
# Sets up, builds and runs the benchmarks; prints their ratio tables (every
# ratio taken within one run, on this machine):
#   - the host backend (2 threads) against hand-written oneTBB, translated
#     by dpstub (the stubs' native host path) and untranslated;
#   - dpstub's cost against clang++ -fsyntax-only, and --all -j 1 vs -j 2;
#   - dpstub-lsp's latency on a parsed file;
#   - dp::mpi on 2 ranks: weak scaling, exchange cost, overlap;
#   - DP_PROFILE's cost per call-site: a tiny forall with profiling compiled
#     in but off, and on, against a build without it (-DDP_NO_PROFILE);
#   - BabelStream's kernels (samples/babel_stream.cpp) against its oneTBB
#     loops, translated and untranslated (STREAM_ARGS, default BabelStream's
#     2^25 doubles and 100 runs).
#   - what one call-site costs the host per kind (ns): on the host's
#     threads, and on a device's path over a recording device layer
#     (DP_EMULATE_RECORD_ONLY=1: launches recorded, not run);
#   - an OpenMP program (bench/migrate_bench.cpp, its library half
#     bench/migrate_library.cpp) migrated by dpstub
#     --migrate and translated, on the host backend, against the original
#     built with -fopenmp on the same threads (median of 5 alternated runs);
#   bash scripts/bench.sh [host|tool|mpi|profile|stream|launch|migrate]   (default: all)
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
if [ "$which" = all ] || [ "$which" = stream ]; then
  cmake --build "$build" --target stream_bench stream_bench_dp >/dev/null
  echo; echo "## BabelStream's kernels, translated by dpstub"
  "$build/bench/stream_bench_dp" ${STREAM_ARGS:-}
  echo; echo "## BabelStream's kernels, untranslated (the host reference)"
  "$build/bench/stream_bench" ${STREAM_ARGS:-}
fi
if [ "$which" = all ] || [ "$which" = launch ]; then
  cmake --build "$build" --target launch_bench_dp >/dev/null
  echo; echo "## What a call-site costs the host"
  "$build/bench/launch_bench_dp" 2>/dev/null | sed -n '/^ns per call-site/,$p'
  echo
  DP_HOST_MODE=emulate DP_EMULATE_RECORD_ONLY=1 "$build/bench/launch_bench_dp" 2>/dev/null |
    sed -n '/^ns per call-site/,$p'
fi
if [ "$which" = all ] || [ "$which" = profile ]; then
  cmake --build "$build" --target host_bench_dp host_bench_dp_noprofile >/dev/null
  # The median of BM_TinyForall's medians over 7 runs, alternating builds.
  tiny() { env "$@" --benchmark_filter=BM_TinyForall 2>/dev/null |
             sed 's/\x1b\[[0-9;]*m//g' | awk '/TinyForall.*_median/ {print $2}'; }
  off=() without=() on=()
  for _ in 1 2 3 4 5 6 7; do
    off+=("$(tiny "$build/bench/host_bench_dp")")
    without+=("$(tiny "$build/bench/host_bench_dp_noprofile")")
    on+=("$(tiny DP_PROFILE=summary "$build/bench/host_bench_dp")")
  done
  median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
  o=$(median "${off[@]}") w=$(median "${without[@]}") p=$(median "${on[@]}")
  echo; echo "## DP_PROFILE's cost (a 16-point forall, ns per call: median of 7 runs)"
  echo; echo "| measurement | ratio | goal |"; echo "|---|---|---|"
  awk -v o="$o" -v w="$w" -v p="$p" 'BEGIN {
    printf "| speed with profiling compiled in but off / without it (%s / %s ns) | %.3f | >= 0.99 |\n", o, w, w / o
    printf "| cost with DP_PROFILE=summary / off (%s / %s ns) | %.3f | <= 2 |\n", p, o, p / o }'
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
if [ "$which" = all ] || [ "$which" = migrate ]; then
  echo; echo "## A migrated OpenMP program (bench/migrate_bench.cpp), host backend"
  work=$build/bench/migrate
  rm -rf "$work" && mkdir -p "$work"
  cxx=${CXX:-c++}
  flags=(-std=c++17 -O2)
  "$build/tool/dpstub" --migrate --quiet --out-dir "$work/migrated" bench/migrate_bench.cpp bench/migrate_library.cpp \
    -- "${flags[@]}" 2> "$work/migrate.log" || { cat "$work/migrate.log" >&2; exit 1; }
  "$build/tool/dpstub" --quiet --out-dir "$work/translated" "$work/migrated/migrate_bench.cpp" \
    "$work/migrated/migrate_library.cpp" -- "${flags[@]}" -Iinclude
  "$cxx" "${flags[@]}" -fopenmp bench/migrate_bench.cpp bench/migrate_library.cpp -o "$work/openmp"
  "$cxx" "${flags[@]}" -Iinclude -I"$work/translated" "$work/translated/migrate_bench.cpp" \
    "$work/translated/migrate_library.cpp" "$build/runtime/libdp_runtime.a" -ltbb -lpthread -o "$work/dp"
  for run in 1 2 3 4 5; do
    OMP_NUM_THREADS=$(nproc) "$work/openmp" > "$work/openmp.$run"
    "$work/dp" > "$work/dp.$run"
  done
  # The same numbers, or the ratios mean nothing.
  for run in 1 2 3 4 5; do
    cmp -s <(grep checksum "$work/openmp.$run") <(grep checksum "$work/dp.$run") ||
      { echo "bench: the migrated program printed another checksum (run $run)" >&2; exit 1; }
  done
  echo; echo "threads: $(nproc) (OMP_NUM_THREADS, oneTBB's default)"
  echo; echo "| kernel | OpenMP (s) | migrated + translated (s) | ratio | goal |"; echo "|---|---|---|---|---|"
  for k in $(awk '/^kernel/ {print $2}' "$work/openmp.1"); do
    o=$(cat "$work"/openmp.* | awk -v k="$k" '$1 == "kernel" && $2 == k {print $3}' | sort -n | sed -n 3p)
    d=$(cat "$work"/dp.* | awk -v k="$k" '$1 == "kernel" && $2 == k {print $3}' | sort -n | sed -n 3p)
    awk -v k="$k" -v o="$o" -v d="$d" 'BEGIN {
      r = o / d; miss = (r >= 0.9) ? "" : " (missed)"
      printf "| %s | %.4f | %.4f | %.3f | >= 0.90%s |\n", k, o, d, r, miss }'
  done
fi
