#!/usr/bin/env bash
# Copies the tables the benchmarks and studies last wrote (results/, analysis/studies/) into docs/measured/ and
# into the measured blocks of README.md and docs/*.md. --check: only says whether the guides match their copies.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 docs/update.py "$@"
