#!/usr/bin/env python3
"""The install route, as a user on a cluster takes it: cmake --install into a prefix, the prefix moved, the
programs run from another folder (machine files found beside them), and the analysis installed with pip running
the installed programs. Prints one line per check; exit 1 if any failed.

Usage: install_check.py --build BUILD --source SOURCE [--no-sim]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_btl_vader_single_copy_mechanism": "none"}


def run(command, cwd, env=None):
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env={**os.environ, **(env or {})},
                          timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()[-600:]}")
    return done.stdout + done.stderr


def refused_in_one_line(command, cwd, env):
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env={**os.environ, **env}, timeout=600)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    if done.returncode == 0 or len(lines) != 1 or "Traceback" in done.stderr or "simulator" not in lines[0]:
        return f"FAILED: status {done.returncode}, error output {done.stderr.strip()[-400:]!r}"
    return f"ok ({lines[0]})"


def main(args):
    failures = 0
    top = tempfile.mkdtemp(prefix="tg-install-")
    try:
        run(["cmake", "--install", args.build, "--prefix", os.path.join(top, "prefix")], top)
        prefix = os.path.join(top, "moved")
        os.rename(os.path.join(top, "prefix"), prefix)  # a prefix can be moved
        elsewhere = os.path.join(top, "elsewhere")
        os.makedirs(elsewhere)
        bin_dir = os.path.join(prefix, "bin")
        machines = os.path.join(prefix, "share", "torus-gups", "machines")

        def check(what, test):
            nonlocal failures
            try:
                verdict = test()
            except (RuntimeError, OSError, ValueError, KeyError, subprocess.TimeoutExpired) as error:
                verdict = f"FAILED: {error}"
            failures += not verdict.startswith("ok")
            print(f"{what}: {verdict}")

        check("gups-topology finds the installed machine files", lambda: "ok" if json.loads(
            run([os.path.join(bin_dir, "gups-topology"), "--machine", "bgp", "--nodes", "64"], elsewhere))[
            "machine"]["path"] == os.path.join(machines, "bgp.json") else "FAILED: another machine file")
        check("gups-model models from the installed machine", lambda: "ok" if "4x4x4" in run(
            [os.path.join(bin_dir, "gups-model"), "--machine", "fattree", "--algorithm", "routed", "--nodes", "64"],
            elsewhere) else "FAILED: no 4x4x4 row")
        check("gups runs under the installed gups-mpirun (the MPI it was built with)", lambda: "ok" if "(passed)" in run(
            [os.path.join(bin_dir, "gups-mpirun"), "-np", "2", os.path.join(bin_dir, "gups"), "--log2-table", "10"],
            elsewhere, MPI_ENV) else "FAILED: not verified")
        if not args.no_sim:
            check("gups-sim simulates with the installed gups-smpi", lambda: "ok" if "(passed)" in run(
                [os.path.join(bin_dir, "gups-sim"), "--quiet", "--shape", "2x2x2", "--updates-per-node", "1024"],
                elsewhere) else "FAILED: not verified")
        # pip builds in the source folder: a copy keeps the checkout's build/ clean.
        source = os.path.join(top, "source")
        os.makedirs(source)
        shutil.copytree(os.path.join(args.source, "analysis"), os.path.join(source, "analysis"),
                        ignore=shutil.ignore_patterns("studies", "__pycache__"))
        for name in ("pyproject.toml", "README.md"):
            shutil.copy(os.path.join(args.source, name), source)
        site = os.path.join(top, "python")
        run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--target", site,
             source], top)
        environment = {"PATH": bin_dir + os.pathsep + os.environ["PATH"], "PYTHONPATH": site, **MPI_ENV}
        out = os.path.join(elsewhere, "sweep")
        sources = "model" if args.no_sim else "model,sim"
        check("the pip-installed analysis runs the installed programs", lambda: "ok" if "joined in" in run(
            [os.path.join(site, "bin", "torus-gups-analysis"), "sweep", "--machine", "bgp", "--algorithms",
             "multicore", "--nodes", "8", "--sources", sources, "--updates-per-node", "1024", "--out", out],
            elsewhere, environment) and os.path.exists(os.path.join(out, "results.csv"))
            else "FAILED: no results.csv")
        if args.no_sim:
            check("the installed analysis, asked to simulate, says in one line that there is no simulator",
                  lambda: refused_in_one_line([os.path.join(site, "bin", "torus-gups-analysis"), "sweep", "--machine",
                                               "bgp", "--algorithms", "multicore", "--nodes", "8", "--sources", "sim",
                                               "--out", os.path.join(elsewhere, "no-sim")], elsewhere, environment))
    finally:
        shutil.rmtree(top, ignore_errors=True)
    print(f"install: {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--no-sim", action="store_true")
    sys.exit(main(parser.parse_args()))
