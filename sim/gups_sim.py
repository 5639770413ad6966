#!/usr/bin/env python3
"""gups-sim: the gups kernel inside a SimGrid model of a machine's torus.

Asks gups-topology for the run's plan (shape, ranks, table, verification, the
kernel's arguments) and for its platform, hostfile and per-core charges, runs
the SMPI build of the kernel (gups-smpi) under smpirun, and reports the result
with the schema of `gups --json` plus a `simulation` section: simulated and
wall seconds, peak memory, SimGrid version, options. Every rule about the run
lives in C++; this launcher only supervises.
"""

import argparse
import functools
import json
import math
import os
import re
import resource
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time

from process_tree import stop_with_parent  # beside this file, in the source and in the build

# Filled in by CMake when the build configures this file.
GUPS_SMPI = "@GUPS_SMPI@"
GUPS_TOPOLOGY = "@GUPS_TOPOLOGY@"
GUPS_MODEL = "@GUPS_MODEL@"
SMPIRUN = "@SMPIRUN@"
SIMGRID_VERSION = "@SIMGRID_VERSION@"

# Why each option is there: docs/simulator.md, "How the simulation runs".
SMPI_OPTIONS = [
    "smpi/privatization:no",            # the kernel keeps per-rank state in objects, not globals
    "smpi/send-is-detached-thresh:0",   # detached sends cost O(ranks) each in SimGrid 3.32
    "network/crosstraffic:0",
    "network/optim:Lazy",               # measured: Full re-solves the whole sharing system, 4x slower at 1,024 nodes
    "smpi/bw-factor:0:1",               # flat: the machine file's bandwidth as is
    "smpi/lat-factor:0:1",              # left out at the levels other than flow: their latency is set per message
    "smpi/alltoallv:ring",              # verification's all-to-all, far cheaper to simulate
    "smpi/barrier:ompi_recursivedoubling",
    "smpi/reduce:binomial",             # the default sends every rank's share straight to the root: O(ranks^2)
    "smpi/allreduce:redbcast",          # reduce, then broadcast: 2 x ranks messages (rdb: ranks x log2(ranks))
    "smpi/bcast:binomial_tree",
    "smpi/allgather:rdb",               # the one-sided probe's window: the default sends ranks^2 messages
    "contexts/stack-size:64",
    "contexts/guard-size:0",
    "smpi/test:0",                      # idle cores block (MPI_Waitsome), so polls need no injected time
    "smpi/iprobe:0",
    "smpi/grow-injected-times:no",
    "smpi/wtime:0",
    "smpi/display-timing:no",
]
# Each can be switched on alone, so that what it changes can be seen (docs/simulator.md).
MECHANISMS = {
    "wire": "torus messages carry whole packets, headers and acks",
    "receive-batches": "a receive call takes the packets waiting, up to a batch, at a cost per call and per packet",
    "paper-buckets": "the bucket sizes of the paper's Table 4 instead of the sizing rule",
    "dma": "a send is injected at once and travels without waiting for a posted receive (BG/P's DMA)",
    "mesh": "partitions below the machine's torus.mesh_below_nodes have no wrap-around links",
}
AUTO_LEVEL_HELP = "flow up to a size, queue above (gups-topology's rule: gups-topology --help)"


