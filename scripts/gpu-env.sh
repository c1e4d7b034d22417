# Sourced by gpu-check.sh and gpu-bench.sh: finds the GPU and its compiler,
# and builds the runtime's host part once. Sets $backend, gpucc() and
# $runtime_objs; needs $work.
if command -v nvcc >/dev/null && nvidia-smi >/dev/null 2>&1; then
  backend=cuda
  arch=${DP_CUDA_ARCH:-native}
  # --expt-relaxed-constexpr: standard functors as operators and comparators.
  gpucc() { nvcc -x cu --extended-lambda --expt-relaxed-constexpr -arch="$arch" -std=c++17 -O2 "$@"; }
elif command -v hipcc >/dev/null && command -v rocminfo >/dev/null && rocminfo >/dev/null 2>&1; then
  backend=hip
  gpucc() { hipcc -x hip -std=c++17 -O2 "$@"; }
else
  echo "$(basename "$0"): no NVIDIA or AMD GPU found" >&2
  exit 2
fi
echo "$(basename "$0"): backend $backend"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
mkdir -p "$work"
runtime_objs=()
for src in runtime/*.cpp; do
  obj="$work/$(basename "$src" .cpp).o"
  g++ -std=c++17 -O2 -Iinclude -c "$src" -o "$obj"
  runtime_objs+=("$obj")
done
