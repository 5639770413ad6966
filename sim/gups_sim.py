#!/usr/bin/env python3
"""gups-sim: the gups kernel inside a SimGrid model of a machine's torus.

Asks gups-topology for the run's plan (shape, ranks, table, verification, the
kernel's arguments) and for its platform, hostfile and per-core charges, runs
the SMPI build of the kernel (gups-smpi) under smpirun, and reports the result
with the schema of `gups --json` plus a `simulation` section: simulated and
wall seconds, peak memory, SimGrid version, options. Every rule about the run
lives in C++; this launcher only supervises.
"""

import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

# Beside this file, in the source and in the build.
from sim_convergence import (SETTLED_TOLERANCE, against_the_interval, binds_line, interval_line, steady_verdict,
                             what_binds)
from sim_options import (BadInput, Catalogue, check_applies, check_writable,
                         chosen_mechanisms, given, mechanism_options, parse_arguments)
from sim_supervision import check_memory, last_progress, phase_walls, progress_notes, run_simulation

# Filled in by CMake when the build configures this file: absolute paths in the build, paths relative to this
# file's folder when installed (so that an installed prefix can be moved).
HERE = os.path.dirname(os.path.realpath(__file__))
GUPS_SMPI = os.path.join(HERE, "@GUPS_SMPI@")
GUPS_TOPOLOGY = os.path.join(HERE, "@GUPS_TOPOLOGY@")
GUPS_MODEL = os.path.join(HERE, "@GUPS_MODEL@")
SMPIRUN = "@SMPIRUN@"
SIMGRID_VERSION = "@SIMGRID_VERSION@"

# Why each option is there: docs/simulator.md, "How the simulation runs".
SMPI_OPTIONS = [
    "smpi/privatization:no",            # the kernel keeps per-rank state in objects, not globals
    "smpi/send-is-detached-thresh:0",   # detached sends cost O(ranks) each in SimGrid 3.32
    "network/crosstraffic:0",
    "network/optim:Lazy",               # Full re-solves the whole sharing system at every change
    "smpi/bw-factor:0:1",               # flat: the machine file's bandwidth as is
    "smpi/lat-factor:0:1",              # left out at the levels other than flow: their latency is set per message
    "smpi/alltoallv:ring",              # verification's all-to-all, far cheaper to simulate
    "smpi/barrier:ompi_recursivedoubling",
    "smpi/reduce:binomial",             # the default sends every rank's share straight to the root: O(ranks^2)
    "smpi/allreduce:redbcast",          # reduce, then broadcast: 2 x ranks messages (rdb: ranks x log2(ranks))
    "smpi/bcast:binomial_tree",
    "smpi/allgather:rdb",               # the one-sided probe's window: the default sends ranks^2 messages
    "contexts/stack-size:32",           # KiB, allocated zeroed (all resident); 20 are used (gups warns above 24)
    "contexts/guard-size:0",
    "smpi/test:0",                      # idle cores block (MPI_Waitsome), so polls need no injected time
    "smpi/iprobe:0",
    "smpi/grow-injected-times:no",
    "smpi/wtime:0",
    "smpi/display-timing:no",
]


WARNED = set()