@functools.lru_cache(maxsize=None)
def network_levels():
    """The simulator's network levels as gups-topology lists them (the one list: sim/levels/levels.def): name ->
    {"name", "help", "simgrid_links"}."""
    done = subprocess.run([GUPS_TOPOLOGY, "--network-levels"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"gups-sim: error: {GUPS_TOPOLOGY} --network-levels failed: {done.stderr.strip()}")
    return {level["name"]: level for level in json.loads(done.stdout)}


# The probe's own options, passed to it as given (it checks them).
PROBE_OPTIONS = {
    "--memory-words": "M, the global array in words (default: 65536 per process in a simulation)",
    "--alpha": "temporal locality, above 0 and at most 1 (default 1)",
    "--block-words": "L, words per access (default 1)",
    "--indices": "I, accesses per process and repetition (default 1024)",
    "--repeats": "N, repetitions (default 1)",
    "--receive-buffers": "B (apex-map-mpi): outstanding requests (default 32)",
    "--send-handles": "SMSG (apex-map-mpi): outstanding sends (default 64)",
    "--serve-per-turn": "NSER (apex-map-mpi): requests served per turn (default 16)",
    "--seed": "the indices' random streams (default 1)",
}
PROBE_ALGORITHMS = ("apex-map-mpi", "apex-map-rma")


def given(args, option):
    """The value of an option such as --block-words in the parsed arguments."""
    return getattr(args, option[2:].replace("-", "_"))
DEFAULT_STREAM_OFFSET = 123456789012345  # a generic point: the stream's start is sparse


class BadInput(Exception):
    pass


class OneLineArgumentParser(argparse.ArgumentParser):
    """An error in the command line is one line, as in the project's other programs (argparse prints the usage
    first)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def parse_arguments(argv):
    p = OneLineArgumentParser(prog="gups-sim", description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--machine", "-m", default="bgp", help="machine name or path (default bgp)")
    p.add_argument("--algo", default="multicore", help="direct, routed or multicore (default multicore)")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--shape", help="torus of nodes, such as 4x4x4")
    size.add_argument("--nodes", type=int, help="node count, mapped by the machine's shape rule")
    p.add_argument("--cores-per-node", type=int,
                   help="multicore: ranks per node (default: the machine's); direct: processes per node (default 1)")
    updates = p.add_mutually_exclusive_group()
    updates.add_argument("--updates-per-node", type=int,
                         help="updates each node generates (default: 2^20 / nodes as a power of two, from 2048 to "
                              "16384: 64 nodes 16384, 256 nodes 4096, 512 and more 2048)")
    updates.add_argument("--updates-per-word", type=int, help="updates per table word instead (HPCC: 4)")
    p.add_argument("--min-updates-per-node", type=int, default=0,
                   help="with the default run length: at least this many updates per node (runs with the dma "
                        "mechanism fill their pipeline for longer)")
    p.add_argument("--words-per-node", type=int, default=1024,
                   help="table words per node, at least (default 1024: the table need not be Blue Gene size)")
    p.add_argument("--log2-table", type=int, help="table size 2^N (overrides --words-per-node)")
    p.add_argument("--lookahead", type=int, default=1024)
    p.add_argument("--nodes-per-host", default="1",
                   help="torus nodes on one of the machine's nodes, sharing its cores (tu follows how many of them "
                        "update at once); 'fill': as many as its cores hold, as mpirun places ranks (default 1)")
    p.add_argument("--owner", default="division", choices=["division", "predict"])
    p.add_argument("--costs", default="machine", choices=["machine", "zero", "measured"],
                   help="machine: charge the machine file's cycles; zero: no CPU cost at all (network only); "
                        "measured: SMPI times the real code on this host")
    p.add_argument("--network-scale", type=float, default=1.0,
                   help="multiply link bandwidth (a very fast network: 1000)")
    p.add_argument("--zero-latency", action="store_true", help="links without latency")
    levels = {name: level["help"] for name, level in network_levels().items()}
    levels["auto"] = AUTO_LEVEL_HELP
    p.add_argument("--network", default="flow", choices=list(levels),
                   help="network level: " + "; ".join(f"{name}: {what}" for name, what in levels.items()) +
                        " (default flow)")
    p.add_argument("--stream-offset", type=int, default=DEFAULT_STREAM_OFFSET,
                   help=f"stream steps skipped first (default {DEFAULT_STREAM_OFFSET}; 0 = HPCC, checksums as gups)")
    p.add_argument("--verify", default="auto", choices=["auto", "full", "checksum", "no"],
                   help="full: every word, by the simulated ranks (their all-to-all costs O(ranks^2) to simulate); "
                        "checksum: the final table's checksums against a serial pass over the same stream; "
                        "auto (default): full up to 1,024 ranks, checksum above")
    p.add_argument("--max-wall", type=float, default=0, help="stop after this many wall seconds (0: no limit)")
    p.add_argument("--json", help="write the result as JSON here")
    p.add_argument("--workdir", help="where platform, hostfile and raw result go (default: a temporary folder)")
    p.add_argument("--message-layer", default="s4u", choices=["s4u", "mpi"],
                   help="what carries routed and multicore messages: s4u (SimGrid mailboxes, default) or mpi "
                        "(SMPI calls: the same messages with SMPI's per-call overhead)")
    p.add_argument("--mechanisms", default="none",
                   help="mechanisms of the machine modelled beyond Eq. 7 (routed, multicore): none (default), "
                        "all, or a comma list of " + ", ".join(f"{name} ({what})" for name, what in MECHANISMS.items()))
    p.add_argument("--reception-fifo", type=int, default=0,
                   help="with the dma mechanism: messages a receiving core's channel holds that no receive has "
                        "taken yet, before sends to it wait (default 0: unbounded)")
    p.add_argument("--link-load", action="store_true",
                   help="routed, multicore: measure how busy each dimension's torus links were (each message's bytes on "
                        "the links of its route), and name the resource that binds")
    p.add_argument("--extra-cfg", action="append", default=[], help="more SimGrid --cfg options (name:value)")
    p.add_argument("--converge", action="store_true",
                   help="run again with twice the updates per node until the steady state's two quarters agree "
                        "within --converge-tolerance and so does the run before (exit status 5 if "
                        "--converge-max-updates is reached first)")
    p.add_argument("--converge-tolerance", type=float, default=0.01, help="default 0.01 (1%%)")
    p.add_argument("--converge-max-updates", type=int, default=65536,
                   help="most updates per node --converge tries (default 65536)")
    probe = p.add_argument_group("the Apex-Map probe (--algo apex-map-mpi or apex-map-rma; docs/apexmap.md)")
    for option, what in PROBE_OPTIONS.items():
        probe.add_argument(option, help=what)
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("--explain", action="store_true",
                   help="first print how gups-model predicts this run (gups-model --explain): the role plan (the "
                        "planner's general one where the paper's does not fit), the virtual torus on its network, "
                        "each core's load, the network bound's derivation")
    p.add_argument("--plan-only", action="store_true",
                   help="print gups-topology's plan of this run as JSON (ranks, memory estimate, network level) and "
                        "stop: what a launcher needs to ask a scheduler for")
    return p.parse_args(argv)


def check_installation():
    for path, what in ((GUPS_SMPI, "gups-smpi (the sim/smpi build, made by 'cmake --build build')"),
                       (GUPS_TOPOLOGY, "gups-topology (made by 'cmake --build build')"),
                       (SMPIRUN, "smpirun (Debian: apt install libsimgrid-dev)")):
        if not os.path.exists(path):
            raise BadInput(f"{what} is missing: {path}")


def run_plan(args, workdir=None):
    """gups-topology's plan of this run (and, given a work folder, its platform, hostfile and charges there);
    raises BadInput with its error."""
    command = [GUPS_TOPOLOGY, "--machine", args.machine, "--algo", args.algo, "--network", args.network]
    command += ["--shape", args.shape] if args.shape else ["--nodes", str(args.nodes or 64)]
    if args.algo in PROBE_ALGORITHMS:
        sizes = (("--cores-per-node", args.cores_per_node), ("--memory-words", args.memory_words),
                 ("--block-words", args.block_words), ("--receive-buffers", args.receive_buffers))
    else:
        command += ["--words-per-node", str(args.words_per_node), "--lookahead", str(args.lookahead),
                    "--owner", args.owner, "--verify", args.verify, "--nodes-per-host", args.nodes_per_host,
                    "--wrap", "machine" if "mesh" in args.chosen_mechanisms else "torus"]
        sizes = (("--cores-per-node", args.cores_per_node), ("--log2-table", args.log2_table),
                 ("--updates-per-node", args.updates_per_node), ("--updates-per-word", args.updates_per_word),
                 ("--min-updates-per-node", args.min_updates_per_node or None))
        if "paper-buckets" in args.chosen_mechanisms:
            command.append("--paper-buckets")
    for option, value in sizes:
        if value is not None:
            command += [option, str(value)]
    if workdir:
        command += ["--platform", os.path.join(workdir, "platform.xml"),
                    "--hostfile", os.path.join(workdir, "hostfile.txt"),
                    "--charges", os.path.join(workdir, "charges.json"),
                    "--bandwidth-scale", repr(args.network_scale)]
        if args.zero_latency:
            command.append("--zero-latency")
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise BadInput(done.stderr.strip().replace("gups-topology: error: ", ""))
    return json.loads(done.stdout)


def chosen_mechanisms(args):
    """The mechanisms asked for, in a fixed order; raises BadInput."""
    asked = [m.strip() for m in args.mechanisms.split(",") if m.strip()]
    if asked == ["all"]:
        return list(MECHANISMS)
    if asked == ["none"]:
        return []
    unknown = [m for m in asked if m not in MECHANISMS]
    if unknown or not asked:
        raise BadInput(f"--mechanisms: unknown {', '.join(unknown) or 'empty list'}; "
                       f"give none, all, or a comma list of {', '.join(MECHANISMS)}")
    for name in ("wire", "dma"):
        if name in asked and args.message_layer != "s4u":
            raise BadInput(f"--mechanisms {name} needs --message-layer s4u (SMPI's calls send payloads only, "
                           "rendezvous)")
    return [m for m in MECHANISMS if m in asked]


def progress_seconds(max_wall):
    """Often enough that a run stopped by --max-wall still has partial figures."""
    return f"{max(0.5, min(5.0, max_wall / 4)) if max_wall else 5.0:g}"


def mechanism_options(args):
    """gups-smpi's options for the chosen mechanisms (the paper's buckets come with the plan); raises BadInput."""
    if args.reception_fifo < 0:
        raise BadInput("--reception-fifo must be 0 (unbounded) or more")
    options = []
    if "wire" in args.chosen_mechanisms:
        options.append("--wire-packets")
    if "receive-batches" in args.chosen_mechanisms:
        options.append("--receive-batches")
    if "dma" in args.chosen_mechanisms:
        options.append("--dma-injection")
        if args.reception_fifo:
            options += ["--reception-fifo", str(args.reception_fifo)]
    elif args.reception_fifo:
        raise BadInput("--reception-fifo bounds what DMA injection sends: it needs --mechanisms dma (or all)")
    if (options or "paper-buckets" in args.chosen_mechanisms) and args.costs != "machine":
        raise BadInput("--mechanisms models the machine file's costs: it needs --costs machine")
    return options


def build_command(args, workdir, plan):
    """smpirun running gups-smpi with the plan's arguments; returns (command, SimGrid options)."""
    options = list(SMPI_OPTIONS)
    if not network_levels()[plan["network_level"]]["simgrid_links"]:  # SimGrid refuses a latency factor beside
        # the callback of a level that times its messages itself
        options.remove("smpi/lat-factor:0:1")
    if args.costs == "measured":
        options.append(f"smpi/host-speed:{plan['clock_hz']:.0f}f")
    else:
        options.append("smpi/simulate-computation:no")
    options += args.extra_cfg
    command = [SMPIRUN, "-np", str(plan["ranks"]), "-platform", os.path.join(workdir, "platform.xml"),
               "-hostfile", os.path.join(workdir, "hostfile.txt")]
    command += [f"--cfg={o}" for o in options] + ["--log=root.thres:warning"]
    command += [GUPS_SMPI] + plan["kernel_arguments"]
    if "probe" in plan:
        command += [a for option in PROBE_OPTIONS if option != "--memory-words"
                    and (value := given(args, option)) is not None for a in (option, value)]
        command += ["--json", os.path.join(workdir, "raw.json")]
        if args.costs == "machine":
            command += ["--charges", os.path.join(workdir, "charges.json")]
        return command, options
    command += ["--stream-offset", str(args.stream_offset), "--verify", plan["verification"]["mode"],
                "--progress-seconds", progress_seconds(args.max_wall), "--progress-json",
                os.path.join(workdir, "progress.jsonl"), "--json", os.path.join(workdir, "raw.json")]
    if plan["routes_over_torus"]:
        command += ["--message-layer", args.message_layer]
    if args.costs == "machine":
        command += ["--charges", os.path.join(workdir, "charges.json")]
    command += args.mechanism_options
    if args.link_load:
        command.append("--link-load")
    return command, options


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
    # are malloc'd), and fewer TLB misses made 1,024 nodes 14% faster.
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


