#!/usr/bin/env bash
# The cluster job: torus-gups built as most sites that run RandomAccess have
# it, with an MPICH-derived MPI and no SimGrid, in ./build-cluster, and with
# AddressSanitizer and UndefinedBehaviorSanitizer (-O0 -g1: the job took 12.9
# minutes, 14.0 at -O1, whose faster runs did not make up for its build).
# SimGrid is hidden from cmake (TORUS_GUPS_SIMULATOR=OFF)
# whether or not it is installed. Checks that cmake says in one line what it
# left out, then runs the unit tests, the fuzzed bad inputs, the MPI
# transcripts under MPICH, the install route and the analysis asked to
# simulate without a simulator, all under the sanitizers. Run by
# tests/run-all.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
configure_log=$(mktemp)
trap 'rm -f "$configure_log"' EXIT
cmake -S . -B build-cluster -DTORUS_GUPS_MPI=mpich -DTORUS_GUPS_SIMULATOR=OFF -DTORUS_GUPS_SANITIZE=ON \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g1" -DTORUS_GUPS_WERROR=ON \
  -DPython3_EXECUTABLE=/usr/bin/python3 >"$configure_log"
grep -E "^-- (MPI|Left out):" "$configure_log"
if ! grep -q "^-- MPI: MPICH" "$configure_log" || [ "$(grep -c "^-- Left out: the simulator" "$configure_log")" != 1 ]; then
  echo "cluster job: cmake did not say MPICH and, in one line, that it left the simulator out" >&2
  exit 1
fi
cmake --build build-cluster -j "$(nproc)"
cd build-cluster
ctest --output-on-failure -j "$(nproc)" -L 'unit|mpi|install|nosim|fuzz'
