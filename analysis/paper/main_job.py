"""The main job after the builds, within a wall budget: calibrates this host, validates model and simulation
against measured runs on it (never more ranks than cores), simulates the paper's owner experiment (Table 3) at
96 nodes, and replicates Table 4 on Blue Gene/P and Blue Gene/L, modelled at every size and simulated up to the
largest size the rest of the budget allows, each run until its steady state is settled (gups-sim --converge);
then writes the report whose first lines say what was found."""
import contextlib
import io
import json
import os
import shlex
import sys
import time

from ..run import hpcc, hpcc_sandia, launcher, programs
from . import headline, sweep

HOST_NODES = "1,2"
HOST_ALGORITHMS = "direct,routed,multicore"
OWNER_NODES = 96  # the paper's Table 3 starts here: not a power of two, so owners are found by division
REPORT_RESERVE_SECONDS = 30  # writing the report and its plots, and the slack of the last simulation


class Step:
    """One command of the job, run and recorded (the report's audit trail repeats it)."""

    def __init__(self, out, budget, run_analysis):
        self.out, self.budget, self.commands, self.failed, self.start = out, budget, [], [], time.monotonic()
        self.run_analysis = run_analysis

    def elapsed(self):
        return time.monotonic() - self.start

    def say(self, text):
        print(f"main job: [{self.elapsed():.0f} s] {text}", file=sys.stderr, flush=True)

    def analysis(self, argv):
        """Runs `python3 -m analysis ARGV` in this process: the commands a user would type."""
        command = "python3 -m analysis " + " ".join(shlex.quote(a) for a in argv)
        self.commands.append(command)
        # Their tables are in their folders (the report has them), and say which command made them.
        saved, sys.argv = sys.argv, [sys.argv[0]] + argv
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                status = self.run_analysis(argv)
        finally:
            sys.argv = saved
        if status != 0:
            self.failed.append(command)

    def program(self, command):
        self.commands.append(" ".join(shlex.quote(c) for c in command))
        status, _, err = launcher.run(command, launcher.MPI_ENV)
        if status != 0:
            raise programs.MissingBinary(f"{command[0]} failed (status {status}): {err.strip()[-400:]}")


def host_hpcc(args, folder, ranks, step):
    """HPCC's MPIRandomAccess on the measured runs' ranks and table, --host-repeats times: host/hpcc.json (the
    report's HPCC figure). Without Debian's hpcc, the report says how to get it."""
    if not hpcc.installed():
        step.say(f"this host: HPCC not run ({hpcc.INSTALL_HINT} adds it)")
        return
    step.say(f"this host: HPCC's MPIRandomAccess on {ranks} ranks, 2^{args.host_log2_table} words")
    where = os.path.join(folder, "hpcc")
    hpcc.write_input(where, args.host_log2_table, ranks)
    step.commands.append(f"cd {shlex.quote(where)} && " + " ".join(hpcc.command(ranks)) +
                         f"  # hpccinf.txt: HPL N {hpcc.hpl_n(args.host_log2_table)}, a table of "
                         f"2^{args.host_log2_table} words")
    runs, _ = hpcc_runs(args, where, ranks, step, "hpcc", "HPCC")
    if runs is None:
        return
    done = {"ranks": ranks, "log2_table": args.host_log2_table, "runs": runs,
            "verified": all(hpcc.verified(r) for r in runs)}
    done.update(host_hpcc_hypercube(args, where, ranks, step))
    with open(os.path.join(folder, "hpcc.json"), "w", encoding="utf-8") as f:
        json.dump(done, f, indent=1)


def hpcc_runs(args, where, ranks, step, binary, what):
    """--host-repeats runs of an HPCC binary in `where` (its input written, its command the step's last), and None;
    or, once one fails, None and what failed, which the step says."""
    try:
        return [hpcc.run(where, ranks, launcher.MPI_ENV, binary) for _ in range(args.host_repeats)], None
    except (RuntimeError, OSError) as error:
        step.failed.append(step.commands[-1])
        step.say(f"{what} failed: {error}")
        return None, f"{what} failed: {error}"


