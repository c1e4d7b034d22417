#!/usr/bin/env bash
# On a machine with an NVIDIA (nvcc) or AMD (hipcc) GPU: builds dpstub's
# translation of bench/gpu_bench.cpp and runs it. It prints a table of
# ratios taken within one run: generated stubs against hand-written kernels,
# device copy bandwidth and CUB/rocPRIM called directly; then BabelStream's
# kernels written with dp call-sites against BabelStream's own CUDA/HIP
# version, its table for each and their ratios (STREAM_ARGS: its options);
# then the OpenACC sample under GCC's OpenACC offloading against its
# migration by dpstub --migrate, translated (ACC_ARGS: its plate size and
# iterations).
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
# The OpenACC sample migrated by dpstub --migrate and translated.
acc=$bundle/programs/migrated_laplace_acc
[ -f "$acc/laplace.cpp" ] && [ -f "$bundle/openacc/laplace.cpp" ] ||
  { echo "gpu-bench: no migrated OpenACC sample in $bundle: run scripts/gpu-prepare.sh again" >&2; exit 2; }
gpu_compile "$acc/laplace.cpp" "$work/laplace_dp.o" -Iinclude -I"$acc"
gpu_link "$work/laplace_dp.o" "$work/laplace_dp"
[ "${build_only:-0}" = 1 ] && { echo "gpu-bench: built (nothing ran)"; exit 0; }
DP_BACKEND=$backend "$work/gpu_bench"
echo
echo "## BabelStream's kernels (${STREAM_ARGS:-2^25 doubles, 100 runs})"
DP_BACKEND=$backend "$work/stream_bench" ${STREAM_ARGS:-}

# The OpenACC sample as written, under GCC's OpenACC offloading to the same
# GPU (Debian: gcc-12-offload-nvptx and libgomp-plugin-nvptx1, or their
# amdgcn counterparts), against
# its migration translated by dpstub: the same plate and iterations
# (ACC_ARGS), wall time of the whole program, best of 3 each, alternated.
echo
read -r -a acc_args <<< "${ACC_ARGS:-4096 1000}"
echo "## The OpenACC sample (samples/openacc/laplace.cpp, ${acc_args[*]}): GCC's offloading vs dpstub --migrate + dpstub"
# GCC 12's nvptx default (sm_35) is older than CUDA 13's ptxas takes; the
# device's libm is linked apart (fmax, fabs).
if [ "$backend" = cuda ]; then
  offload=(-foffload=nvptx-none "-foffload-options=nvptx-none=-misa=sm_80 -lm") acc_device=nvidia
else
  gfx=$([ "$arch" = native ] && echo "${DP_GCC_GFX:-gfx90a}" || echo "$arch")
  offload=(-foffload=amdgcn-amdhsa "-foffload-options=amdgcn-amdhsa=-march=$gfx -lm") acc_device=radeon
fi
gcc_acc=${ACC_CXX:-g++-12}
command -v "$gcc_acc" >/dev/null || gcc_acc=g++
if ! "$gcc_acc" -std=c++17 -O2 -fopenacc "${offload[@]}" "$bundle/openacc/laplace.cpp" -o "$work/laplace_gcc" \
     -lm >"$work/laplace_gcc.log" 2>&1; then
  echo "not measured: $gcc_acc cannot offload OpenACC here (install its offload package); $work/laplace_gcc.log says:"
  tail -n 3 "$work/laplace_gcc.log" | sed 's/^/    /'
else
  wall() { # wall EXE OUT [ENV...]: seconds of one run, its output in OUT
    local exe=$1 out=$2; shift 2
    local t0 t1
    t0=$(date +%s%N)
    env "$@" "$exe" "${acc_args[@]}" >"$out"
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'
  }
  best_gcc="" best_dp=""
  for round in 1 2 3; do
    # ACC_DEVICE_TYPE: a run that cannot reach the GPU fails instead of
    # falling back to the host.
    t=$(wall "$work/laplace_gcc" "$work/laplace_gcc.out" ACC_DEVICE_TYPE=$acc_device)
    best_gcc=$(awk -v t="$t" -v b="$best_gcc" 'BEGIN { print (b == "" || t < b) ? t : b }')
    t=$(wall "$work/laplace_dp" "$work/laplace_dp.out" DP_BACKEND=$backend)
    best_dp=$(awk -v t="$t" -v b="$best_dp" 'BEGIN { print (b == "" || t < b) ? t : b }')
  done
  same="they print the same"
  cmp -s "$work/laplace_gcc.out" "$work/laplace_dp.out" ||
    same="they print otherwise: diff $work/laplace_gcc.out $work/laplace_dp.out"
  echo "| GCC OpenACC (s) | dpstub (s) | GCC / dpstub (goal >= 1.0) |"
  echo "|---|---|---|"
  echo "| $best_gcc | $best_dp | $(awk -v g="$best_gcc" -v d="$best_dp" 'BEGIN { printf "%.2f", g / d }') |"
  echo "($same)"
fi
