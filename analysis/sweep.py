"""Runs gups-model, gups-sim and gups (real: under mpirun on this host, or srun under Slurm) over
algorithms and node counts, keeping every raw JSON result."""
import json
import os
import shlex
import sys
import threading
import time

from . import launcher, results, slurm

MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_btl_vader_single_copy_mechanism": "none"}


class MissingBinary(Exception):
    pass


def binary(build, relative, made_by="cmake --build build"):
    path = os.path.join(build, relative)
    if not os.path.exists(path):
        raise MissingBinary(f"{path} is missing: it is made by '{made_by}'")
    return path


def network_levels(build):
    """The simulator's network levels as the build's gups-topology lists them (one list, in C++:
    sim/levels/levels.def): [{"name", "help", "simgrid_links"}, ...]."""
    status, out, err = launcher.run([binary(build, "topologies/gups-topology"), "--network-levels"])
    if status != 0:
        raise ValueError(f"gups-topology --network-levels: {err.strip()}")
    return json.loads(out)


def check_network_level(build, name):
    """Raises ValueError naming the levels when `name` is none of them (without a build, the run that needs one
    says so)."""
    try:
        names = [level["name"] for level in network_levels(build)]
    except MissingBinary:
        return
    if name not in names:
        raise ValueError(f"--network: unknown network level '{name}' (give {', '.join(names)} or auto)")


def plan(build, machine, nodes, algorithm="multicore", options=()):
    """gups-topology's plan of a run: the machine's shape for the node count, ranks, the kernel's arguments
    and the machine file as the C++ reads it. Raises ValueError with its error."""
    command = [binary(build, "topologies/gups-topology"), "--machine", machine, "--algo", algorithm,
               "--nodes", str(nodes), *options]
    status, out, err = launcher.run(command)
    if status != 0:
        raise ValueError(err.strip().replace("gups-topology: error: ", ""))
    return json.loads(out)


def load_machine(machine, build):
    """The machine file as gups reads it (a name looked up as gups does, $TORUS_GUPS_MACHINES first); its
    "path" says which file that was."""
    return plan(build, machine, 1)["machine"]


def write_machine(machine, path):
    """A machine file (as load_machine read it, perhaps changed) written where gups can read it: without the
    "path" that load_machine added."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump({key: value for key, value in machine.items() if key != "path"}, f, indent=1)
    return path


class Progress:
    def __init__(self, total, prefix="sweep", quiet=False):
        self.total, self.done, self.start, self.prefix, self.quiet = total, 0, time.monotonic(), prefix, quiet
        self.lock = threading.Lock()  # steps may come from simulations run side by side

    def left(self):
        """Seconds left at the pace so far (0 before the first step)."""
        return (time.monotonic() - self.start) / self.done * max(0, self.total - self.done) if self.done else 0.0

    def step(self, what):
        with self.lock:
            self.done += 1
            elapsed, left = time.monotonic() - self.start, self.left()
            if not self.quiet:
                print(f"{self.prefix}: [{self.done}/{self.total}] {what} ({elapsed:.0f} s, about {left:.0f} s left)",
                      file=sys.stderr, flush=True)


def sweep(args):
    machine = load_machine(args.machine, args.build)
    algorithms = args.algorithms.split(",")
    nodes = [int(n) for n in args.nodes.split(",")]
    sources = args.sources.split(",")
    if "measured" in sources and machine.get("name") != "host":
        raise MissingBinary("measured runs need a 'host' machine file (gups-calibrate): this machine is "
                            f"'{machine.get('name')}'")
    model = binary(args.build, "models/gups-model")
    sim = binary(args.build, "sim/gups-sim", "cmake --build build (needs SimGrid: libsimgrid-dev)") \
        if "sim" in sources else None
    gups = binary(args.build, "kernel/gups") if "measured" in sources else None
    runs = len(algorithms) * (("model" in sources) + len(nodes) * args.repeat *
                              (("sim" in sources) + ("measured" in sources) * len(args.owners.split(","))))
    progress = Progress(runs)
    os.makedirs(results.raw_folder(args.out), exist_ok=True)
    runner = slurm.from_args(args, args.out)
    tasks = []
    for algorithm in algorithms:
        if "model" in sources:
            model_series(args, model, algorithm, nodes, progress)
        for n in nodes:
            for repeat in range(1, args.repeat + 1):
                if "sim" in sources:
                    tasks.append(simulation(args, sim, algorithm, n, repeat))
                if "measured" in sources:
                    for owner in args.owners.split(","):
                        task = measurement(args, gups, algorithm, n, repeat, owner)
                        if (runner.fits(task, progress) if runner.name == "slurm" else fits_this_host(task, progress)):
                            tasks.append(task)
    if runner.name == "slurm":
        for task in tasks:
            if task.meta["source"] == "sim":
                slurm.size_simulation(task)
    runner.run(tasks, progress, args.resume)
    records = results.load_records(args.out)
    results.write_csv(records, os.path.join(args.out, "results.csv"))
    print(f"sweep: {len(records)} results in {args.out}/raw, joined in {args.out}/results.csv", file=sys.stderr)
    return 0


def host_placement(args):
    """The measured runs put their ranks on this host as mpirun does, by slot: model and simulation place them
    alike, so they know how many of the host's cores update at once."""
    return ["--nodes-per-host", args.nodes_per_host] if "measured" in args.sources.split(",") else []


def model_series(args, model, algorithm, nodes, progress):
    path = os.path.join(args.out, f"model-{algorithm}.json")
    command = [model, "--machine", args.machine, "--algorithm", algorithm, "--nodes",
               ",".join(str(n) for n in nodes), "--json", path]
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
    command = [sim, "--quiet", "--machine", args.machine, "--algo", algorithm, "--nodes", str(nodes),
               "--updates-per-node", str(args.updates_per_node), "--costs", args.costs,
               "--json", path] + host_placement(args)
    if args.max_wall:
        command += ["--max-wall", str(args.max_wall)]
    return launcher.Task(name, f"sim {algorithm} {nodes} nodes #{repeat}", command, path, "sweep",
                         {"source": "sim", "machine": args.machine, "algorithm": algorithm, "nodes": nodes,
                          "repeat": repeat})


def host_cores():
    """The cores this process may run on (its CPU affinity), which a measured run must not exceed."""
    return len(os.sched_getaffinity(0))


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
