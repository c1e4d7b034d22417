#!/usr/bin/env bash
# Configures and builds dpstub in build/ (or $DPSTUB_BUILD_DIR). Incremental.
#   bash scripts/build.sh [CMAKE_ARGS...]   (configure again with them)
# DPSTUB_TARGETS="a b" builds only those targets (and what they need).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${DPSTUB_BUILD_DIR:-build}
jobs=${DPSTUB_JOBS:-$(nproc)}
if [ ! -f "$build/build.ninja" ] || [ $# -gt 0 ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
fi
targets=()
for t in ${DPSTUB_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build" -j "$jobs" "${targets[@]}"
