# Sourced by gpu-check.sh and gpu-bench.sh (bash). Finds the GPU and its
# compiler, finds oneTBB (or unpacks the bundle's Debian packages into a
# private prefix), builds the runtime's host part once as a library, and
# defines:
#   $backend              cuda or hip
#   gpu_compile SRC OBJ [flags...]    a translated source to an object file
#   gpu_link OBJ... EXE   those objects with the runtime and oneTBB
#   host_build SRC EXE [flags...]     an untranslated program with g++
#   $tbb_env              LD_LIBRARY_PATH for running what links oneTBB
# Needs $work (a scratch folder) and $bundle; $build_only=1 picks a
# compiler without a GPU (the compile checks of a development machine).

gpu_env_fail() { echo "$(basename "$0"): $*" >&2; exit 2; }

# DP_GPU_BACKEND=cuda|hip picks one where both compilers are installed
# (scripts/gpu-backend.sh).
. scripts/gpu-backend.sh
nvcc_path=$(command -v nvcc || true)
[ -z "$nvcc_path" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc_path=/usr/local/cuda/bin/nvcc
hipcc_path=$(command -v hipcc || true)
nvidia_gpu=0 amd_gpu=0
if [ "${build_only:-0}" != 1 ]; then
  nvidia-smi >/dev/null 2>&1 && nvidia_gpu=1
  rocminfo >/dev/null 2>&1 && amd_gpu=1
fi
backend=$(gpu_pick_backend "${DP_GPU_BACKEND:-}" "$nvcc_path" "$hipcc_path" "${build_only:-0}" \
            "$nvidia_gpu" "$amd_gpu") || gpu_env_fail "$backend"
if [ "$backend" = cuda ]; then
  # A GPU: its own architecture; compile checks without one: an H100's.
  arch=${DP_CUDA_ARCH:-$([ "${build_only:-0}" = 1 ] && echo sm_90 || echo native)}
  # --extended-lambda: the lambdas dpstub marks __host__ __device__;
  # --expt-relaxed-constexpr: standard functors as operators and comparators.
  gpu_compile() {
    local src=$1 obj=$2; shift 2
    "$nvcc_path" -x cu --extended-lambda --expt-relaxed-constexpr -arch="$arch" -std=c++17 -O2 \
      "$@" "${tbb_flags[@]}" -c "$src" -o "$obj"
  }
  # nvcc links objects and archives as such (no -x here: `-x cu` would read
  # them as CUDA source).
  gpu_link() { "$nvcc_path" -arch="$arch" "${@:1:$#-1}" "$work/libdp_runtime.a" "${tbb_link[@]}" -o "${!#}"; }
else
  arch=${DP_HIP_ARCH:-$([ "${build_only:-0}" = 1 ] && echo gfx90a || echo native)}
  gpu_compile() {
    local src=$1 obj=$2; shift 2
    "$hipcc_path" -x hip --offload-arch="$arch" -std=c++17 -O2 "$@" "${tbb_flags[@]}" -c "$src" -o "$obj"
  }
  gpu_link() { "$hipcc_path" --offload-arch="$arch" "${@:1:$#-1}" "$work/libdp_runtime.a" "${tbb_link[@]}" -o "${!#}"; }
fi

# oneTBB: the system's, or Debian's packages from the bundle unpacked into
# a private prefix (dpkg -x, or ar + tar where dpkg is missing).
tbb_flags=() tbb_link=(-ltbb) host_tbb_link=(-ltbb) tbb_env=""
if ! echo '#include <tbb/parallel_for.h>
int main() { tbb::parallel_for(0, 1, [](int) {}); }' |
   g++ -std=c++17 -x c++ - -ltbb -o "$work/tbb-probe" >/dev/null 2>&1 || [ "${DP_GPU_PRIVATE_TBB:-0}" = 1 ]; then
  prefix=$work/tbb-prefix
  debs=("$bundle"/debs/*.deb)
  [ -e "${debs[0]}" ] || gpu_env_fail "oneTBB is missing and $bundle/debs has no packages (run scripts/gpu-prepare.sh)"
  rm -rf "$prefix" && mkdir -p "$prefix"
  for deb in "${debs[@]}"; do
    if command -v dpkg >/dev/null; then
      dpkg -x "$deb" "$prefix"
    else
      (cd "$prefix" && ar x "$deb" && tar -xf data.tar.* && rm -f data.tar.* control.tar.* debian-binary)
    fi
  done
  lib=$(dirname "$(find "$prefix" -name 'libtbb.so*' | head -n 1)")
  [ -d "$prefix/usr/include/tbb" ] && [ -n "$lib" ] || gpu_env_fail "the oneTBB packages in $bundle/debs hold no headers or library"
  tbb_flags=(-I"$prefix/usr/include")
  tbb_link=(-L"$lib" -ltbb -Xlinker -rpath -Xlinker "$lib")
  host_tbb_link=(-L"$lib" -ltbb -Wl,-rpath,"$lib")
  tbb_env=$lib
  echo "$(basename "$0"): oneTBB unpacked from $bundle/debs into $prefix"
fi
export LD_LIBRARY_PATH="${tbb_env:+$tbb_env:}${LD_LIBRARY_PATH:-}"

host_build() {
  local src=$1 exe=$2; shift 2
  g++ -std=c++17 -O2 -Iinclude "$@" "${tbb_flags[@]}" "$src" "$work/libdp_runtime.a" \
    "${host_tbb_link[@]}" -o "$exe"
}

# The runtime's host part, once: tile threads switch with ucontext (no
# Boost on a GPU machine). DP_GPU_RUNTIME_LIB names one already built from
# this tree instead (CTest's checks of the scripts use the build's).
if [ -n "${DP_GPU_RUNTIME_LIB:-}" ]; then
  [ -f "$DP_GPU_RUNTIME_LIB" ] || gpu_env_fail "DP_GPU_RUNTIME_LIB=$DP_GPU_RUNTIME_LIB: no such file"
  cp "$DP_GPU_RUNTIME_LIB" "$work/libdp_runtime.a"
else
  mkdir -p "$work/runtime"
  for src in runtime/*.cpp; do
    g++ -std=c++17 -O2 -Iinclude "${tbb_flags[@]}" -c "$src" -o "$work/runtime/$(basename "$src" .cpp).o" ||
      gpu_env_fail "the runtime's $src does not compile"
  done
  rm -f "$work/libdp_runtime.a"
  ar rcs "$work/libdp_runtime.a" "$work"/runtime/*.o
fi
echo "$(basename "$0"): backend $backend ($arch)$([ "${build_only:-0}" = 1 ] && echo ', build only')"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true
