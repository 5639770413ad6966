#!/usr/bin/env bash
# The sanitizer job: the real-MPI programs and the unit tests built with
# AddressSanitizer and UndefinedBehaviorSanitizer in ./build-sanitize (no
# simulator: see CMakeLists.txt), then the unit tests, the fuzzed bad inputs
# and tiny mpirun runs of every algorithm under them. Run by tests/run-all.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# -O1 -g1: what the sanitizers' authors advise, and half the build time of -O2 -g.
cmake -S . -B build-sanitize -DTORUS_GUPS_SANITIZE=ON -DTORUS_GUPS_WERROR=ON -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
cmake --build build-sanitize -j "$(nproc)"
cd build-sanitize
# At most 16 ranks per run: LeakSanitizer's exit-time scan itself crashed
# ("Tracer caught signal 11") with 32 instrumented ranks on 2 cores. Bad
# command lines are the fuzz test's (mpi.bad_input's 3-rank runs took 98 s).
ctest --output-on-failure -j "$(nproc)" -L unit
ctest --output-on-failure -j "$(nproc)" \
  -R '^(fuzz\.inputs|shared_table|mpi\.(verification_verdict|direct\.json|direct\.checksums\.np2\.(division|predict)|(routed|multicore)\.(1x1x1|2x1x1)|routed\.(2x2x2|3x2x2)|multicore\.plans|session_paths|handoffs\.1x1x1x2|mapping_modes|apex_map))$'
