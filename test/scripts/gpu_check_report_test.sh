#!/usr/bin/env bash
# scripts/gpu-check.sh's own logic on a CPU, against a fake GPU toolchain:
# nvcc (g++ underneath), nvidia-smi and a compute-sanitizer that finds a
# leak in one program and crashes another. Every result must be printed,
# each failure as a FAIL line naming its log, with a FAIL verdict and a
# non-zero exit status. (On the H100 the script died at its first finding
# and printed no verdict at all.)
#   gpu_check_report_test.sh RUNTIME_LIB
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
runtime_lib=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- gpu-check printed:"; cat "$tmp/out"; exit 1; }

# The fake toolchain.
bin=$tmp/bin
mkdir -p "$bin"
cat >"$bin/nvcc" <<'NVCC'
#!/usr/bin/env bash
# nvcc's flags gpu-env.sh passes, dropped; the rest to g++.
args=()
while [ $# -gt 0 ]; do
  case $1 in
    -x) shift ;;
    --extended-lambda | --expt-relaxed-constexpr | -arch=*) ;;
    *) args+=("$1") ;;
  esac
  shift
done
exec g++ "${args[@]}"
NVCC
cat >"$bin/nvidia-smi" <<'SMI'
#!/usr/bin/env bash
echo "Fake GPU, 580.00, 80 GiB"
SMI
cat >"$bin/compute-sanitizer" <<'SAN'
#!/usr/bin/env bash
# --tool T ... PROGRAM: runs PROGRAM; `leaky` leaks under memcheck, and
# `crashy` crashes under every tool.
tool="" program=""
while [ $# -gt 0 ]; do
  case $1 in
    --tool) tool=$2; shift ;;
    --leak-check | --error-exitcode | --print-limit) shift ;;
    *) program=$1 ;;
  esac
  shift
done
echo "========= COMPUTE-SANITIZER"
case $(basename "$program") in
  leaky.gpu)
    "$program" >/dev/null
    if [ "$tool" = memcheck ]; then
      echo "========= Leaked 8388608 bytes at 0x7f0000000000"
      echo "========= LEAK SUMMARY: 25165824 bytes leaked in 3 allocations"
      echo "========= ERROR SUMMARY: 3 errors"
      exit 97
    fi ;;
  crashy.gpu) CRASH=1 "$program"; exit $? ;;
  *) "$program" >/dev/null || exit $? ;;
esac
echo "========= ERROR SUMMARY: 0 errors"
SAN
chmod +x "$bin"/*

# Four programs: one agrees everywhere, one prints another result on the
# GPU, one leaks and one crashes under the tools.
bundle=$tmp/bundle
mkdir -p "$bundle/programs"
program() { # name file value [crash]
  cat >"$bundle/programs/$2" <<PROG
#include <cstdio>
#include <cstdlib>
int main() {
  if (std::getenv("CRASH")) std::abort();
  std::printf("$1 %d\\n", $3);
}
PROG
}
: >"$bundle/manifest.txt"
for name in agrees differs leaky crashy; do
  program "$name" "$name.cpp" 42
  value=42
  [ "$name" = differs ] && value=43
  program "$name" "$name.gpu.cpp" "$value"
  echo "$name $bundle/programs/$name.cpp $bundle/programs/$name.gpu.cpp" >>"$bundle/manifest.txt"
done
echo "commit test" >"$bundle/ORIGIN"

cd "$repo"
PATH=$bin:$PATH DP_GPU_BACKEND=cuda DP_GPU_RUNTIME_LIB=$runtime_lib DP_GPU_JOBS=2 \
  bash scripts/gpu-check.sh --no-bench "$bundle" >"$tmp/out" 2>&1
status=$?
work=$bundle/work
[ "$status" != 0 ] || fail "exit status 0 with a failing program"
expect() { grep -qF -- "$1" "$tmp/out" || fail "no line with: $1"; }
expect "PASS agrees"
expect "PASS leaky"
expect "PASS crashy"
expect "FAIL differs: its GPU run printed something else than the untranslated run (output: $work/differs.got"
expect "SANITIZE memcheck agrees: clean"
expect "SANITIZE initcheck agrees: clean"
expect "SANITIZE initcheck leaky: clean"
expect "FAIL memcheck leaky: LEAK SUMMARY: 25165824 bytes leaked in 3 allocations (log: $work/leaky.memcheck.log)"
expect "FAIL memcheck crashy: exit 134; no summary (log: $work/crashy.memcheck.log)"
expect "FAIL initcheck crashy: exit 134; no summary (log: $work/crashy.initcheck.log)"
last=$(tail -n 1 "$tmp/out")
case $last in
  "gpu-check: FAIL: run:differs memcheck:leaky memcheck:crashy initcheck:crashy (3 of 4 programs agree on Fake GPU"*) ;;
  *) fail "the verdict is not the last line or names the wrong failures: $last" ;;
esac
echo "gpu_check_report_test: every result printed, each failure with its log, verdict FAIL, exit $status"
