#!/usr/bin/env bash
# Runs host_row_code (its results must be right), then reads its host row
# functions with nm: none may pass LIMIT bytes, and those of a kernel that
# loops itself (row_sums: one row loop per position type, not per row
# counter too) ONE_LOOP_LIMIT bytes.
#   bash run_host_row_code.sh EXE NM LIMIT ONE_LOOP_LIMIT
set -euo pipefail
exe=$1 nm=$2 limit=$3 one_loop_limit=$4
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
