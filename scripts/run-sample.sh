#!/usr/bin/env bash
# Sets up, builds, translates one sample with dpstub and runs it: the
# untranslated reference, then the translated program natively and in
# dispatch emulation (the GPU's thread mapping walked on the CPU).
#   bash scripts/run-sample.sh [SAMPLE]   (a file name in samples/ without .cpp;
#   default matmul_spread)
set -euo pipefail
cd "$(dirname "$0")/.."
sample=${1:-matmul_spread}
build=${DPSTUB_BUILD_DIR:-build}
bash scripts/setup.sh
bash scripts/build.sh

out=$build/translated
echo "== dpstub -p $build samples/$sample.cpp --out-dir $out"
"$build/tool/dpstub" -p "$build" "samples/$sample.cpp" --out-dir "$out"
echo "   rewritten source: $out/$sample.cpp"
[ -f "$out/$sample.cpp.dpstub.hpp" ] && echo "   generated stubs:  $out/$sample.cpp.dpstub.hpp"
# The runtime's tile threads switch with Boost.Context when the build found it.
fibers=()
grep -q '^Boost_CONTEXT_LIBRARY_RELEASE:' "$build/CMakeCache.txt" && fibers=(-lboost_context)
c++ -std=c++17 -O2 -Iinclude -I"$out" -Isamples "$out/$sample.cpp" \
  "$build/runtime/libdp_runtime.a" -ltbb "${fibers[@]}" -o "$out/$sample"

echo "== untranslated (host reference)"
"$build/samples/$sample"
echo "== translated, host backend, native"
"$out/$sample"
echo "== translated, host backend, dispatch emulation (small device: several launches)"
DP_HOST_MODE=emulate DP_DISPATCH_POLICY=split DP_EMULATE_MAX_GROUPS=4,4,4 DP_EMULATE_GROUP=64 DP_TRACE_DISPATCH=1 "$out/$sample"
