#!/usr/bin/env bash
# Runs N fresh random dp programs through the differential tester: each is
# built untranslated, translated by dpstub, and run natively and in dispatch
# emulation; all runs must agree with the untranslated build and with its
# own plain-loop checks; where nvcc and hipcc are installed, every
# translation must also compile with both. Failing programs are kept as
# reproducers.
#   bash scripts/soak.sh N [FIRST_SEED]
# (default FIRST_SEED: from the clock; DP_SOAK_KEEP: where failures go,
# default soak-failures/; DP_SOAK_JOBS: programs at a time, default nproc;
# DP_SOAK_DEVICE=0 skips the GPU compilers, which take most of the time)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:?usage: bash scripts/soak.sh N [FIRST_SEED]}
first=${2:-$(( $(date +%s) % 100000 * 10000 ))}
build=${DPSTUB_BUILD_DIR:-build}
keep=$(realpath -m "${DP_SOAK_KEEP:-soak-failures}")
jobs=${DP_SOAK_JOBS:-$(nproc)}
bash scripts/setup.sh >/dev/null
bash scripts/build.sh >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A snapshot of what the programs are built with: a soak takes an hour, and
# the build tree may be rebuilt meanwhile. The programs link the runtime
# with nothing but oneTBB: its ucontext build when the main one uses Boost.
mkdir -p "$work/snapshot"
runtime=$build/runtime/libdp_runtime.a
[ -f "$build/runtime/libdp_runtime_ucontext.a" ] && runtime=$build/runtime/libdp_runtime_ucontext.a
cp "$build/test/dpgen" "$build/tool/dpstub" test/fuzz/run_fuzz.cmake \
   test/e2e/compile_for_device.cmake "$work/snapshot/"
cp "$runtime" "$work/snapshot/libdp_runtime.a"
cp -r include "$work/snapshot/include"
s=$work/snapshot
devices=()
if [ "${DP_SOAK_DEVICE:-1}" != 0 ]; then
  for c in hipcc nvcc; do
    p=$(command -v "$c" || true)
    [ -z "$p" ] && [ "$c" = nvcc ] && [ -x /usr/local/cuda/bin/nvcc ] && p=/usr/local/cuda/bin/nvcc
    [ -n "$p" ] && devices+=("$p")
  done
fi
device_list=$(IFS=';'; echo "${devices[*]}")
echo "soak: $n programs, seeds $first..$((first + n - 1)), $jobs at a time${devices[*]:+, compiled with ${devices[*]}}"
seq "$first" $((first + n - 1)) | xargs -n 10 -P "$jobs" sh -c '
  seeds=$(echo "$@" | tr " " ";")
  cmake -DDPGEN='"$s"'/dpgen -DDPSTUB='"$s"'/dpstub -DCXX=c++ -DINCLUDE='"$s"'/include \
        -DRUNTIME='"$s"'/libdp_runtime.a "-DSEEDS=$seeds" -DWORK='"$work"'/$1 -DKEEP='"$keep"' \
        "-DDEVICE_COMPILERS='"$device_list"'" -DDEVICE_SCRIPT='"$s"'/compile_for_device.cmake \
        -P '"$s"'/run_fuzz.cmake >/dev/null 2>&1 || echo "soak: a failure among seeds $*"
' _
# (no reproducer kept: no folder either; `ls` of a missing one would end
# the script under pipefail before it reports)
failed=0
[ -d "$keep" ] && failed=$(find "$keep" -mindepth 1 -maxdepth 1 | wc -l)
if [ "$failed" -eq 0 ]; then
  echo "soak: $n programs, all agree untranslated, translated and emulated${devices[*]:+; every translation compiles with ${devices[*]}}"
else
  echo "soak: $n programs, $failed failed: reproducers in $keep"
  exit 1
fi
