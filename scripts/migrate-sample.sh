#!/usr/bin/env bash
# Sets up, builds dpstub and brings an OpenACC program into dp call-sites:
# samples/openacc/laplace.cpp built as written (its directives ignored: the
# reference), migrated by `dpstub --migrate` (a remark or a warning per
# loop), translated by `dpstub`, then run untranslated, on the host's
# threads and in dispatch emulation (the GPU's thread mapping walked on the
# CPU). Every run must print what the original prints.
#   bash scripts/migrate-sample.sh [N [ITERATIONS]]   (the plate's size, the
#   iteration limit; default 128 400)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${DPSTUB_BUILD_DIR:-build}
bash scripts/setup.sh
DPSTUB_TARGETS="dpstub dp_runtime" bash scripts/build.sh

src=samples/openacc/laplace.cpp
out=$build/migrated-sample
rm -rf "$out" && mkdir -p "$out"
cxx=(c++ -std=c++17 -O2)
fibers=()
grep -q '^Boost_CONTEXT_LIBRARY_RELEASE:' "$build/CMakeCache.txt" && fibers=(-lboost_context)
runtime=("$build/runtime/libdp_runtime.a" -ltbb -lpthread "${fibers[@]}")

echo "== the original, its directives ignored (the reference)"
"${cxx[@]}" -Wno-unknown-pragmas "$src" -o "$out/original"
"$out/original" "$@" | tee "$out/original.txt"

echo "== dpstub --migrate $src --out-dir $out/migrated"
"$build/tool/dpstub" --migrate "$src" --out-dir "$out/migrated" -- -std=c++17 -Iinclude
echo "   migrated source: $out/migrated/laplace.cpp"
"${cxx[@]}" -Iinclude "$out/migrated/laplace.cpp" "${runtime[@]}" -o "$out/migrated/laplace"

echo "== dpstub $out/migrated/laplace.cpp --out-dir $out/translated"
"$build/tool/dpstub" "$out/migrated/laplace.cpp" --out-dir "$out/translated" -- -std=c++17 -Iinclude
echo "   rewritten source: $out/translated/laplace.cpp"
echo "   generated stubs:  $out/translated/laplace.cpp.dpstub.hpp"
"${cxx[@]}" -Iinclude -I"$out/translated" "$out/translated/laplace.cpp" "${runtime[@]}" \
  -o "$out/translated/laplace"

echo "== migrated, untranslated (the host reference)"
"$out/migrated/laplace" "$@" > "$out/migrated.txt"
echo "== translated, host backend, native"
"$out/translated/laplace" "$@" > "$out/native.txt"
echo "== translated, host backend, dispatch emulation (small device: several launches)"
DP_HOST_MODE=emulate DP_DISPATCH_POLICY=split DP_EMULATE_MAX_GROUPS=4,4,4 DP_EMULATE_GROUP=64 \
  "$out/translated/laplace" "$@" > "$out/emulated.txt"
for run in migrated native emulated; do
  if ! cmp -s "$out/original.txt" "$out/$run.txt"; then
    echo "migrate-sample: the $run run printed otherwise:" >&2
    diff "$out/original.txt" "$out/$run.txt" >&2 || true
    exit 1
  fi
done
echo "== all three print what the original printed"
