#!/usr/bin/env bash
# On a machine with an NVIDIA (nvcc) or AMD (hipcc) GPU: builds every
# program dpstub translated (samples, e2e programs, random programs) for
# the GPU and, untranslated, for the host; runs each on the GPU against its
# untranslated run; runs each under compute-sanitizer (memcheck with leak
# check and initcheck, racecheck and synccheck where tiles are); runs the
# GPU benchmark. Ends in one line: PASS, or what failed.
#
#   bash scripts/gpu-check.sh [--build-only] [--no-sanitizers] [--no-bench] [BUNDLE]
#
# BUNDLE (default gpu-bundle/) comes from scripts/gpu-prepare.sh on a
# development machine: the GPU machine needs only the tree, the bundle, g++
# and nvcc or hipcc (no LLVM, no oneTBB, no package registry).
# --build-only compiles everything and runs nothing: the check of a
# machine with a GPU compiler but no GPU. DP_GPU_BACKEND=cuda|hip: which
# compiler where both are installed; DP_GPU_JOBS: parallel builds
# (default: the cores); DP_GPU_SANITIZE_JOBS: parallel sanitizer runs
# (default 4); DP_GPU_WORK: where the builds go (default BUNDLE/work,
# one check at a time); DP_GPU_RUNTIME_LIB: a libdp_runtime.a already
# built from this tree, instead of building one.
# Every program gets a PASS or FAIL line, every sanitizer run a SANITIZE
# or FAIL line (leaks are findings); each FAIL names its log. The exit
# status is 0 only when the last line says PASS.
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0 sanitize=1 bench=1
while [ $# -gt 0 ]; do
  case $1 in
    --build-only) build_only=1 ;;
    --no-sanitizers) sanitize=0 ;;
    --no-bench) bench=0 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    -*) echo "gpu-check: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
bundle=${1:-gpu-bundle}
[ -f "$bundle/manifest.txt" ] ||
  { echo "gpu-check: no $bundle/manifest.txt: run scripts/gpu-prepare.sh on a machine with LLVM and bring $bundle along" >&2; exit 2; }
work=${DP_GPU_WORK:-$bundle/work}
# One check at a time per work folder: a second would delete the first's
# builds under it.
mkdir -p "$(dirname "$work")"
if command -v flock >/dev/null; then
  exec 9>"$work.lock"
  flock -n 9 ||
    { echo "gpu-check: another gpu-check is using $work (DP_GPU_WORK=DIR gives this one its own)" >&2; exit 2; }
fi
rm -rf "$work" && mkdir -p "$work"
jobs=${DP_GPU_JOBS:-$(nproc)}
. scripts/gpu-env.sh
if head -n 1 "$bundle/ORIGIN" | grep -q "$(git rev-parse HEAD 2>/dev/null || echo unknown)"; then :; else
  echo "gpu-check: note: $bundle was made from $(head -n 1 "$bundle/ORIGIN"), the tree is at $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
fi

mapfile -t programs <"$bundle/manifest.txt"
# The tiled programs get racecheck and synccheck too.
is_tiled() { grep -q 'dp::tile<\|dp::tile_static' "$1"; }

# --- Build: every program for the host (reference) and the GPU, in parallel.
build_one() {
  local name=$1 original=$2 translated=$3 log=$work/$1.build.log
  {
    host_build "$original" "$work/$name.ref" -I"$(dirname "$original")" -w &&
      gpu_compile "$translated" "$work/$name.o" -Iinclude -I"$(dirname "$translated")" \
        -I"$(dirname "$original")" -w &&
      gpu_link "$work/$name.o" "$work/$name.gpu" && touch "$work/$name.built"
  } >"$log" 2>&1 || true
}
started=$(date +%s)
running=0
for line in "${programs[@]}"; do
  # shellcheck disable=SC2086
  build_one $line &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait
failed=()
for line in "${programs[@]}"; do
  set -- $line
  if [ ! -f "$work/$1.built" ]; then
    echo "BUILD FAILED $1"; tail -n 25 "$work/$1.build.log"
    failed+=("build:$1")
  fi
