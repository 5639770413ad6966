"""Runs gups-model, gups-sim and gups (real: under mpirun on this host, or srun under Slurm) over
algorithms and node counts, keeping every raw JSON result."""
import json
import os
import shlex
import sys
import threading
import time

from .. import results
from ..run import launcher, programs, slurm
from ..run.launcher import MPI_ENV, Progress, host_cores
from ..run.programs import MissingBinary, load_machine, plan


def sweep(args):
    machine = load_machine(args.machine, args.build)
    algorithms = args.algorithms.split(",")
    nodes = [int(n) for n in args.nodes.split(",")]
    sources = args.sources.split(",")
    if "measured" in sources and machine.get("name") != "host":
        raise MissingBinary("measured runs need a 'host' machine file (gups-calibrate): this machine is "
                            f"'{machine.get('name')}'")
    model = programs.binary(args.build, "gups-model")
    sim = programs.binary(args.build, "gups-sim") \
        if "sim" in sources else None
    gups = programs.binary(args.build, "gups") if "measured" in sources else None
    runs = len(algorithms) * (("model" in sources) + len(nodes) * args.repeat *
                              (("sim" in sources) + ("measured" in sources) * len(args.owners.split(","))))
    progress = Progress(runs)
    with results.results_folder(args.out):
        runner = slurm.from_args(args, args.out)
        # Every run planned (gups-topology refuses bad input) before any is run or written.
        tasks, skipped = planned_tasks(args, algorithms, nodes, sources, (sim, gups), runner, progress)
        if runner.name == "slurm":
            for task in tasks:
                if task.meta["source"] == "sim":
                    slurm.size_simulation(task)
        if "model" in sources:
            for algorithm in algorithms:
                model_series(args, model, algorithm, nodes, progress)
        outcomes = runner.run(tasks, progress, args.resume)
    failed = [task.what for task, (document, _) in zip(tasks, outcomes) if document is None]
    records = results.load_records(args.out)
    results.write_csv(records, os.path.join(args.out, "results.csv"))
    print(f"sweep: {len(records)} results in {args.out}/raw, joined in {args.out}/results.csv", file=sys.stderr)
    return closing_status(args, runs, skipped, failed, "partition" if runner.name == "slurm" else "host")


def planned_tasks(args, algorithms, nodes, sources, binaries, runner, progress):
    """The simulations' and measured runs' tasks, and the measured runs this host (under Slurm, the partition)
    cannot hold: not run, never oversubscribed."""
    sim, gups = binaries
    tasks, skipped = [], []
    for algorithm in algorithms:
        for n in nodes:
            for repeat in range(1, args.repeat + 1):
                if "sim" in sources:
                    tasks.append(simulation(args, sim, algorithm, n, repeat))
                if "measured" in sources:
                    for owner in args.owners.split(","):
                        task = measurement(args, gups, algorithm, n, repeat, owner)
                        if runner.fits(task, progress) if runner.name == "slurm" else fits_this_host(task, progress):
                            tasks.append(task)
                        else:
                            skipped.append(task.what)
    return tasks, skipped


def closing_status(args, runs, skipped, failed, holder="host"):
    """The sweep's last line when some of its runs were not run or failed, and its exit status: 1 when a run
    failed, 3 when runs were skipped (0 with --allow-skips), else 0."""
    if failed:
        print(f"sweep: {len(failed)} of {runs} runs FAILED ({'; '.join(failed)}); their rows are missing from "
              "results.csv (--resume runs them again)", file=sys.stderr)
        return 1
    if skipped:
        accepted = getattr(args, "allow_skips", False)
        print(f"sweep: {len(skipped)} of {runs} runs NOT RUN, as they need more than the {holder} gives "
              f"({'; '.join(skipped)}); their rows are missing from results.csv"
              + (" (--allow-skips: exit 0)" if accepted else " (exit 3; --allow-skips accepts that)"),
              file=sys.stderr)
        return 0 if accepted else 3
    return 0