def catalogue():
    """The network levels and program variants as gups-topology lists them (sim/levels/levels.def,
    kernel/core/variants.def), asked once a run."""
    done = subprocess.run([GUPS_TOPOLOGY, "--catalogue"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"gups-sim: error: {GUPS_TOPOLOGY} --catalogue failed: {done.stderr.strip()}")
    return Catalogue(json.loads(done.stdout))


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
    command += ["--shape", args.shape] if args.shape else ["--nodes", str(args.nodes or 64), "--shape-rule",
                                                           args.shape_rule]
    if args.algo in args.catalogue.probes() and args.wrap:
        command += ["--wrap", args.wrap]
    if args.algo in args.catalogue.exchange_probes():
        sizes = (("--cores-per-node", args.cores_per_node), ("--sizes", args.sizes))
    elif args.algo in args.catalogue.probes():
        sizes = (("--cores-per-node", args.cores_per_node), ("--memory-words", args.memory_words),
                 ("--block-words", args.block_words), ("--receive-buffers", args.receive_buffers))
    else:
        command += ["--words-per-node", str(args.words_per_node), "--lookahead", str(args.lookahead),
                    "--owner", args.owner, "--verify", args.verify, "--nodes-per-host", args.nodes_per_host,
                    "--wrap", args.wrap or ("machine" if "mesh" in args.chosen_mechanisms or args.inputs != "file"
                                            else "torus"), "--inputs", args.inputs]
        sizes = (("--cores-per-node", args.cores_per_node), ("--processes-per-node", args.processes_per_node),
                 ("--log2-table", args.log2_table),
                 ("--updates-per-node", args.updates_per_node), ("--updates-per-word", args.updates_per_word),
                 ("--min-updates-per-node", args.min_updates_per_node or None), ("--role-plan", args.role_plan))
        if "paper-buckets" in args.chosen_mechanisms:
            command.append("--paper-buckets")
    for option, value in sizes:
        if value is not None:
            command += [option, str(value)]
    if workdir:
        command += ["--platform", os.path.join(workdir, "platform.xml"),
                    "--hostfile", os.path.join(workdir, "hostfile.txt"),
                    "--charges", os.path.join(workdir, "charges.json"),
                    "--bandwidth-scale", repr(args.bandwidth_scale)]
        if args.zero_latency:
            command.append("--zero-latency")
    done = subprocess.run(command, capture_output=True, text=True)
    for line in done.stderr.splitlines():  # what the machine file's loader left out, said once a run
        if line.startswith("warning: ") and line not in WARNED:
            WARNED.add(line)
            print(f"gups-sim: {line}", file=sys.stderr, flush=True)
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if not line.startswith("warning: ")]
        raise BadInput("\n".join(errors).strip().replace("gups-topology: error: ", ""))
    return json.loads(done.stdout)


def progress_seconds(max_wall):
    """Often enough that a run stopped by --max-wall still has partial figures."""
    return f"{max(0.5, min(5.0, max_wall / 4)) if max_wall else 5.0:g}"


def passed_on(args, family):
    """The probe family's options given to gups-sim that it passes on as given (option, value, ...)."""
    return [a for option, families in args.catalogue.passed_on.items()
            if family in families and (value := given(args, option)) is not None for a in (option, value)]


def build_command(args, workdir, plan):
    """smpirun running gups-smpi with the plan's arguments; returns (command, SimGrid options)."""
    options = list(SMPI_OPTIONS)
    if not args.catalogue.levels[plan["network_level"]]["simgrid_links"]:  # SimGrid refuses a latency factor beside
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
    if plan.get("probe") == "exchange":  # the network alone: no CPU cost is charged
        command += passed_on(args, args.catalogue.EXCHANGE)
        command += ["--json", os.path.join(workdir, "raw.json"), "--message-layer", args.message_layer]
        return command, options
    if "probe" in plan:
        command += passed_on(args, args.catalogue.APEX_MAP)
        command += ["--json", os.path.join(workdir, "raw.json")]
        if args.algo == "apex-map-mpi":
            command += ["--message-layer", args.message_layer]
        if args.costs == "machine":
            command += ["--charges", os.path.join(workdir, "charges.json")]
        return command, options
    command += ["--stream-offset", str(args.stream_offset), "--verify", plan["verification"]["mode"],
                "--progress-seconds", progress_seconds(args.max_wall), "--progress-json",
                os.path.join(workdir, "progress.jsonl"), "--json", os.path.join(workdir, "raw.json")]
    command += ["--message-layer", args.message_layer]
    if args.costs == "machine":
        command += ["--charges", os.path.join(workdir, "charges.json")]
    command += args.mechanism_options
    if args.link_load:
        command.append("--link-load")
    if not args.run_ahead:
        command.append("--no-run-ahead")
    if not args.early_looks:
        command.append("--no-early-looks")
    if args.converge:  # never shorter than the run's default length
        command += ["--settle-to", repr(args.settle_to), "--settle-least",
                    str(plan["table"]["default_updates_per_node"])]
    return command, options


