#!/usr/bin/env bash
# A second scripts/gpu-check.sh on the same work folder is refused, and
# the first one's files are kept (it once deleted them mid-build).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bundle=$tmp/bundle
mkdir -p "$bundle/work"
echo "p samples/vector_add.cpp $bundle/x.cpp" >"$bundle/manifest.txt"
touch "$bundle/work/first-run-was-here"
command -v flock >/dev/null || { echo "gpu_check_lock_test: no flock here: nothing to check"; exit 0; }
# The first check, as gpu-check.sh holds it: the lock beside the work folder.
exec 9>"$bundle/work.lock"
flock -n 9 || { echo "FAIL: could not take the lock"; exit 1; }
out=$(bash "$repo/scripts/gpu-check.sh" --build-only "$bundle" 2>&1)
status=$?
if [ "$status" != 2 ] || [[ $out != *"another gpu-check is using $bundle/work"* ]]; then
  echo "FAIL: a second gpu-check on a held work folder: status $status, output:"; echo "$out"; exit 1
fi
[ -f "$bundle/work/first-run-was-here" ] || { echo "FAIL: the second gpu-check deleted the first's work folder"; exit 1; }
# DP_GPU_WORK gives the second its own folder: it gets past the lock and
# stops at the next step, on the unknown backend name (before any build).
out=$(DP_GPU_WORK=$tmp/other DP_GPU_BACKEND=nonesuch bash "$repo/scripts/gpu-check.sh" --build-only "$bundle" 2>&1)
if [[ $out == *"another gpu-check"* ]] || [[ $out != *"DP_GPU_BACKEND must be cuda or hip"* ]]; then
  echo "FAIL: DP_GPU_WORK did not give the second check its own folder: $out"; exit 1
fi
echo "gpu_check_lock_test: a held work folder is refused and kept"