def host_hpcc_hypercube(args, where, ranks, step):
    """HPCC's own hypercube (RA_SANDIA_OPT2, built from Debian's source once into a cache) on the same ranks and
    table: its runs, or why there are none."""
    binary, why_not = (None, "HPCC's hypercube left out (--no-hpcc-hypercube)") if args.no_hpcc_hypercube else \
        hpcc_sandia.build(hpcc_sandia.DEFAULT_CACHE)
    if why_not:
        step.say(f"this host: {why_not}")
        return {"hypercube_runs": None, "hypercube_not_run": why_not}
    step.commands.append(f"cd {shlex.quote(where)} && " + " ".join(hpcc.command(ranks, binary)) +
                         "  # HPCC built with -DRA_SANDIA_OPT2 (analysis/run/hpcc_sandia.py)")
    runs, failure = hpcc_runs(args, where, ranks, step, binary, "HPCC's hypercube")
    if runs is None:
        return {"hypercube_runs": None, "hypercube_not_run": failure}
    if not all(r["sandia_opt2"] for r in runs):
        return {"hypercube_runs": None,
                "hypercube_not_run": "HPCC's hypercube not run: its binary ran HPCC's standard algorithm"}
    return {"hypercube_runs": runs, "hypercube_verified": all(hpcc.verified(r) for r in runs)}


def main_job(args, run_analysis):
    """run_analysis(argv): the command line's entry point (given by it, so that this module needs none of it)."""
    if not 0 < args.budget < float("inf"):
        raise ValueError("--budget needs a positive number of seconds")
    if args.host_repeats < 1 or args.host_updates_per_node < 1:
        raise ValueError("--host-repeats and --host-updates-per-node need 1 or more")
    # The plan owns the table's limits: asked before anything runs.
    try:
        programs.plan(args.build, "bgp", 1, "direct", ["--log2-table", str(args.host_log2_table)])
    except ValueError as error:
        raise ValueError(str(error).replace("--log2-table", "--host-log2-table")) from error
    step = Step(args.out, args.budget, run_analysis)
    folders = {name: os.path.join(args.out, name) for name in ("host", "table3", "table4")}
    for folder in folders.values():
        os.makedirs(folder, exist_ok=True)
    cores = launcher.host_cores()
    calibrate = programs.binary(args.build, "gups-calibrate")
    programs.binary(args.build, "gups-sim")
    host_file = os.path.join(folders["host"], "host.json")
    build = ["--build", args.build]

    step.say(f"calibrating this host ({cores} cores)")
    step.program([launcher.mpi_launcher(calibrate), "-np", str(min(2, cores)), calibrate, "--log2-table", str(args.host_log2_table),
                  "--output", host_file])

    step.say("this host: model, simulation and measured runs")
    step.analysis(["sweep", "--machine", host_file, "--algorithms", HOST_ALGORITHMS, "--nodes", HOST_NODES,
                              "--sources", "model,sim,measured", "--repeat", str(args.host_repeats), "--updates-per-node",
                              str(args.host_updates_per_node), "--log2-table", str(args.host_log2_table),
                              "--out", folders["host"], "--allow-skips", *build])  # the report names what was not run

    host_hpcc(args, folders["host"], min(2, cores), step)

    step.say(f"Table 3 at {OWNER_NODES} nodes: owners by division and by prediction, simulated")
    step.analysis(["study", "table3", "--nodes", str(OWNER_NODES), "--no-neighbours",
                               "--out", folders["table3"], *build])

    left = args.budget - step.elapsed() - REPORT_RESERVE_SECONDS
    step.say(f"Table 4: modelled at every size, simulated for the {max(0, left):.0f} s left of the budget")
    step.analysis(["study", "table4", "--max-nodes", "32768", "--wall-budget", f"{max(1, left):.0f}",
                               "--converge", "--jobs", str(cores), "--out", folders["table4"], *build])

    step.say("writing the report")
    path, first_screen = headline.write(args.out, folders, host_file, cores, step)
    with open(os.path.join(args.out, "main-job.json"), "w", encoding="utf-8") as f:
        json.dump({"wall_seconds": round(step.elapsed(), 1), "budget_seconds": args.budget, "cores": cores,
                   "commands": step.commands, "failed_steps": step.failed}, f, indent=1)
    print(first_screen, flush=True)
    step.say(f"done: {path} (and report.html beside it)")
    for command in step.failed:
        print(f"main job: this step reported a failure (see above): {command}", file=sys.stderr)
    return 1 if step.failed else 0
