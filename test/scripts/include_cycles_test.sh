#!/usr/bin/env bash
# No header of include/ includes itself through others: a loop makes what
# a header needs depend on which of its members a reader includes first.
# Prints each loop found; exits non-zero when there is one.
#
#   bash test/scripts/include_cycles_test.sh [INCLUDE_DIR]
set -euo pipefail
root=${1:-"$(dirname "$0")/../../include"}
cd "$root"
mapfile -t headers < <(find . -name '*.hpp' | sort)
awk '
  function normal(path,   n, parts, out, i, k) {
    n = split(path, parts, "/"); k = 0
    for (i = 1; i <= n; ++i) {
      if (parts[i] == "." || parts[i] == "") continue
      if (parts[i] == ".." && k > 0) { --k; continue }
      out[++k] = parts[i]
    }
    path = out[1]
    for (i = 2; i <= k; ++i) path = path "/" out[i]
    return path
  }
  FNR == 1 { file = normal(FILENAME); dir = file; sub(/[^\/]*$/, "", dir); files[file] = 1 }
  /^[ \t]*#[ \t]*include[ \t]*"/ {
    split($0, q, "\""); edge[file, ++edges[file]] = normal(dir q[2])
  }
  /^[ \t]*#[ \t]*include[ \t]*<dp\// {
    split($0, q, /[<>]/); edge[file, ++edges[file]] = normal(q[2])
  }
  function visit(u,   i, v, j, loop) {
    state[u] = 1; stack[++depth] = u
    for (i = 1; i <= edges[u]; ++i) {
      v = edge[u, i]
      if (!(v in files)) continue
      if (state[v] == 1) {
        loop = v
        for (j = depth; j >= 1 && stack[j] != v; --j) loop = stack[j] " -> " loop
        print "include loop: " v " -> " loop; ++loops
      } else if (!state[v]) visit(v)
    }
    --depth; state[u] = 2
  }
  END {
    for (f in files) if (!state[f]) visit(f)
    if (loops) { print loops " include loop(s) in include/"; exit 1 }
    print "no include loop among " length(files) " headers"
  }' "${headers[@]}"
