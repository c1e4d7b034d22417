#!/usr/bin/env bash
# Sets up (Debian packages), builds and runs every test with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh -DBUILD_TESTING=ON
ctest --test-dir "${DPSTUB_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"