def prepare(args):
    """Checks the input, writes platform and hostfile; returns the run's fixed parts."""
    check_installation()
    if args.cores_per_node is not None and args.cores_per_node < 1:
        raise BadInput("--cores-per-node must be at least 1")
    if args.nodes is not None and args.nodes < 1:
        raise BadInput("--nodes must be at least 1")
    if not (math.isfinite(args.bandwidth_scale) and args.bandwidth_scale > 0):
        raise BadInput("--bandwidth-scale must be a finite number above 0")
    if not 0 < args.settle_to < 1:
        raise BadInput("--settle-to must be between 0 and 1")
    if args.converge_max_updates < 1:
        raise BadInput("--converge-max-updates must be at least 1")
    if args.converge and (args.updates_per_node is not None or args.updates_per_word is not None):
        raise BadInput("--converge sets the run's length itself, up to --converge-max-updates: give no "
                       "--updates-per-node or --updates-per-word")
    if not (math.isfinite(args.max_wall) and args.max_wall >= 0):
        raise BadInput("--max-wall must be 0 (no limit) or a number of seconds above 0")
    if args.shape is not None and not args.shape:
        raise BadInput("--shape must not be empty")
    for option in args.extra_cfg:
        if not re.fullmatch(r"[\w/.-]+:.*", option):
            raise BadInput(f"--extra-cfg '{option}' is not a SimGrid option of the form name:value")
    if args.json:
        check_writable(args.json, "--json")
    # Every check before the temporary folder, so that refused input leaves none behind.
    args.chosen_mechanisms = chosen_mechanisms(args)
    args.mechanism_options = mechanism_options(args)
    all_the_machine_has(args)
    # smpirun runs in the work folder (it leaves its temporary files in the
    # current folder when a run fails), so every path is absolute.
    workdir = os.path.abspath(args.workdir or tempfile.mkdtemp(prefix="gups-sim-"))
    try:
        os.makedirs(workdir, exist_ok=True)
    except OSError as error:
        raise BadInput(f"--workdir {workdir}: {error.strerror}") from error
    return workdir


def all_the_machine_has(args):
    """--mechanisms all is every mechanism the machine file gives the inputs for: the paper's bucket sizes only
    where it lists one for this size (asked by name, a missing size is refused instead); said once."""
    if args.mechanisms.strip() != "all" or "paper-buckets" not in args.chosen_mechanisms:
        return
    if args.algo in args.catalogue.probes():
        return
    chosen = args.chosen_mechanisms
    args.chosen_mechanisms = [m for m in chosen if m != "paper-buckets"]
    plan = run_plan(args)  # planned without them: a machine that lists no size would refuse the plan
    if str(plan["nodes"]) in plan["machine"].get("reference_bucket_sizes", {}):
        args.chosen_mechanisms = chosen
        return
    print(f"gups-sim: --mechanisms all: machine {plan['machine']['name']} lists no reference bucket size for "
          f"{plan['nodes']} nodes, so paper-buckets is left out (buckets by the sizing rule)", file=sys.stderr,
          flush=True)


def simulation_section(args, plan, options, command, wall, peak_kib, stopped):
    """What every simulated result's `simulation` section says, whatever ran."""
    return {"wall_seconds": wall, "peak_memory_bytes": peak_kib * 1024, "simgrid_version": SIMGRID_VERSION,
            "smpi_options": options, "machine": args.machine, "machine_file": plan["machine"]["path"],
            "costs": args.costs, "bandwidth_scale": args.bandwidth_scale, "zero_latency": args.zero_latency,
            "network": plan["network"], "network_level": plan["network_level"], "shape_rule": plan.get("shape_rule"),
            "role_plan": plan.get("role_plan"), "role_plan_choice": plan.get("role_plan_choice") or None,
            "inputs": plan.get("inputs", "file"), "input_set": plan.get("input_set"),
            "command": " ".join(shlex.quote(c) for c in command), "partial": stopped}


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
    simulation["simulated_seconds"] = (result["seconds"] if "seconds" in result
                                       else sum(size["seconds"] for size in result["sizes"]))
    result["simulation"] = simulation
    return status, result, lines


def processes_text(plan):
    """Where a node runs several routing processes (or groups of cores): how many, and their torus."""
    per_node = plan.get("processes_per_node", 1)
    if per_node == 1 or plan["shape"] == plan["process_shape"]:
        return ""
    return f" in {per_node} {'groups' if plan['specialised_cores'] else 'processes'} a node, torus of processes " \
           f"{plan['process_shape']}"