done
echo "gpu-check: built ${#programs[@]} programs for $backend and the host in $(( $(date +%s) - started )) s ($jobs at a time)"
if [ "$build_only" = 1 ]; then
  if [ ${#failed[@]} -eq 0 ]; then
    echo "gpu-check: BUILT: all ${#programs[@]} programs compile for $backend ($arch) and the host; nothing ran (--build-only)"
    exit 0
  fi
  echo "gpu-check: FAIL: ${failed[*]}"
  exit 1
fi

# --- Run: each program on the GPU against its untranslated run. Every
# program gets a line; a failure names its logs.
passed=0
for line in "${programs[@]}"; do
  set -- $line
  name=$1
  [ -f "$work/$name.built" ] || continue
  rc=0
  timeout 900 "$work/$name.ref" >"$work/$name.expected" 2>"$work/$name.ref.err" || rc=$?
  if [ "$rc" != 0 ]; then
    echo "FAIL $name: the untranslated program failed on the host (exit $rc; log: $work/$name.ref.err)"
    tail -n 5 "$work/$name.ref.err" | sed 's/^/    /'
    failed+=("reference:$name"); continue
  fi
  rc=0
  DP_BACKEND=$backend DP_TRACE_DISPATCH=1 timeout 900 "$work/$name.gpu" >"$work/$name.got" 2>"$work/$name.trace" || rc=$?
  if [ "$rc" = 0 ] && cmp -s "$work/$name.expected" "$work/$name.got"; then
    echo "PASS $name ($(grep -c dp-dispatch "$work/$name.trace" || true) launch plans on $backend)"
    passed=$((passed + 1))
  else
    if [ "$rc" != 0 ]; then
      echo "FAIL $name: its GPU run failed (exit $rc; output: $work/$name.got, log: $work/$name.trace)"
    else
      echo "FAIL $name: its GPU run printed something else than the untranslated run (output: $work/$name.got, expected: $work/$name.expected)"
    fi
    diff -u "$work/$name.expected" "$work/$name.got" | head -n 30 | sed 's/^/    /' || true
    grep -v dp-dispatch "$work/$name.trace" | tail -n 5 | sed 's/^/    /' || true
    failed+=("run:$name")
  fi
done

# --- Sanitizers (compute-sanitizer: CUDA only). Known false positives,
# each explained, are listed in scripts/gpu-sanitizer-allow.txt.
sanitized=""
if [ "$sanitize" = 1 ] && [ "$backend" = cuda ]; then
  sanitizer=$(command -v compute-sanitizer || echo "$(dirname "$nvcc_path")/compute-sanitizer")
  if [ -x "$sanitizer" ]; then
    # In the background, with the script's -e and pipefail off: a finding
    # (exit 97), a crash or a timeout (124) is a result to report, and the
    # result file is written whatever the run did.
    sanitize_one() { # tool name
      set +e +o pipefail
      local tool=$1 name=$2 log=$work/$2.$1.log extra=()
      [ "$tool" = memcheck ] && extra=(--leak-check full)
      DP_BACKEND=$backend timeout 1800 "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 97 \
        --print-limit 20 "$work/$name.gpu" >"$log" 2>&1
      echo $? >"$log.rc"
    }
    running=0
    runs=()
    for line in "${programs[@]}"; do
      set -- $line
      [ -f "$work/$1.built" ] || continue
      tools=(memcheck initcheck)
      is_tiled "$2" && tools+=(racecheck synccheck)
      for tool in "${tools[@]}"; do
        runs+=("$tool $1")
        sanitize_one "$tool" "$1" &
        running=$((running + 1))
        if [ "$running" -ge "${DP_GPU_SANITIZE_JOBS:-4}" ]; then wait -n || true; running=$((running - 1)); fi
      done
    done
    wait || true
    clean=0
    for run in "${runs[@]}"; do
      set -- $run
      log=$work/$2.$1.log
      rc=$(cat "$log.rc" 2>/dev/null || echo "none (the run left no result)")
      summary=$(grep -o 'ERROR SUMMARY: [0-9]* error[s]*' "$log" 2>/dev/null | tail -n 1 || true)
      # Leaks count as findings, whatever the summary says.
      leaks=$(grep -o 'LEAK SUMMARY: [0-9]* bytes leaked in [0-9]* allocation[s]*' "$log" 2>/dev/null | tail -n 1 || true)
      [ "${leaks#LEAK SUMMARY: 0 }" != "$leaks" ] && leaks=""
      allowed=$(awk -v t="$1" -v n="$2" '$1 == t && n ~ ("^" $2 "$") { $1 = $2 = ""; print substr($0, 3); exit }' \
                  scripts/gpu-sanitizer-allow.txt 2>/dev/null || true)
      if [ "$rc" = 0 ] && [ -z "$leaks" ] && { [ -z "$summary" ] || [ "$summary" = "ERROR SUMMARY: 0 errors" ]; }; then
        echo "SANITIZE $1 $2: clean"; clean=$((clean + 1))
      elif [ -n "$allowed" ]; then
        echo "SANITIZE $1 $2: ${summary:-exit $rc}, a known false positive: $allowed"; clean=$((clean + 1))
      else
        what=${leaks:-${summary:-no summary}}
        case $rc in
          97) ;;
          124) what="timed out after 1800 s; $what" ;;
          *) what="exit $rc; $what" ;;
        esac
        echo "FAIL $1 $2: $what (log: $log)"
        grep -m 12 -E '^========= (Invalid|Uninitialized|Race|Barrier|Leaked|Error|Program hit|    at |Host API)' "$log" 2>/dev/null | sed 's/^/    /' || true
        failed+=("$1:$2")
      fi
    done
    sanitized=", $clean of ${#runs[@]} sanitizer runs clean"
  else
    echo "gpu-check: compute-sanitizer not found: sanitizers skipped"
    failed+=("no-compute-sanitizer")
  fi
elif [ "$sanitize" = 1 ]; then
  echo "gpu-check: no sanitizer runs on $backend (compute-sanitizer is CUDA's; ROCm has none with its tools)"
fi

if [ "$bench" = 1 ]; then
  DP_GPU_WORK=$work/bench bash scripts/gpu-bench.sh "$bundle" || failed+=("bench")
fi

device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 || echo "$backend")
if [ ${#failed[@]} -eq 0 ]; then
  echo "gpu-check: PASS: $passed of ${#programs[@]} programs print what their untranslated runs print on $device$sanitized$([ "$bench" = 1 ] && echo ', benchmark ran')"
else
  echo "gpu-check: FAIL: ${failed[*]} ($passed of ${#programs[@]} programs agree on $device$sanitized)"
  exit 1
fi
