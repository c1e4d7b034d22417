#!/usr/bin/env bash
# Sets up, builds and runs one sample (default: matmul_spread).
#   bash scripts/run-sample.sh [vector_add|matmul_spread|matmul_reduce|sum_rows]
set -euo pipefail
cd "$(dirname "$0")/.."
sample=${1:-matmul_spread}
bash scripts/setup.sh
bash scripts/build.sh
"${DPSTUB_BUILD_DIR:-build}/samples/$sample"
