#!/usr/bin/env bash
# The model's figures docs/models.md quotes, as gups-model prints them now: Blue Gene/Q's design study in the
# paper's placement (mode 8, one group of 16 cores a node) at 16,384 nodes, with its interval and the inputs
# that carry it. docs/update.sh copies the table into docs/models.md.
# Usage: model-examples.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/benchmarks/record.sh
command="build/models/gups-model --machine bgq --algorithm multicore --nodes 16384 --mapping-mode 8"
record model-examples "bash tests/benchmarks/model-examples.sh"
$command | sed -n '/^ *N  *GUPS  *over the ranges/,/^ *[0-9][0-9]* /p'
echo
echo "($command)"