def check_writable(path, option):
    """Checked before the run, so that a long run does not end unable to write its result."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise BadInput(f"{option} {path}: no such folder {folder}")
    if not os.access(folder, os.W_OK):
        raise BadInput(f"{option} {path}: cannot write in {folder}")


def prepare(args):
    """Checks the input, writes platform and hostfile; returns the run's fixed parts."""
    check_installation()
    if args.cores_per_node is not None and args.cores_per_node < 1:
        raise BadInput("--cores-per-node must be at least 1")
    if args.nodes is not None and args.nodes < 1:
        raise BadInput("--nodes must be at least 1")
    if not (math.isfinite(args.network_scale) and args.network_scale > 0):
        raise BadInput("--network-scale must be a finite number above 0")
    if not 0 < args.converge_tolerance < 1:
        raise BadInput("--converge-tolerance must be between 0 and 1")
    if args.converge_max_updates < 1:
        raise BadInput("--converge-max-updates must be at least 1")
    if not (math.isfinite(args.max_wall) and args.max_wall >= 0):
        raise BadInput("--max-wall must be 0 (no limit) or a number of seconds above 0")
    if args.shape is not None and not args.shape:
        raise BadInput("--shape must not be empty")
    for option in args.extra_cfg:
        if not re.fullmatch(r"[\w/.-]+:.*", option):
            raise BadInput(f"--extra-cfg '{option}' is not a SimGrid option of the form name:value")
    if args.json:
        check_writable(args.json, "--json")
    # smpirun runs in the work folder (it leaves its unrolled hostfile in
    # the current folder when a run fails), so every path is absolute.
    workdir = os.path.abspath(args.workdir or tempfile.mkdtemp(prefix="gups-sim-"))
    try:
        os.makedirs(workdir, exist_ok=True)
    except OSError as error:
        raise BadInput(f"--workdir {workdir}: {error.strerror}") from error
    args.chosen_mechanisms = chosen_mechanisms(args)
    args.mechanism_options = mechanism_options(args)
    return workdir


