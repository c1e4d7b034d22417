#!/usr/bin/env bash
# On a machine with an NVIDIA (nvcc) or AMD (hipcc) GPU: builds dpstub's
# translation of bench/gpu_bench.cpp and runs it. It prints a table of
# ratios taken within one run: generated stubs against hand-written kernels,
# device copy bandwidth and CUB/rocPRIM called directly.
#
#   bash scripts/gpu-bench.sh [BUILD_DIR]
#
# BUILD_DIR (default build) is where the translation was made (`bash
# scripts/build.sh` on a machine with LLVM); the GPU machine needs only a
# C++17 compiler, oneTBB and nvcc or hipcc.
set -euo pipefail
cd "$(dirname "$0")/.."
generated=${1:-build}/bench/dpstub/gpu_bench_dp
work=${DP_GPU_WORK:-build/gpu-bench}
. scripts/gpu-env.sh
gpucc -Iinclude -I"$generated" "$generated/gpu_bench.cpp" "${runtime_objs[@]}" -ltbb -o "$work/gpu_bench"
DP_BACKEND=$backend "$work/gpu_bench"
