#!/usr/bin/env bash
# Sets up, builds, translates one sample with dpstub and runs it: the
# untranslated reference, then the translated program natively and in
# dispatch emulation (the GPU's thread mapping walked on the CPU).
#   bash scripts/run-sample.sh [SAMPLE [ARGS...]]   (a file name in samples/
#   without .cpp, default matmul_spread; ARGS go to each of its runs, e.g.
#   babel_stream --timings)
# heat_mpi runs under mpirun, on 1 rank and on DP_RANKS (default 4).
set -euo pipefail
cd "$(dirname "$0")/.."
sample=${1:-matmul_spread}
[ $# -gt 0 ] && shift
args=("$@")
if [ ! -f "samples/$sample.cpp" ]; then
  echo "run-sample: no sample '$sample'; samples/ holds:" $(cd samples && ls *.cpp | sed 's/\.cpp$//') >&2
  exit 2
fi
build=${DPSTUB_BUILD_DIR:-build}
bash scripts/setup.sh
# Only what the sample needs: the tool, the runtime and the sample itself
# (its untranslated build); the tests and benchmarks are scripts/test.sh's.
needs="dpstub dp_runtime $sample"
grep -q '<dp/mpi.hpp>' "samples/$sample.cpp" && needs="$needs dp_mpi"
DPSTUB_TARGETS="$needs" bash scripts/build.sh

out=$build/translated
echo "== dpstub -p $build samples/$sample.cpp --out-dir $out"
"$build/tool/dpstub" -p "$build" "samples/$sample.cpp" --out-dir "$out"
echo "   rewritten source: $out/$sample.cpp"
[ -f "$out/$sample.cpp.dpstub.hpp" ] && echo "   generated stubs:  $out/$sample.cpp.dpstub.hpp"
# The runtime's tile threads switch with Boost.Context when the build found it.
fibers=()
grep -q '^Boost_CONTEXT_LIBRARY_RELEASE:' "$build/CMakeCache.txt" && fibers=(-lboost_context)
cxx=(c++)
mpi_libs=()
launch=()
many=()
if grep -q '<dp/mpi.hpp>' "samples/$sample.cpp"; then
  cxx=(mpicxx)
  mpi_libs=("$build/runtime/libdp_mpi.a")
  # Open MPI refuses root without these; ranks share the cores.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
  launch=(mpirun --oversubscribe --bind-to none -np 1)
  many=(mpirun --oversubscribe --bind-to none -np "${DP_RANKS:-4}")
fi
"${cxx[@]}" -std=c++17 -O2 -Iinclude -I"$out" -Isamples "$out/$sample.cpp" \
  "${mpi_libs[@]}" "$build/runtime/libdp_runtime.a" -ltbb "${fibers[@]}" -o "$out/$sample"

echo "== untranslated (host reference)${launch:+, one rank}"
"${launch[@]}" "$build/samples/$sample" "${args[@]}"
if [ ${#many[@]} -gt 0 ]; then
  echo "== untranslated, ${DP_RANKS:-4} ranks"
  "${many[@]}" "$build/samples/$sample" "${args[@]}"
  launch=("${many[@]}")
fi
echo "== translated, host backend, native"
"${launch[@]}" "$out/$sample" "${args[@]}"
echo "== translated, host backend, dispatch emulation (small device: several launches)"
DP_HOST_MODE=emulate DP_DISPATCH_POLICY=split DP_EMULATE_MAX_GROUPS=4,4,4 DP_EMULATE_GROUP=64 \
  "${launch[@]}" "$out/$sample" "${args[@]}"
