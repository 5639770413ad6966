#!/usr/bin/env python3
"""Faults, injected: a process killed in the middle of a run must make the run
end, with a non-zero status, within a bounded time, and leave no process
behind; an interrupted sweep must resume where it stopped.

    faults.py --build build --source . [--mpirun build/kernel/gups-mpirun] [--no-sim] [--json faults.json]

Cases: one rank of `mpirun gups` (direct, routed, multicore) killed with
SIGKILL; the simulation under gups-sim killed; gups-sim itself killed (SIGKILL)
and stopped (SIGTERM); a sweep killed in the middle of a simulation, then
resumed with a truncated raw file among the kept ones. Prints one line per
fault and a summary; exit status 1 when any fault hangs, ends with status 0 or
leaves a process.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from analysis.run import programs  # noqa: E402

SECONDS_ALLOWED = 30.0
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_btl_vader_single_copy_mechanism": "none"}


def process_table():
    """{pid: (ppid, start time, command name)} of every process now."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                text = f.read()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        table[int(entry)] = (int(fields[1]), int(fields[19]), name)
    return table


def descendants(root):
    """{pid: (start time, name)} of every process below root (itself included)."""
    table = process_table()
    found, frontier = {}, [root]
    while frontier:
        pid = frontier.pop()
        if pid in table:
            found[pid] = (table[pid][1], table[pid][2])
            frontier += [child for child, (parent, _, _) in table.items() if parent == pid]
    return found


def still_alive(processes):
    """Those of processes (from descendants()) that still run (the same pid and start time, not a zombie)."""
    table = process_table()
    alive = []
    for pid, (start, name) in processes.items():
        if pid in table and table[pid][1] == start:
            try:
                with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
                    if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                        continue
            except OSError:
                continue
            alive.append(f"{name}[{pid}]")
    return alive


def wait_for(condition, seconds, step=0.05):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(step)
    return None


def named(processes, name):
    return [pid for pid, (_, n) in processes.items() if n == name]


