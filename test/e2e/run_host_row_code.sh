#!/usr/bin/env bash
# Runs host_row_code (its results must be right), then reads its host row
# functions with nm: none may pass LIMIT bytes, and those of a kernel that
# loops itself (row_sums: one row loop per position type, not per row
# counter too) ONE_LOOP_LIMIT bytes. Then reads its code with objdump: no
# stub body or stub lambda may be left out of line, and no function of
# dp's host rows (dp::rt::host, dp::detail, dp::rt::map_source) may call a
# user's kernel. And the row functions (dp::rt::host::run_rows) of
# plane_sweep, a kernel over rank-4 fields, may not store the constant 1
# in a stack slot: that is a dense handle's stride, in a handle built in
# memory at each kernel call instead of held in registers (DP_UNROLL).
#   bash run_host_row_code.sh EXE NM LIMIT ONE_LOOP_LIMIT OBJDUMP
set -euo pipefail
exe=$1 nm=$2 limit=$3 one_loop_limit=$4 objdump=$5
"$exe" || { echo "host_row_code failed (exit $?)"; exit 1; }
"$nm" -C -S --size-sort "$exe" | awk -v limit="$limit" -v one_loop_limit="$one_loop_limit" '
  $3 ~ /^[tTwW]$/ {
    name = $0; sub(/^[0-9a-f]+ [0-9a-f]+ [tTwW] /, "", name)
    if (name !~ /dp::rt::host::run_rows<|dp::rt::map_source<.*>::(fold|segment)/) next
    bytes = 0
    for (i = 1; i <= length($2); ++i) bytes = bytes * 16 + index("0123456789abcdef", substr($2, i, 1)) - 1
    ++rows
    max = name ~ /row_sums/ ? one_loop_limit : limit
    if (bytes > max) { printf "%d bytes (limit %d): %s...\n", bytes, max, substr(name, 1, 240); ++bad }
  }
  END {
    if (rows < 6) { printf "found %d host row functions; the test reads the wrong symbols\n", rows; exit 1 }
    if (bad) { printf "%d of %d host row functions past their size\n", bad, rows; exit 1 }
    printf "%d host row functions, each within its limit\n", rows
  }'

"$objdump" -d -C --no-show-raw-insn "$exe" | awk '
  # A demangled name without its template arguments and parameter lists:
  # a function is matched by its own name, not by what it was instantiated
  # with (every row function names the kernel in its arguments).
  function own(s,   t) {
    gsub(/operator\(\)/, "operator_call", s)
    gsub(/operator(<<|>>|<=|>=|<|>|->)/, "operator_cmp", s)
    do { t = s; gsub(/<[^<>]*>/, "", s); gsub(/\([^()]*\)/, "", s) } while (s != t)
    return s
  }
  function glue(f) { return f ~ /^dpstub::.*_body$/ || f ~ /^dpstub::.*::(forall|reduce|scan|sort)_[0-9]+_[0-9]+::\{lambda#[0-9]+\}::operator_call/ }
  /^[0-9a-f]+ <.*>:$/ {
    name = $0; sub(/^[0-9a-f]+ </, "", name); sub(/>:$/, "", name)
    fn = own(name); sub(/^[^ ]+ (dpstub::)/, "dpstub::", fn)
    if (glue(fn)) { printf "generated glue out of line: %s\n", substr(name, 1, 240); ++bad }
    row = fn ~ /(^| )dp::(rt::host|detail|rt::map_source)::/
    rows += row
    sweep = name ~ /dp::rt::host::run_rows</ && name ~ /plane_sweep/
    sweeps += sweep
    next
  }
  sweep && /\tmovq +\$0x1,.*\(%rsp\)/ {
    if (!stored[name]++) printf "a handle built in memory (its stride stored at %s): %s\n", $1, substr(name, 1, 240)
    ++bad
  }
  row && /\tcall +[0-9a-f]+ </ {
    callee = $0
    sub(/.*\tcall +[0-9a-f]+ </, "", callee)
    sub(/>$/, "", callee)
    f = own(callee); sub(/^[^ ]+ (dpstub::)/, "dpstub::", f)
    if (glue(f) || (f ~ /\{lambda#[0-9]+\}::operator_call/ && f !~ /(^| )(dp|std|tbb)::/)) {
      printf "a host row function calls a kernel: %s\n", substr(callee, 1, 240); ++bad
    }
  }
  END {
    if (rows < 20) { printf "found %d functions of host rows; the test reads the wrong code\n", rows; exit 1 }
    if (sweeps < 1) { printf "found no row function of plane_sweep; the test reads the wrong code\n"; exit 1 }
    if (bad) exit 1
    printf "%d functions of host rows, none calls a kernel; no generated glue out of line; %d row functions of plane_sweep, handles in registers\n", rows, sweeps
  }'
