#!/usr/bin/env python3
"""A 16-rank run (multicore on 8 cores a node) at Open MPI session folders of several lengths and from a deep
working folder: a run must not depend on where the checkout or its temporary folders are. (In a sanitized Open MPI
build, GCC 12's runtime once crashed LeakSanitizer's exit-time scan here from a 16-character folder on, every time,
and passed below; the next build passed at every length: the crash follows where malloc happens to put a thread's
dynamic TLS, which ASAN_OPTIONS intercept_tls_get_addr=0 stops it from guessing about. This test sweeps the lengths
so that such a dependence shows.)

Usage: session_paths.py GUPS MPIEXEC   (prints a line per length; exit 1 if any run failed)
"""
import os
import shutil
import subprocess
import sys
import tempfile

LENGTHS = (14, 16, 24, 40, 64)


def main(gups, mpiexec):
    failed = 0
    deep = tempfile.mkdtemp(prefix="tg-deep-")
    cwd = os.path.join(deep, *["a-folder-name-of-some-length"] * 3)
    os.makedirs(cwd)
    try:
        for length in LENGTHS:
            base = tempfile.mkdtemp(prefix="t")  # /tmp/tXXXXXXXX: the shortest unique folder here
            session = base + ("/" + "s" * (length - len(base) - 1) if length > len(base) + 1 else "")
            os.makedirs(session, exist_ok=True)
            done = subprocess.run([*mpiexec.split(), "-np", "16", gups, "--algo", "multicore", "--cores-per-node", "8",
                                   "--shape", "2x1", "--log2-table", "12"], capture_output=True, text=True, cwd=cwd,
                                  env={**os.environ, "OMPI_MCA_orte_tmpdir_base": session}, timeout=300)
            ok = done.returncode == 0 and "Found 0 errors in 4096 locations (passed)." in done.stdout
            print(f"session folder of {len(session)} characters: {'passed' if ok else 'FAILED'}")
            if not ok:
                failed += 1
                print("\n".join((done.stdout + done.stderr).splitlines()[-12:]))
            shutil.rmtree(base, ignore_errors=True)
    finally:
        shutil.rmtree(deep, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    sys.exit(main(sys.argv[1], sys.argv[2]))
