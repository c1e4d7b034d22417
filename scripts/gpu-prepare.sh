#!/usr/bin/env bash
# On the development machine (Debian, with LLVM): gathers into one folder
# everything scripts/gpu-check.sh needs that a bare GPU machine lacks, so
# that the check runs there with only nvcc (or hipcc), g++ and the
# repository:
#   - the translations dpstub made of every sample, every e2e program,
#     every migrated program (with the program --migrate made) and the GPU
#     benchmark, and of DP_GPU_FUZZ random programs (dpgen) with their
#     untranslated sources; the OpenACC sample as written;
#   - Debian's oneTBB packages (unpacked privately on a machine without
#     oneTBB, never over /).
#
#   bash scripts/gpu-prepare.sh [BUNDLE]     (default gpu-bundle/, ignored by git)
#
# DP_GPU_FUZZ: how many random programs (default 40), from seed
# DP_GPU_FUZZ_FIRST (default 1). Then carry BUNDLE to the GPU machine with
# the tree and run: bash scripts/gpu-check.sh BUNDLE
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=${1:-gpu-bundle}
build=${DPSTUB_BUILD_DIR:-build}
fuzz=${DP_GPU_FUZZ:-40}
first=${DP_GPU_FUZZ_FIRST:-1}

bash scripts/setup.sh >/dev/null
bash scripts/build.sh >/dev/null
rm -rf "$bundle"
mkdir -p "$bundle/programs" "$bundle/debs" "$bundle/bench"

# One line per program: name, untranslated source, translated source (both
# relative to the repository), and the folders the sources include from.
manifest=$bundle/manifest.txt
: >"$manifest"
add() { # name original translated-dir translated-file
  local name=$1 original=$2 dir=$3 file=$4
  mkdir -p "$bundle/programs/$name"
  cp "$dir/$file" "$dir/$file.dpstub.hpp" "$bundle/programs/$name/"
  # and the marked copies of the headers it includes from beside it
  find "$dir" -maxdepth 1 -name '*.hpp' ! -name '*.dpstub.hpp' -exec cp {} "$bundle/programs/$name/" \;
  echo "$name $original $bundle/programs/$name/$file" >>"$manifest"
}
# Every sample and every e2e program, found rather than listed, so that a
# new one is checked too. A program that needs MPI is left out, loudly: GPU
# machines rarely have it (its translation compiles with nvcc and hipcc in
# CTest all the same).
skipped=()
for src in samples/*.cpp test/e2e/*.cpp; do
  name=$(basename "$src" .cpp)
  if grep -q '#include <dp/mpi.hpp>' "$src"; then
    skipped+=("$name (needs MPI)")
    continue
  fi
  case $src in
    samples/*) dir=$build/test/dpstub/${name}_dp ;;
    *) dir=$build/test/dpstub/${name}_dp/e2e ;;
  esac
  if [[ ! -f $dir/$name.cpp.dpstub.hpp ]]; then
    echo "gpu-prepare: no translation of $src in $dir (test/CMakeLists.txt should build it as ${name}_dp)" >&2
    exit 1
  fi
  add "$name" "$src" "$dir" "$name.cpp"
done

# Migrated programs (test/CMakeLists.txt's dpstub_migrated_e2e): the
# program `dpstub --migrate` made, untranslated, is the reference (CTest
# checks it against the original), beside its translation. For the
# OpenACC comparison of gpu-bench.sh, the original OpenACC sample too.
for dir in "$build"/test/dpstub/*_migrated_dp; do
  name=$(basename "$dir" _migrated_dp)
  file=$(basename "$(ls "$dir"/*.cpp | head -n 1)")
  [ -f "$build/test/migrated/$name/$file" ] ||
    { echo "gpu-prepare: no migrated source $build/test/migrated/$name/$file" >&2; exit 1; }
  mkdir -p "$bundle/programs/migrated_$name/reference"
  cp "$build/test/migrated/$name/$file" "$bundle/programs/migrated_$name/reference/"
  add "migrated_$name" "$bundle/programs/migrated_$name/reference/$file" "$dir" "$file"
done
mkdir -p "$bundle/openacc"
cp samples/openacc/laplace.cpp "$bundle/openacc/"

# Random programs: each is its own reference (it checks itself against
# plain loops and prints checksums the translation must print too).
for seed in $(seq "$first" $((first + fuzz - 1))); do
  dir=$bundle/programs/fuzz_$seed
  mkdir -p "$dir/out"
  "$build/test/dpgen" "$seed" >"$dir/program.cpp"
  "$build/tool/dpstub" "$dir/program.cpp" --out-dir "$dir/out" -- -std=c++17 -Iinclude
  echo "fuzz_$seed $dir/program.cpp $dir/out/program.cpp" >>"$manifest"
done

cp "$build/bench/dpstub/gpu_bench_dp/gpu_bench.cpp" \
   "$build/bench/dpstub/gpu_bench_dp/gpu_bench.cpp.dpstub.hpp" "$bundle/bench/"

# Debian's oneTBB, for a GPU machine without it.
(cd "$bundle/debs" && { apt-get download libtbb12 libtbb-dev libtbbmalloc2 >/dev/null 2>&1 ||
  { apt-get update -qq && apt-get download libtbb12 libtbb-dev libtbbmalloc2 >/dev/null; }; })

{
  echo "commit $(git rev-parse HEAD)$(git diff --quiet HEAD -- include runtime || echo ' (with local changes)')"
  echo "made $(date -u +%Y-%m-%dT%H:%MZ) on $(uname -n)"
} >"$bundle/ORIGIN"
for what in "${skipped[@]}"; do echo "gpu-prepare: left out $what"; done
echo "gpu-prepare: $(wc -l <"$manifest") programs, the GPU benchmark and $(ls "$bundle/debs" | wc -l) oneTBB packages in $bundle ($(du -sh "$bundle" | cut -f1))"
echo "gpu-prepare: on the GPU machine, with $bundle beside the tree: bash scripts/gpu-check.sh $bundle"