def announcement(args, plan):
    """The line that says what is simulated, for the person."""
    what = (f"{plan['nodes']} nodes x {plan['ranks_per_node']} processes), messages up to "
            f"{plan['largest_message_bytes']} bytes" if plan.get("probe") == "exchange" else
            f"{plan['nodes']} nodes x {plan['ranks_per_node']} processes), {plan['share_words']} words per process"
            if "probe" in plan else
            f"{plan['nodes']} nodes x {plan['ranks_per_node']} ranks{processes_text(plan)}), "
            f"2^{plan['table']['log2_words']} words, {plan['table']['updates_per_word']} updates per word")
    costs = "none (the network alone)" if plan.get("probe") == "exchange" else args.costs
    line = (f"gups-sim: {plan['algorithm']} on {plan['machine']['name']}, {plan['shape']} {plan['network']} ({what}, "
            f"network level {plan['network_level']}, costs: {costs}")
    return line if "probe" in plan else line + f", mechanisms: {', '.join(args.chosen_mechanisms) or 'none'}"


def against_the_model(args, plan):
    """Where this run assumes otherwise than gups-model with its defaults (Eq. 1, Eq. 6/7 on the same machine
    file), each in one line for beside the figure: the simulated steady state may differ from the model by it."""
    if "probe" in plan or not plan["routes_over_torus"]:
        return []
    differences = []
    if args.inputs != "file":
        moves = "lowers" if args.inputs == "low" else "raises"
        differences.append(f"the machine at the model's {args.inputs} end of its interval at this size (each ranged "
                           f"input at the side that {moves} the bound; simulation.input_set): the simulated "
                           f"{args.inputs} end")
    if args.costs != "machine":
        differences.append(f"costs {args.costs}: the model charges the machine file's cycles")
    elif "dma" not in args.chosen_mechanisms:
        differences.append("sends wait for a posted receive (rendezvous), where Eq. 1 and Eq. 6/7 take them as "
                           "injected at once: the steady state may fall below the model's (--mechanisms dma "
                           "simulates the model's sends)")
    if args.costs == "machine" and (plan.get("model_binding_cores") or 0) > 1:
        differences.append(f"{plan['model_binding_cores']} of the node's cores are within 2% of the slowest in the "
                           "model (a balanced plan): a wait for input on any of them is throughput the bound does not "
                           "count, so the steady state may fall a little below the model's")
    if "paper-buckets" in args.chosen_mechanisms:
        differences.append("buckets of the machine's reference sizes, where gups-model sizes them by its rule "
                           "(gups-model --buckets reference models these)")
    return differences


def simulate(args, workdir, max_wall):
    """One simulation of an update algorithm or of the Apex-Map probe; returns (exit status, result, output
    lines). Raises BadInput."""
    plan = run_plan(args, workdir)
    check_applies(args, plan)
    command, options = build_command(args, workdir, plan)
    check_memory(plan)
    if not args.quiet:
        print(announcement(args, plan), file=sys.stderr, flush=True)
    raw_path, progress_path = os.path.join(workdir, "raw.json"), os.path.join(workdir, "progress.jsonl")
    for path in (raw_path, progress_path):  # an earlier run's, in a --workdir
        if os.path.exists(path):
            os.remove(path)
    status, lines, wall, peak_kib, stopped = run_simulation(command, max_wall, args.quiet, workdir)
    simulation = simulation_section(args, plan, options, command, wall, peak_kib, stopped)
    if plan.get("probe") == "exchange":
        simulation.update({"charges": None, "shape": plan["shape"], "nodes": plan["nodes"],
                           "ranks_per_node": plan["ranks_per_node"], "message_layer": args.message_layer})
        status, result, lines = finish(status, lines, stopped, raw_path, simulation, args)
        if status == 0:
            result["links"] = plan["links"]
        return status, result, lines
    if "probe" in plan:
        simulation.update({"charges": plan["charges"] if args.costs == "machine" else None, "shape": plan["shape"],
                           "nodes": plan["nodes"], "ranks_per_node": plan["ranks_per_node"],
                           "message_layer": args.message_layer if args.algo == "apex-map-mpi" else "mpi"})
        return finish(status, lines, stopped, raw_path, simulation, args)
    notes = progress_notes(progress_path)
    table = plan["table"]
    simulation.update({"message_layer": args.message_layer, "mechanisms": args.chosen_mechanisms,
                       "processes_per_node": plan["processes_per_node"], "process_shape": plan["process_shape"],
                       "nodes_per_host": plan["nodes_per_host"],
                       "updating_cores_per_host": plan["updating_cores_per_host"],
                       "updates_per_node": table["updates_per_node"], "stream_offset": args.stream_offset,
                       "verification": plan["verification"]["mode"], "phase_end_wall_seconds": phase_walls(notes)})
    status, result, lines = finish(status, lines, stopped, raw_path, simulation, args, last_progress(notes))
    if status == 0 and result.get("cores"):
        result["binds"] = what_binds(result)
    result["against_model"] = against_the_model(args, plan)
    if status == 0:
        result["against_interval"] = against_the_interval(result, plan)
    return status, result, lines


