# Sourced by gpu-env.sh: which GPU compiler the check builds with, as a
# pure function of what the machine has, so that CTest checks the choice
# on a machine without a GPU (test/scripts/gpu_backend_test.sh).
#
#   gpu_pick_backend WANT NVCC HIPCC BUILD_ONLY NVIDIA_GPU AMD_GPU

# The backend DP_GPU_BACKEND names: NAME where it FITS (1), else why not:
#   gpu_wanted_backend NAME FITS COMPILER NO_COMPILER NO_GPU
gpu_wanted_backend() {
  [ "$2" = 1 ] && { echo "$1"; return 0; }
  if [ -z "$3" ]; then echo "DP_GPU_BACKEND=$1: $4"; else echo "DP_GPU_BACKEND=$1: $5"; fi
  return 1
}

# WANT: DP_GPU_BACKEND (cuda, hip, or empty for whichever fits, nvcc
# first); NVCC, HIPCC: the compilers' paths, empty where missing;
# BUILD_ONLY, NVIDIA_GPU, AMD_GPU: 1 or 0 (--build-only needs a compiler
# and no GPU). Prints cuda or hip and returns 0; else prints why neither
# fits and returns 1.
gpu_pick_backend() {
  local want=$1 nvcc=$2 hipcc=$3 build_only=$4 nvidia=$5 amd=$6
  case $want in
    "" | cuda | hip) ;;
    *) echo "DP_GPU_BACKEND must be cuda or hip, not '$want'"; return 1 ;;
  esac
  local cuda_ok=0 hip_ok=0
  [ -n "$nvcc" ] && { [ "$build_only" = 1 ] || [ "$nvidia" = 1 ]; } && cuda_ok=1
  [ -n "$hipcc" ] && { [ "$build_only" = 1 ] || [ "$amd" = 1 ]; } && hip_ok=1
  case $want in
    cuda) gpu_wanted_backend cuda "$cuda_ok" "$nvcc" "no nvcc (not on PATH, not in /usr/local/cuda/bin)" \
            "no NVIDIA GPU (nvidia-smi fails; --build-only compiles without one)"; return ;;
    hip) gpu_wanted_backend hip "$hip_ok" "$hipcc" "no hipcc on PATH" \
           "no AMD GPU (rocminfo fails; --build-only compiles without one)"; return ;;
  esac
  [ "$cuda_ok" = 1 ] && { echo cuda; return 0; }
  [ "$hip_ok" = 1 ] && { echo hip; return 0; }
  echo "no NVIDIA GPU with nvcc or AMD GPU with hipcc found (--build-only compiles without one)"
  return 1
}
