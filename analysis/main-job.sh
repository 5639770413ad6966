#!/usr/bin/env bash
# The main job: installs what is missing and builds, then, within 10 minutes (python3 -m analysis main):
# calibrates this host and validates model and simulation against measured runs on it (never more ranks than
# cores), simulates the paper's owner experiment (Table 3) at 96 nodes, replicates Table 4 (Blue Gene/P and
# Blue Gene/L: modelled at every size, simulated up to the largest size the budget allows), and writes the
# report, whose first lines say what was found.
# Usage: analysis/main-job.sh [RESULTS_FOLDER=results/main] [BUDGET_SECONDS=600]
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
/usr/bin/python3 -m analysis main --out "${1:-results/main}" --budget "${2:-600}"