def explain(args):
    """gups-model's explanation of the run's prediction, on the plan's shape and cores."""
    if args.algo in args.catalogue.probes():
        raise BadInput("--explain explains the update algorithms' bounds (for the Apex-Map probe: apex-map-model)")
    plan = run_plan(args)
    command = [GUPS_MODEL, "--machine", plan["machine"]["path"], "--algorithm", plan["algorithm"], "--shape",
               plan["shape"], "--explain"]
    algorithm = args.catalogue.variant(plan["algorithm"])
    command += ["--processes-per-node", str(plan["processes_per_node"])]
    if algorithm["specialised_cores"]:
        command += ["--cores-per-node", str(plan["ranks_per_node"] // plan["machine"].get("node", {}).get("threads_per_core", 1))]
        if args.role_plan:
            command += ["--role-plan", args.role_plan]
    elif args.cores_per_node:  # direct's node of that many cores, as the simulation's model takes it
        command += ["--cores-per-node", str(args.cores_per_node)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise BadInput(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "gups-model failed")
    text = done.stdout
    print(text[text.index("\n## "):].strip() + "\n" if "\n## " in text else text, flush=True)


def against_links(result):
    """What a global-exchange probe's largest size delivered against what the machine's links allow (the plan's
    `links`), for the person; the same figures go into the JSON as `against_links`."""
    links, largest = result["links"], max(result["sizes"], key=lambda size: size["bytes"])
    probe, per_node = result["algorithm"], result["simulation"]["ranks_per_node"]
    if probe == "all-to-all":
        rate = largest["per_pair_bytes_per_s"] * per_node
        peak = links["all_to_all_peak_bytes_per_s_per_node"]
        figures = {"delivered_bytes_per_s_per_node": rate, "peak_bytes_per_s_per_node": peak,
                   "efficiency": rate / peak}
        text = (f"{rate / 1e6:.4g} MB/s per node at {largest['bytes']} bytes: {100 * rate / peak:.1f}% of the "
                f"all-to-all peak ({peak / 1e6:.4g} MB/s per node: the busiest line's links full)")
    else:
        one_way = largest["aggregate_bytes_per_s"] / (2 if probe == "exchange" else 1)
        cut, model = links["probe_cut_bytes_per_s"], links["model_bisection_bytes_per_s"]
        figures = {"one_way_bytes_per_s": one_way, "probe_cut_bytes_per_s": cut, "of_probe_cut": one_way / cut,
                   "model_bisection_bytes_per_s": model, "of_model_bisection": one_way / model}
        text = (f"{one_way / 1e9:.4g} GB/s one way across the halves at {largest['bytes']} bytes: "
                f"{100 * one_way / cut:.1f}% of the links across the cut its pairs cross ({cut / 1e9:.4g} GB/s), "
                f"{100 * one_way / model:.1f}% of the model's bisection B ({model / 1e9:.4g} GB/s)")
    return figures, "Against the links: " + text


def convergence(result, args):
    """--converge's account of the run (gups-smpi --settle-to): settled or not, and how long it ran. Says it on
    stderr too."""
    settling, nodes = result["settling"], result["nodes"]
    simulated = round(result["updates"] / nodes)
    longest = result["simulation"]["updates_per_node"]
    result["simulation"]["updates_per_node"] = simulated
    account = {"tolerance": args.settle_to, "converged": settling["settled"], "method": "one run",
               "updates_per_node": simulated, "longest_updates_per_node": longest}
    if settling["settled"]:
        account.update({"settled_at_simulated_seconds": settling["settled_at_seconds"],
                        "half_run_steady_gups": settling["half_run_steady_gups"]})
        print(f"gups-sim: converge: settled within {args.settle_to:.2%} after {simulated} updates per "
              f"node (of at most {longest}): steady {settling['steady_gups']:.6g} GUP/s, a run of half the length "
              f"{settling['half_run_steady_gups']:.6g}", file=sys.stderr, flush=True)
    else:
        print(f"gups-sim: converge: NOT settled within {args.settle_to:.2%} in {longest} updates per node "
              f"(--converge-max-updates)", file=sys.stderr, flush=True)
    return account


def discard_workdir(args, workdir, keep=False):
    """Removes the temporary work folder (never a --workdir), or says where it is kept."""
    if args.workdir:
        return
    if keep:
        print(f"gups-sim: its files are kept in {workdir}", file=sys.stderr)
    else:
        shutil.rmtree(workdir, ignore_errors=True)


def print_result(result, lines, verdict):
    """What a person reads of a finished run, on standard output."""
    for line in lines:
        if not line.startswith("gups: progress:"):
            print(line)
    if "binds" in result:
        print(binds_line(result["binds"]))
    if verdict:
        print(f"Steady-state verdict: {verdict['text']}")
    for difference in result.get("against_model", []):
        print(f"Against the model: {difference}")
    if result.get("against_interval"):
        print(interval_line(result["against_interval"], result["simulation"].get("inputs", "file")))
    if "links" in result:
        print(against_links(result)[1])
    simulation = result["simulation"]
    print(f"Simulation: {simulation['wall_seconds']:.1f} s wall, {simulation['peak_memory_bytes'] / 2**20:.0f} "
          f"MiB peak, SimGrid {SIMGRID_VERSION}")


def main(argv):
    args = parse_arguments(argv, catalogue())
    workdir = None
    try:
        workdir = prepare(args)
        if args.plan_only:
            discard_workdir(args, workdir)  # made empty by prepare; nothing is simulated
            plan = run_plan(args)
            check_applies(args, plan)
            print(json.dumps(plan, indent=1))
            return 0
        if args.explain:
            explain(args)
        if args.converge:  # one run, as long as --converge-max-updates at most, stopped once settled
            args.updates_per_node = args.converge_max_updates
        status, result, lines = simulate(args, workdir, max_wall=args.max_wall)
        if args.converge and status == 0:
            result["convergence"] = convergence(result, args)
    except BadInput as error:
        print(f"gups-sim: error: {error}", file=sys.stderr)
        if workdir:
            discard_workdir(args, workdir)
        return 2
    except BaseException:  # stopped by a signal (SystemExit) or a fault: no temporary folder left behind
        if workdir:
            discard_workdir(args, workdir)
        raise
    if not result["partial"]:
        verdict = steady_verdict(result, args.settle_to if args.converge else SETTLED_TOLERANCE,
                                 result.get("convergence"))
        if verdict:
            result["steady_verdict"] = verdict
        if "links" in result:
            result["against_links"] = against_links(result)[0]
        try:
            print_result(result, lines, verdict)
        except BrokenPipeError:  # its reader left (| head): the JSON is still written and the work folder removed
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(result, f, indent=2)
                f.write("\n")
        except OSError as error:  # checked before the run; the path changed since
            print(f"gups-sim: error: cannot write --json {args.json}: {error.strerror}", file=sys.stderr)
            discard_workdir(args, workdir)
            return 2
    # A temporary folder is kept only when it can tell why a run failed (a run --max-wall stopped did not fail).
    discard_workdir(args, workdir, keep=status not in (0, 4) and bool(os.listdir(workdir)))
    if args.converge and status == 0 and not result["convergence"]["converged"]:
        return 5
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
