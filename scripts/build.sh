#!/usr/bin/env bash
# Configures and builds dpstub in build/ (or $DPSTUB_BUILD_DIR). Incremental.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${DPSTUB_BUILD_DIR:-build}
jobs=${DPSTUB_JOBS:-$(nproc)}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
fi
cmake --build "$build" -j "$jobs"