def check_applies(args, plan):
    """What only routing algorithms have (the plan says whether this one routes), and what only the probe has;
    raises BadInput."""
    probe_options = [o for o in PROBE_OPTIONS if given(args, o) is not None]
    if "probe" in plan:
        update_options = [o for o, default in (("--link-load", False), ("--converge", False),
                                               ("--stream-offset", DEFAULT_STREAM_OFFSET), ("--updates-per-node", None),
                                               ("--updates-per-word", None), ("--log2-table", None))
                          if given(args, o) != default]
        if args.chosen_mechanisms:
            update_options.insert(0, "--mechanisms")
        if update_options:
            raise BadInput(f"{update_options[0]} applies to the update algorithms, not to the Apex-Map probe")
        return
    if probe_options:
        raise BadInput(f"{probe_options[0]} applies to the Apex-Map probe (--algo {' or '.join(PROBE_ALGORITHMS)})")
    if plan["routes_over_torus"]:
        return
    if args.chosen_mechanisms:
        raise BadInput("--mechanisms applies to routed and multicore")
    if args.link_load:
        raise BadInput("--link-load applies to routed and multicore")


def simulation_section(args, plan, options, command, wall, peak_kib, stopped):
    """What every simulated result's `simulation` section says, whatever ran."""
    return {"wall_seconds": wall, "peak_memory_bytes": peak_kib * 1024, "simgrid_version": SIMGRID_VERSION,
            "smpi_options": options, "machine": args.machine, "machine_file": plan["machine"]["path"],
            "costs": args.costs, "network_scale": args.network_scale, "zero_latency": args.zero_latency,
            "network": plan["network"], "network_level": plan["network_level"],
            "command": " ".join(shlex.quote(c) for c in command), "partial": stopped}


