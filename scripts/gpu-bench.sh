#!/usr/bin/env bash
# On a machine with an NVIDIA (nvcc) or AMD (hipcc) GPU: builds dpstub's
# translation of bench/gpu_bench.cpp and runs it. It prints a table of
# ratios taken within one run: generated stubs against hand-written kernels,
# device copy bandwidth and CUB/rocPRIM called directly; then BabelStream's
# kernels written with dp call-sites against BabelStream's own CUDA/HIP
# version, its table for each and their ratios (STREAM_ARGS: its options).
#
#   bash scripts/gpu-bench.sh [BUNDLE]
#
# BUNDLE (default gpu-bundle/) comes from scripts/gpu-prepare.sh on a
# machine with LLVM; the GPU machine needs only g++ and nvcc or hipcc
# (scripts/gpu-check.sh runs this too).
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=${1:-gpu-bundle}
[ -f "$bundle/bench/gpu_bench.cpp" ] ||
  { echo "gpu-bench: no $bundle/bench/gpu_bench.cpp: run scripts/gpu-prepare.sh first" >&2; exit 2; }
work=${DP_GPU_WORK:-$bundle/work-bench}
mkdir -p "$work"
. scripts/gpu-env.sh
gpu_compile "$bundle/bench/gpu_bench.cpp" "$work/gpu_bench.o" -Iinclude -I"$bundle/bench"
gpu_link "$work/gpu_bench.o" "$work/gpu_bench"
# BabelStream's kernels in dp against its CUDA/HIP kernels (the sample's
# translation built as the benchmark).
stream=$bundle/programs/babel_stream
[ -f "$stream/babel_stream.cpp" ] ||
  { echo "gpu-bench: no $stream/babel_stream.cpp: run scripts/gpu-prepare.sh again" >&2; exit 2; }
gpu_compile "$stream/babel_stream.cpp" "$work/stream_bench.o" -DDP_STREAM_BASELINES -Iinclude \
  -I"$stream" -Isamples
gpu_compile bench/stream_baseline.cpp "$work/stream_baseline.o" -Iinclude -Isamples
gpu_link "$work/stream_bench.o" "$work/stream_baseline.o" "$work/stream_bench"
[ "${build_only:-0}" = 1 ] && { echo "gpu-bench: built (nothing ran)"; exit 0; }
DP_BACKEND=$backend "$work/gpu_bench"
echo
echo "## BabelStream's kernels (${STREAM_ARGS:-2^25 doubles, 100 runs})"
DP_BACKEND=$backend "$work/stream_bench" ${STREAM_ARGS:-}
