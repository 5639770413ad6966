#!/usr/bin/env bash
# The main job on a small default: installs what is missing, builds, and runs
# gups (direct algorithm, 2^22 words) under mpirun on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup
ranks="${RANKS:-$(nproc)}"
mkdir -p results
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun --oversubscribe -np "$ranks" build/kernel/gups --algo direct --log2-table 22 \
  --json results/gups-direct.json "$@"
echo "JSON result: results/gups-direct.json"
