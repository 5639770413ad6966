"""gups-sim's supervision of a simulation: memory checked before, smpirun run in a session of its own (stopped at
--max-wall or with gups-sim), its output relayed, its peak memory and the kernel's progress notes read."""
import functools
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time

from process_tree import stop_with_parent  # the analysis's (analysis/run/), copied beside this file by the build
from sim_options import BadInput

def available_memory_bytes():
    """MemAvailable of /proc/meminfo, or None where it cannot be read."""
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_memory(plan):
    """All simulated ranks live in one process: what the plan says they need (tables, the serial pass's copy
    when verifying by checksum, SimGrid's state per rank) must fit in this host's memory; raises BadInput."""
    needed = plan["simulation_memory_bytes"]
    available = available_memory_bytes()
    if available is not None and needed > available:
        data = (f"an array of {plan['memory_words']} words" if "probe" in plan
                else f"a table of 2^{plan['table']['log2_words']} words")
        raise BadInput(f"{plan['ranks']} simulated ranks with {data} need about {needed / 2**30:.1f} GiB, but only "
                       f"{available / 2**30:.1f} GiB is available")


def run_simulation(command, max_wall, quiet, workdir):
    """Runs smpirun; returns (status, output lines, wall seconds, peak KiB, stopped)."""
    start = time.monotonic()
    # Transparent huge pages for malloc (glibc 2.35+; ignored elsewhere): the
    # simulation touches ~90 KiB per rank all over its heap (the ranks' stacks
    # are malloc'd), and huge pages take most of its TLB misses away.
    environment = dict(os.environ)
    tunables = [t for t in environment.get("GLIBC_TUNABLES", "").split(":") if t]
    if not any(t.startswith("glibc.malloc.hugetlb=") for t in tunables):
        environment["GLIBC_TUNABLES"] = ":".join(tunables + ["glibc.malloc.hugetlb=1"])
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=workdir,
                               start_new_session=True, env=environment,
                               preexec_fn=functools.partial(stop_with_parent, os.getpid()))
    lines = []

    def read_output():
        for line in process.stdout:
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith("gups: progress:") and not quiet:
                print("gups-sim: " + line[len("gups: "):], file=sys.stderr, flush=True)

    # smpirun runs in a session of its own (so that --max-wall can stop all
    # of it); if gups-sim itself is stopped, stop the simulation with it.
    def stop_simulation(signum, _frame):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        sys.exit(128 + signum)

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, stop_simulation)
    reader = threading.Thread(target=read_output, daemon=True)
    reader.start()
    stopped = False
    stopped_peak_kib = 0
    while process.poll() is None:
        if max_wall and time.monotonic() - start > max_wall:
            stopped_peak_kib = session_peak_kib(process.pid)
            os.killpg(process.pid, signal.SIGKILL)
            stopped = True
            break
        time.sleep(0.05)
    process.wait()
    reader.join(timeout=5)
    wall = time.monotonic() - start
    peak_kib = max(stopped_peak_kib, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return process.returncode, lines, wall, peak_kib, stopped


def session_peak_kib(session):
    """The largest peak resident size (VmHWM) among the processes of a session, read before they are killed:
    a killed simulation is never waited for by its parent, so the children's rusage misses it."""
    peak = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[3]) != session:  # state, ppid, pgrp, session
                continue
            with open(f"/proc/{entry}/status", encoding="utf-8") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
        except (OSError, IndexError, ValueError):
            continue
    return peak


def progress_notes(path):
    """Rank 0's progress as the kernel wrote it (--progress-json): one JSON object per line; a line cut short by
    a stopped run is left out."""
    notes = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    notes.append(json.loads(line))
                except ValueError:
                    continue
    except OSError:
        pass
    return notes


def last_progress(notes):
    """The last figures of the update phase (a stopped run's partial result), or None."""
    figures = [n for n in notes if "rank0_generated_percent" in n]
    return {"simulated_seconds": figures[-1]["seconds"],
            "rank0_generated_percent": figures[-1]["rank0_generated_percent"]} if figures else None


def phase_walls(notes):
    """Wall seconds at the end of each phase rank 0 reported (set-up, update phase, statistics, ...)."""
    return {n["phase"]: n["wall_seconds"] for n in notes if "phase" in n}