def simulate_probe(args, workdir, max_wall):
    """One simulation of the Apex-Map probe; returns (exit status, result, output lines). Raises BadInput."""
    plan = run_plan(args, workdir)
    check_applies(args, plan)
    command, options = build_command(args, workdir, plan)
    check_memory(plan)
    if not args.quiet:
        print(f"gups-sim: {plan['algorithm']} on {plan['machine']['name']}, {plan['shape']} {plan['network']} "
              f"({plan['nodes']} nodes x {plan['ranks_per_node']} processes), {plan['share_words']} words per "
              f"process, network level {plan['network_level']}, costs: {args.costs}", file=sys.stderr, flush=True)
    raw_path = os.path.join(workdir, "raw.json")
    if os.path.exists(raw_path):
        os.remove(raw_path)
    status, lines, wall, peak_kib, stopped = run_simulation(command, max_wall, args.quiet, workdir)
    simulation = {**simulation_section(args, plan, options, command, wall, peak_kib, stopped),
                  "charges": plan["charges"] if args.costs == "machine" else None, "shape": plan["shape"],
                  "nodes": plan["nodes"], "ranks_per_node": plan["ranks_per_node"]}
    return finish(status, lines, stopped, raw_path, simulation, args)


def finish(status, lines, stopped, raw_path, simulation, args, progress=None):
    """The result of a finished or stopped simulation: (exit status, result, output lines). Raises BadInput when
    the kernel refused its input."""
    refused = [line for line in lines if line.startswith("gups: error: ")]
    if status == 2 and refused:
        raise BadInput(refused[0][len("gups: error: "):])
    # SimGrid reports a deadlock, and smpirun still exits 0.
    deadlock = any("Deadlock detected" in line for line in lines)
    if stopped or deadlock or status != 0 or not os.path.exists(raw_path):
        for line in lines[-20:]:
            if not line.startswith("gups: progress:"):
                print(line, file=sys.stderr)
        result = {"schema": "torus-gups/result/1", "algorithm": args.algo, "partial": True,
                  "progress": progress, "simulation": simulation}
        why = (f"stopped after {args.max_wall:g} s of wall time (--max-wall)" if stopped
               else "SimGrid reported a deadlock" if deadlock
               else f"the simulation failed (status {status})")
        print(f"gups-sim: {why}; partial figures: {json.dumps(result['progress'])}", file=sys.stderr)
        return (4 if stopped else (status if 0 < status < 4 else 3)), result, lines
    with open(raw_path, encoding="utf-8") as f:
        result = json.load(f)
    result["partial"] = False
    simulation["simulated_seconds"] = result["seconds"]
    result["simulation"] = simulation
    return status, result, lines