def host_placement(args):
    """The measured runs put their ranks on this host as mpirun does, by slot: model and simulation place them
    alike, so they know how many of the host's cores update at once."""
    return ["--nodes-per-host", args.nodes_per_host] if "measured" in args.sources.split(",") else []


def model_series(args, model, algorithm, nodes, progress):
    path = os.path.join(args.out, f"model-{algorithm}.json")
    command = programs.model_command(model, args.machine, algorithm, ",".join(str(n) for n in nodes), "--json", path)
    command += host_placement(args)
    quoted = " ".join(shlex.quote(c) for c in command)
    if args.resume and all(results.kept_result(results.raw_path(args.out, f"model-{algorithm}-{n}"), quoted)[0]
                           for n in nodes):
        progress.step(f"model {algorithm}: kept from an earlier sweep")
        return
    status, _, err = launcher.run(command)
    if status != 0:
        raise MissingBinary(f"gups-model failed: {err.strip()}")
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    series = document["results"][0]
    for row in series["rows"]:
        results.write_raw(args.out, f"model-{algorithm}-{row['nodes']}", {
            "sweep": {"source": "model", "machine": args.machine, "algorithm": algorithm, "nodes": row["nodes"],
                      "command": " ".join(shlex.quote(c) for c in command),
                      "crossover_nodes": series["crossover_nodes"]},
            "row": row})
    progress.step(f"model {algorithm}")


def simulation(args, sim, algorithm, nodes, repeat):
    name = f"sim-{algorithm}-{nodes}-{repeat}"
    path = results.raw_path(args.out, name)
    command = programs.sim_command(sim, args.machine, algorithm, nodes, "--updates-per-node",
                                   str(args.updates_per_node), "--costs", args.costs, "--json", path,
                                   *host_placement(args))
    if args.max_wall:
        command += ["--max-wall", str(args.max_wall)]
    return launcher.Task(name, f"sim {algorithm} {nodes} nodes #{repeat}", command, path, "sweep",
                         {"source": "sim", "machine": args.machine, "algorithm": algorithm, "nodes": nodes,
                          "repeat": repeat})


def fits_this_host(task, progress):
    """Whether a measured run's ranks fit this host's cores; if not, the progress line says why it is not run (two
    ranks time-sharing a core measure the scheduler, not the algorithm)."""
    if task.ranks <= host_cores():
        return True
    progress.step(f"{task.what}: not run, it needs {task.ranks} ranks and this host gives {host_cores()} cores "
                  "(measured runs never oversubscribe)")
    return False


def measurement(args, gups, algorithm, nodes, repeat, owner="division"):
    """The Task of one measured run: gups under MPI, its ranks placed --nodes-per-host torus nodes to a host."""
    # HPCC's 4 updates per word; the plan says how many ranks, which arguments, and how many hosts.
    run_plan = plan(args.build, args.machine, nodes, algorithm,
                    ["--log2-table", str(args.log2_table), "--updates-per-word", "4", "--owner", owner,
                     "--nodes-per-host", args.nodes_per_host])
    name = f"measured-{algorithm}-{nodes}-{repeat}" + ("" if owner == "division" else f"-{owner}")
    path = results.raw_path(args.out, name)
    hosts = -(-nodes // max(1, run_plan["nodes_per_host"]))
    ranks_per_host = -(-run_plan["ranks"] // hosts)
    # The table's share of a host, and an assumed 64 MiB for each rank's MPI library and buffers.
    memory = run_plan["table"]["bytes"] / hosts + 64 * 2**20 * ranks_per_host
    return launcher.Task(name, f"measured {algorithm} {nodes} nodes #{repeat} ({owner})",
                         [gups, *run_plan["kernel_arguments"], "--json", path], path, "sweep",
                         {"source": "measured", "machine": args.machine, "algorithm": algorithm, "nodes": nodes,
                          "repeat": repeat, "owner": owner, "hosts": hosts},
                         memory_bytes=int(memory), ranks=run_plan["ranks"], hosts=hosts, env=MPI_ENV)
