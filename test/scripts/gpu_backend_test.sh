#!/usr/bin/env bash
# Which GPU compiler scripts/gpu-check.sh and gpu-bench.sh build with
# (scripts/gpu-backend.sh), for every mix of compilers, GPUs and
# DP_GPU_BACKEND: no GPU needed.
set -u
. "$(dirname "$0")/../../scripts/gpu-backend.sh"
failures=0
# expect WANT NVCC HIPCC BUILD_ONLY NVIDIA AMD -- RESULT (cuda, hip, or
# "error: TEXT" for a refusal whose message holds TEXT)
expect() {
  local args=("${@:1:6}") wanted=${*:8} got status
  got=$(gpu_pick_backend "${args[@]}")
  status=$?
  case $wanted in
    error:*)
      if [ "$status" = 0 ] || [[ $got != *"${wanted#error: }"* ]]; then
        echo "FAIL: gpu_pick_backend ${args[*]@Q}: got '$got' (status $status), wanted a refusal naming '${wanted#error: }'"
        failures=$((failures + 1))
      fi ;;
    *)
      if [ "$status" != 0 ] || [ "$got" != "$wanted" ]; then
        echo "FAIL: gpu_pick_backend ${args[*]@Q}: got '$got' (status $status), wanted '$wanted'"
        failures=$((failures + 1))
      fi ;;
  esac
}
nv=/usr/local/cuda/bin/nvcc hip=/usr/bin/hipcc
# Whichever fits, nvcc first.
expect "" "$nv" "$hip" 1 0 0 -- cuda
expect "" "$nv" "" 0 1 0 -- cuda
expect "" "" "$hip" 1 0 0 -- hip
expect "" "$nv" "$hip" 0 0 1 -- hip   # nvcc installed, but the GPU is AMD's
expect "" "$nv" "$hip" 0 1 1 -- cuda
expect "" "$nv" "$hip" 0 0 0 -- "error: no NVIDIA GPU with nvcc or AMD GPU with hipcc"
expect "" "" "" 1 0 0 -- "error: no NVIDIA GPU with nvcc or AMD GPU with hipcc"
# DP_GPU_BACKEND=hip with nvcc installed (it once fell back to nvcc found
# in /usr/local/cuda/bin).
expect hip "$nv" "$hip" 1 0 0 -- hip
expect hip "$nv" "$hip" 0 1 1 -- hip
expect hip "$nv" "" 1 0 0 -- "error: DP_GPU_BACKEND=hip: no hipcc"
expect hip "$nv" "$hip" 0 1 0 -- "error: DP_GPU_BACKEND=hip: no AMD GPU"
expect cuda "$nv" "$hip" 1 0 0 -- cuda
expect cuda "$nv" "$hip" 0 0 1 -- "error: DP_GPU_BACKEND=cuda: no NVIDIA GPU"
expect cuda "" "$hip" 1 0 0 -- "error: DP_GPU_BACKEND=cuda: no nvcc"
expect rocm "$nv" "$hip" 1 0 0 -- "error: DP_GPU_BACKEND must be cuda or hip, not 'rocm'"
[ "$failures" = 0 ] && echo "gpu_backend_test: all cases pass"
exit $((failures > 0))