def simulate(args, workdir, max_wall, first_attempt=True):
    """One simulation; returns (exit status, result, output lines). Raises BadInput."""
    # The platform, hostfile and charges do not depend on the updates per node: --converge's later attempts,
    # which only double those, keep the first attempt's files (a --workdir may hold an earlier run's).
    plan = run_plan(args, workdir if first_attempt else None)
    check_applies(args, plan)
    command, options = build_command(args, workdir, plan)
    check_memory(plan)
    verify, table = plan["verification"]["mode"], plan["table"]
    if not args.quiet:
        print(f"gups-sim: {plan['algorithm']} on {plan['machine']['name']}, {plan['shape']} {plan['network']} "
              f"({plan['nodes']} nodes x {plan['ranks_per_node']} ranks), 2^{table['log2_words']} words, "
              f"{table['updates_per_word']} updates per word, network level {plan['network_level']}, costs: {args.costs}, "
              f"mechanisms: "
              f"{', '.join(args.chosen_mechanisms) or 'none'}", file=sys.stderr, flush=True)
    raw_path, progress_path = os.path.join(workdir, "raw.json"), os.path.join(workdir, "progress.jsonl")
    for path in (raw_path, progress_path):  # an earlier attempt's (--converge)
        if os.path.exists(path):
            os.remove(path)
    status, lines, wall, peak_kib, stopped = run_simulation(command, max_wall, args.quiet, workdir)
    notes = progress_notes(progress_path)
    simulation = {**simulation_section(args, plan, options, command, wall, peak_kib, stopped),
                  "message_layer": args.message_layer, "mechanisms": args.chosen_mechanisms,
                  "nodes_per_host": plan["nodes_per_host"], "updating_cores_per_host": plan["updating_cores_per_host"],
                  "updates_per_node": table["updates_per_node"], "stream_offset": args.stream_offset,
                  "verification": verify, "phase_end_wall_seconds": phase_walls(notes)}
    status, result, lines = finish(status, lines, stopped, raw_path, simulation, args, last_progress(notes))
    if status == 0 and result.get("cores"):
        result["binds"] = what_binds(result)
    return status, result, lines


def what_binds(result):
    """The busiest core role and, when measured, the busiest dimension's links: whichever was busy the larger
    share of the update phase is the resource that binds."""
    busiest = max(result["cores"], key=lambda c: c["busy_share"])
    binds = {"core": busiest["core"], "role": busiest["role"], "core_busy_share": busiest["busy_share"],
             "resource": f"core {busiest['core']} ({busiest['role']})"}
    if result.get("link_load"):
        links = max(result["link_load"], key=lambda d: d["mean_utilisation"])
        binds.update({"dimension": links["dimension"], "link_mean_utilisation": links["mean_utilisation"],
                      "link_max_utilisation": links["max_utilisation"]})
        if "class" in links:  # off the torus: a fat-tree level, a dragonfly colour
            binds["link_class"] = links["class"]
        if links["mean_utilisation"] > busiest["busy_share"]:
            binds["resource"] = f"network ({link_name(binds)} links)"
    return binds


def link_name(binds):
    return binds.get("link_class") or f"dimension {binds['dimension']}"