def inject(description, command, victim_name, signum, kill_target="victim", env=None, settle=1.0, cwd=None):
    """Starts command, waits until a process named victim_name runs below it (and settle seconds more), sends
    signum to that process (kill_target "victim") or to the command itself ("command"), and measures how the
    command ends."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, **(env or {})}, cwd=cwd)
    result = {"fault": description, "signal": signal.Signals(signum).name}
    victims = wait_for(lambda: named(descendants(process.pid), victim_name), SECONDS_ALLOWED)
    if not victims:
        process.kill()
        process.wait()
        return {**result, "problems": [f"no {victim_name} process started within {SECONDS_ALLOWED:g} s"]}
    time.sleep(settle)
    processes = descendants(process.pid)
    if process.poll() is not None:
        return {**result, "problems": [f"the run ended (status {process.returncode}) before the fault"]}
    target = sorted(named(processes, victim_name))[-1] if kill_target == "victim" else process.pid
    killed_at = time.monotonic()
    os.kill(target, signum)
    try:
        _, stderr = process.communicate(timeout=SECONDS_ALLOWED)
        status = process.returncode
    except subprocess.TimeoutExpired:
        process.kill()
        stderr = ""
        status = "hang"
    ended = time.monotonic() - killed_at
    # What the run started must end with it; allow the launchers a moment to clean up.
    left = wait_for(lambda: not still_alive(processes) and ["none"], 10) and [] or still_alive(processes)
    gone = time.monotonic() - killed_at
    problems = []
    if status == "hang":
        problems.append(f"still running {SECONDS_ALLOWED:g} s after the fault")
    elif status == 0:
        problems.append("exit status 0 after a fault")
    if left:
        problems.append(f"left running: {', '.join(left)}")
    last = [line for line in stderr.splitlines() if line.strip()][-1:] if stderr else []
    return {**result, "target": victim_name if kill_target == "victim" else command[0].rsplit("/", 1)[-1],
            "status": status, "seconds_to_exit": round(ended, 2), "seconds_until_no_process": round(gone, 2),
            "processes_started": len(processes), "last_error_line": last[0][:200] if last else "",
            "problems": problems}


def mpi_faults(build, mpirun):
    gups = os.path.join(build, "kernel", "gups")
    runs = [(v["name"], ["-np", "4" if v["specialised_cores"] else "2", gups, "--algo", v["name"]] +
             (["--shape", "1x1x1", "--cores-per-node", "4", "--log2-table", "24"] if v["specialised_cores"] else
              ["--shape", "2x1x1", "--log2-table", "25"] if v["routes_over_torus"] else ["--log2-table", "25"]))
            for v in programs.variants(build) if v["family"] == "update algorithm"]
    return [inject(f"mpirun gups --algo {algo}: one rank killed", [mpirun] + argv, "gups",
                   signal.SIGKILL, env=MPI_ENV) for algo, argv in runs]


def sim_faults(build):
    sim = os.path.join(build, "sim", "gups-sim")
    long_run = [sim, "--quiet", "--shape", "8x8x8", "--updates-per-node", "1000000", "--words-per-node", "4096",
                "--verify", "none"]
    return [inject("gups-sim: the simulation (smpimain) killed", long_run, "smpimain", signal.SIGKILL),
            inject("gups-sim itself killed", long_run, "smpimain", signal.SIGKILL, kill_target="command"),
            inject("gups-sim itself stopped", long_run, "smpimain", signal.SIGTERM, kill_target="command")]


def sweep_command(build, out, nodes, updates_per_node="1024", *extra):
    return [sys.executable, "-m", "analysis", "sweep", "--machine", "bgp", "--algorithms", "multicore",
            "--sources", "sim", "--updates-per-node", updates_per_node, "--out", out, "--build", build,
            "--nodes", nodes, *extra]


def sweep_fault(build, source, out):
    """A finished sweep of 8 and 16 nodes, then one of far longer runs (none kept: other commands), killed
    during its first simulation (64 nodes), which would otherwise run for minutes."""
    subprocess.run(sweep_command(build, out, "8,16"), cwd=source, capture_output=True, check=True)
    return inject("analysis sweep killed during a simulation",
                  sweep_command(build, out, "64,8,16", "1000000", "--resume"), "smpimain", signal.SIGKILL,
                  kill_target="command", cwd=source, settle=0.5)


def resume_check(build, source, out):
    """After the kill: a truncated result is named and redone, a finished one kept."""
    path = os.path.join(out, "raw", "sim-multicore-8-1.json")
    with open(path, "r+", encoding="utf-8") as f:
        text = f.read()
        f.seek(0)
        f.truncate()
        f.write(text[:len(text) // 2])
    done = subprocess.run(sweep_command(build, out, "8,16", "1024", "--resume"), cwd=source, capture_output=True,
                          text=True, timeout=120)
    lines = done.stderr.splitlines()
    problems = [] if done.returncode == 0 else [f"exit {done.returncode}"]
    if not any("sim-multicore-8-1.json is not a readable result" in line and "running it again" in line
               for line in lines):
        problems.append("the truncated result was not named and run again")
    if not any("sim multicore 16 nodes #1: kept from an earlier sweep" in line for line in lines):
        problems.append("the finished result was not kept")
    with open(os.path.join(out, "results.csv"), encoding="utf-8") as f:
        rows = len(f.read().splitlines()) - 1
    if rows != 2:
        problems.append(f"{rows} results, not 2")
    return {"fault": "analysis sweep --resume after that kill, one kept result truncated", "status": done.returncode,
            "results_after": rows, "named": [line for line in lines if "again" in line or "kept" in line],
            "problems": problems}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", required=True)
    p.add_argument("--source", required=True)
    p.add_argument("--mpirun", default="build/kernel/gups-mpirun", help="the build's MPI launcher")
    p.add_argument("--no-sim", action="store_true", help="a build without SimGrid: MPI faults only")
    p.add_argument("--json", help="write every fault and how it ended here")
    args = p.parse_args(argv)
    build, source = os.path.abspath(args.build), os.path.abspath(args.source)

    # Open MPI's session folder, and the temporary files of the programs killed here (a gups-sim killed by SIGKILL
    # cannot remove its own): one folder of this run's own at a short path (see replay_transcript.py), removed after.
    with tempfile.TemporaryDirectory(prefix="tg-ompi-", dir="/tmp") as session:
        os.environ["OMPI_MCA_orte_tmpdir_base"] = session
        os.environ["TMPDIR"] = session
        results = mpi_faults(build, args.mpirun)
        if not args.no_sim:
            results += sim_faults(build)
            with tempfile.TemporaryDirectory(prefix="torus-gups-faults-") as out:
                results.append(sweep_fault(build, source, out))
                results.append(resume_check(build, source, out))
    for r in results:
        how = (f"exit {r['status']} {r['seconds_to_exit']:.2f} s after {r['signal']} to {r['target']}, "
               f"no process left after {r['seconds_until_no_process']:.2f} s") if "seconds_to_exit" in r else \
            f"exit {r.get('status')}, {r.get('results_after')} results, named: {r.get('named')}"
        print(f"{'FAIL' if r['problems'] else 'ok  '} {r['fault']}: {how}"
              + (f" -- {'; '.join(r['problems'])}" if r["problems"] else ""), file=sys.stderr)
    failed = [r for r in results if r["problems"]]
    print(f"faults: {len(results)} injected, {len(results) - len(failed)} ended as they must "
          f"(non-zero within {SECONDS_ALLOWED:g} s, nothing left running), {len(failed)} did not")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
            f.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
