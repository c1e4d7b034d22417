#!/usr/bin/env bash
# Checks one migration end to end: the original program (its directives
# ignored, as a compiler without OpenMP/OpenACC builds it), the program
# `dpstub --migrate` makes of it, and that program translated by dpstub on
# the host's threads and in dispatch emulation must print the same
# (standard output and standard error), and exit 0.
#
#   bash scripts/migrate-check.sh [-k] SOURCE [-- FLAGS...]
#
# SOURCE is a C or C++ file holding main; FLAGS are its compile flags
# (-I, -D). A C file is built as C (gnu99, or CSTD) and migrated as C; its
# migration, which is C++, is built as C++ (one in which nothing converts
# stays C, as dpstub leaves it). CHECK_LINK names the program's other
# sources (relative to SOURCE's folder; C built as C, C++ as C++17), built
# as they are and linked with every build: then SOURCE need not hold main
# (NeoRodinia's kernel files, Rodinia's backprop.c), and what it defines
# for them keeps C linkage in its migration.
# Uses build/ (bash scripts/build.sh makes it); work goes to a temporary
# folder, kept with -k. Prints one line: the verdict and what differed.
# For programs that take arguments or write files (Rodinia's), the
# environment may give CHECK_ARGS (the program's arguments, each run in the
# source's folder), CHECK_FILE (a file it writes there, compared too) and
# CHECK_IGNORE (a regular expression: lines dropped before comparing, such
# as timings). CHECK_OPT sets the optimisation of every build (default -O2,
# as programs are built: C's undefined behaviour that C++ adds shows there).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${DPSTUB_BUILD_DIR:-$here/build}
keep=0
if [ "${1:-}" = "-k" ]; then keep=1; shift; fi
src=$(realpath "$1"); shift
[ "${1:-}" = "--" ] && shift
flags=("$@")
work=$(mktemp -d)
[ $keep -eq 1 ] || trap 'rm -rf "$work"' EXIT
name=$(basename "${src%.*}")
ext=${src##*.}
[ "$ext" = c ] || ext=cpp
cp "$src" "$work/$name.$ext"
inc=(-I"$(dirname "$src")" -I"$here/include")
cxx=${CXX:-g++}
opt=${CHECK_OPT:--O2}
runtime=("$build/runtime/libdp_runtime.a" -ltbb -lpthread)
# The runtime switches tile threads with Boost.Context when it was found.
grep -q "DP_RUNTIME_FIBERS:STRING=boost" "$build/CMakeCache.txt" 2>/dev/null && runtime+=(-lboost_context)

fail() { echo "FAIL $name: $*"; [ $keep -eq 1 ] && echo "  (kept in $work)"; exit 1; }

read -r -a args <<< "${CHECK_ARGS:-}"
run() { # run LABEL EXE [ENV...]: its output (and CHECK_FILE) in $work/LABEL.out
  local label=$1 exe=$2; shift 2
  # A program that appends to its file (NeoRodinia's b+tree) starts each run without it.
  [ -z "${CHECK_FILE:-}" ] || rm -f "$(dirname "$src")/$CHECK_FILE"
  (cd "$(dirname "$src")" && env "$@" "$exe" "${args[@]}") > "$work/$label.raw" 2>&1 || fail "$label exited $?"
  [ -z "${CHECK_FILE:-}" ] || cat "$(dirname "$src")/$CHECK_FILE" >> "$work/$label.raw"
  if [ -n "${CHECK_IGNORE:-}" ]; then
    grep -Ev "$CHECK_IGNORE" "$work/$label.raw" > "$work/$label.out" || true
  else
    mv "$work/$label.raw" "$work/$label.out"
  fi
}

# How the source is built and parsed as written: as C or as C++.
lang=(-std=c++17)
[ "$ext" = c ] && lang=(-std="${CSTD:-gnu99}")
# The program's other sources, built once as they are.
read -r -a link <<< "${CHECK_LINK:-}"
objects=()
for f in "${link[@]}"; do
  other=$(cd "$(dirname "$src")" && realpath "$f")
  o="$work/linked_${#objects[@]}.o"
  case "$other" in
    *.c) ${CC:-gcc} -std="${CSTD:-gnu99}" "$opt" -w "${inc[@]}" "${flags[@]}" -c "$other" -o "$o" ;;
    *) $cxx -std=c++17 "$opt" -w "${inc[@]}" "${flags[@]}" -c "$other" -o "$o" ;;
  esac || fail "$f does not build"
  objects+=("$o")