def binds_line(binds):
    line = f"Binds: {binds['resource']}; core {binds['core']} busy {binds['core_busy_share']:.0%} of the update phase"
    if "dimension" in binds:
        line += (f", {link_name(binds)} links {binds['link_mean_utilisation']:.0%} on average "
                 f"(busiest link {binds['link_max_utilisation']:.0%})")
    return line


def converged(result, previous, tolerance):
    """Steady: its two quarters agree, and so does the run of half the length before it (a short run's
    buffers still absorb the imbalance of random traffic, so its quarters can agree on too high a rate)."""
    if result["partial"] or result.get("steady_gups", 0) <= 0 or result["steady_spread"] > tolerance:
        return False
    return previous is not None and abs(result["steady_gups"] - previous) <= tolerance * result["steady_gups"]


def explain(args):
    """gups-model's explanation of the run's prediction, on the plan's shape and cores."""
    if args.algo in PROBE_ALGORITHMS:
        raise BadInput("--explain explains the update algorithms' bounds (for the probe: apex-map-model)")
    plan = run_plan(args)
    command = [GUPS_MODEL, "--machine", plan["machine"]["path"], "--algorithm", plan["algorithm"], "--shape",
               plan["shape"], "--explain"]
    if plan["algorithm"] == "multicore":
        command += ["--cores-per-node", str(plan["ranks_per_node"])]
    elif plan["algorithm"] == "direct":
        command += ["--processes-per-node", str(plan["ranks_per_node"])]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise BadInput(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "gups-model failed")
    text = done.stdout
    print(text[text.index("\n## "):].strip() + "\n" if "\n## " in text else text, flush=True)


def main(argv):
    args = parse_arguments(argv)
    start = time.monotonic()
    attempts = []
    done = False
    try:
        workdir = prepare(args)
        if args.plan_only:
            if not args.workdir:
                os.rmdir(workdir)  # made empty by prepare; nothing is simulated
            plan = run_plan(args)
            check_applies(args, plan)
            print(json.dumps(plan, indent=1))
            return 0
        if args.explain:
            explain(args)
        while True:
            left = max(1e-3, args.max_wall - (time.monotonic() - start)) if args.max_wall else 0
            if args.algo in PROBE_ALGORITHMS:
                status, result, lines = simulate_probe(args, workdir, max_wall=left)
                break
            status, result, lines = simulate(args, workdir, max_wall=left, first_attempt=not attempts)
            if not args.converge or status != 0:
                break
            previous = attempts[-1]["steady_gups"] if attempts else None
            attempts.append({"updates_per_node": result["simulation"]["updates_per_node"],
                             "steady_gups": result["steady_gups"], "steady_spread": result["steady_spread"],
                             "wall_seconds": result["simulation"]["wall_seconds"]})
            done = converged(result, previous, args.converge_tolerance)
            print(f"gups-sim: converge: {attempts[-1]['updates_per_node']} updates per node: steady "
                  f"{result['steady_gups']:.6g} GUP/s, quarters {100 * result['steady_spread']:.2f}% apart: "
                  f"{'converged' if done else 'not converged'}", file=sys.stderr, flush=True)
            ran = attempts[-1]["updates_per_node"]  # the table plan may round what was asked
            if done or 2 * ran > args.converge_max_updates or (args.max_wall and time.monotonic() - start >= args.max_wall):
                break
            args.updates_per_node = 2 * ran
    except BadInput as error:
        print(f"gups-sim: error: {error}", file=sys.stderr)
        return 2
    if args.converge and attempts:
        result["convergence"] = {"tolerance": args.converge_tolerance, "attempts": attempts,
                                 "converged": done}
    if not result["partial"]:
        for line in lines:
            if not line.startswith("gups: progress:"):
                print(line)
        if "binds" in result:
            print(binds_line(result["binds"]))
        simulation = result["simulation"]
        print(f"Simulation: {simulation['wall_seconds']:.1f} s wall, {simulation['peak_memory_bytes'] / 2**20:.0f} "
              f"MiB peak, SimGrid {SIMGRID_VERSION}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2)
            f.write("\n")
    if args.converge and status == 0 and not result["convergence"]["converged"]:
        print(f"gups-sim: the steady state did not converge within {args.converge_tolerance:.0%} "
              f"(--converge-max-updates {args.converge_max_updates})", file=sys.stderr)
        return 5
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
