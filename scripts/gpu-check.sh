#!/usr/bin/env bash
# On a machine with an NVIDIA (nvcc) or AMD (hipcc) GPU: builds the programs
# dpstub translated, runs them on the GPU and compares their output with the
# untranslated reference build; then runs the GPU benchmark (gpu-bench.sh).
#
#   bash scripts/gpu-check.sh [GENERATED_DIR]
#
# GENERATED_DIR holds the translated sources (default build/test/dpstub, as
# `bash scripts/test.sh` leaves them); they can be made on a machine with
# LLVM and carried to the GPU machine, which needs only a C++17 compiler,
# oneTBB and nvcc or hipcc.
set -euo pipefail
cd "$(dirname "$0")/.."
generated=${1:-build/test/dpstub}
work=${DP_GPU_WORK:-build/gpu-check}

. scripts/gpu-env.sh

pass=0 fail=0
check() { # name original translated
  local name=$1 original=$2 translated=$3
  g++ -std=c++17 -O2 -Iinclude -I"$(dirname "$original")" "$original" "${runtime_objs[@]}" -ltbb -o "$work/$name.ref"
  gpucc -Iinclude -I"$(dirname "$translated")" -I"$(dirname "$original")" "$translated" "${runtime_objs[@]}" -ltbb -o "$work/$name.gpu"
  "$work/$name.ref" >"$work/$name.expected"
  if DP_BACKEND=$backend DP_TRACE_DISPATCH=1 "$work/$name.gpu" >"$work/$name.got" 2>"$work/$name.trace" &&
     cmp -s "$work/$name.expected" "$work/$name.got"; then
    echo "PASS $name ($(grep -c dp-dispatch "$work/$name.trace") launches on $backend)"
    pass=$((pass + 1))
  else
    echo "FAIL $name"; diff "$work/$name.expected" "$work/$name.got" | head -20 || true
    cat "$work/$name.trace" | tail -5
    fail=$((fail + 1))
  fi
}
for s in vector_add matmul_spread sum_rows matmul_reduce prefix_sums sort_rows argsort max3d \
         tiled_matmul tiled_transpose convolution pairwise_distances; do
  check "$s" "samples/$s.cpp" "$generated/${s}_dp/$s.cpp"
done
for t in forall_cases reduce_scan_sort_cases tiles_cases; do
  check "$t" "test/e2e/$t.cpp" "$generated/${t}_dp/e2e/$t.cpp"
done
echo "$pass passed, $fail failed"

[ "$fail" -eq 0 ]
bash scripts/gpu-bench.sh "${generated%/test/dpstub}"