done
if [ "$ext" = c ]; then
  ${CC:-gcc} "${lang[@]}" "$opt" -w "${inc[@]}" "${flags[@]}" "$work/$name.c" "${objects[@]}" -o "$work/original" -lm
else
  $cxx "${lang[@]}" "$opt" -w "${inc[@]}" "${flags[@]}" "$work/$name.cpp" "${objects[@]}" -o "$work/original" -lm
fi || fail "the original does not build"
run original "$work/original"

mkdir -p "$work/migrated" "$work/translated"
"$build/tool/dpstub" --migrate --quiet "$work/$name.$ext" --out-dir "$work/migrated" -- \
  "${lang[@]}" "${inc[@]}" "${flags[@]}" 2> "$work/migrate.log" || fail "dpstub --migrate failed: $(grep -m1 error "$work/migrate.log")"
converted=$(grep -c "remark: converted" "$work/migrate.log" || true)
refused=$(grep -c "warning: not converted" "$work/migrate.log" || true)
[ -f "$work/migrated/$name.$ext" ] || cp "$work/$name.$ext" "$work/migrated/$name.$ext"
if [ "$ext" = c ] && [ "$converted" = 0 ]; then
  # Nothing converted: the file stays C, built as the original was.
  ${CC:-gcc} "${lang[@]}" "$opt" -w "${inc[@]}" "${flags[@]}" "$work/migrated/$name.c" "${objects[@]}" \
    -o "$work/migrated/program" -lm || fail "the migrated program does not build"
  run migrated "$work/migrated/program"
  cmp -s "$work/original.out" "$work/migrated.out" || fail "the migrated run prints otherwise"
  echo "PASS $name: 0 loops converted, $refused refused; original and migrated print the same"
  exit 0
fi
# The migration is C++ whatever the source was.
[ "$ext" = cpp ] || mv "$work/migrated/$name.$ext" "$work/migrated/$name.cpp"
$cxx -std=c++17 "$opt" -w "${inc[@]}" "${flags[@]}" "$work/migrated/$name.cpp" "${objects[@]}" "${runtime[@]}" \
  -o "$work/migrated/program" -lm || fail "the migrated program does not build"
run migrated "$work/migrated/program"

# The headers beside the source go beside its migration: dpstub marks the
# helpers its kernels call for the device, in them too (ParRes Kernels'
# prk::abs in prk_util.h), and writes them under --out-dir with the source.
find "$(dirname "$src")" -maxdepth 1 -type f \( -name '*.h' -o -name '*.hh' -o -name '*.hpp' \) \
  -exec cp -n {} "$work/migrated/" \;
"$build/tool/dpstub" --quiet "$work/migrated/$name.cpp" --out-dir "$work/translated" -- \
  -std=c++17 "${inc[@]}" "${flags[@]}" 2> "$work/translate.log" || fail "dpstub failed: $(grep -m1 error "$work/translate.log")"
$cxx -std=c++17 "$opt" -w -I"$work/translated" "${inc[@]}" "${flags[@]}" "$work/translated/$name.cpp" "${objects[@]}" \
  "${runtime[@]}" -o "$work/translated/program" -lm || fail "the translated program does not build"
run native "$work/translated/program" DP_HOST_MODE=native
run emulated "$work/translated/program" DP_HOST_MODE=emulate DP_EMULATE_MAX_GROUPS=7,3,2 DP_EMULATE_GROUP=8

for label in migrated native emulated; do
  cmp -s "$work/original.out" "$work/$label.out" || fail "the $label run prints otherwise"
done
loops=loops; [ "$converted" = 1 ] && loops=loop
echo "PASS $name: $converted $loops converted, $refused refused; original, migrated, translated (native, emulated) print the same"
