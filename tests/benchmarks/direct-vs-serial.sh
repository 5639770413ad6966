#!/usr/bin/env bash
# Benchmark: gups --algo direct at -np 1 and -np 2 against the plain serial
# update loop on the same table size, interleaved so that machine noise hits
# all three alike. Usage: direct-vs-serial.sh [LOG2_TABLE=26] [REPEATS=3]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/benchmarks/record.sh
record direct-vs-serial "bash tests/benchmarks/direct-vs-serial.sh $(printf '%q ' "$@")"
log2_table="${1:-26}"
repeats="${2:-3}"
out="results/bench-direct"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for ((i = 1; i <= repeats; i++)); do
  echo "bench: repeat $i of $repeats (2^$log2_table words)" >&2
  build/kernel/gups-serial --log2-table "$log2_table" --json "$out/serial-$i.json" >/dev/null
  for np in 1 2; do
    build/kernel/gups-mpirun -np "$np" build/kernel/gups --algo direct --log2-table "$log2_table" \
      --json "$out/direct-np$np-$i.json" >/dev/null
  done
done
python3 - "$out" "$repeats" "$log2_table" <<'PY'
import json, statistics, sys
out, repeats, log2 = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def rates(name):
    return [json.load(open(f"{out}/{name}-{i}.json"))["gups"] for i in range(1, repeats + 1)]
serial = rates("serial")
rows = [("serial loop (1 process)", serial)] + [(f"direct -np {np}", rates(f"direct-np{np}")) for np in (1, 2)]
base = statistics.median(serial)
print(f"table 2^{log2} words, {repeats} repeats, median GUP/s (min..max), ratio to serial")
for name, values in rows:
    m = statistics.median(values)
    print(f"  {name:26s} {m:.5f} ({min(values):.5f}..{max(values):.5f})  x{m / base:.3f}")
PY
