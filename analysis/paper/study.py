"""The paper's two studies, predicted: Table 4 (GUPS from 64 nodes up, for the
multi-core and single-core algorithms) and Table 3 (node counts that are not
powers of two, owners found by division or by prediction). Each size is run
through gups-model (Eq. 1 or Eq. 6/7, with the sizing rule's buckets and with
the paper's) and gups-sim (the machine as it was: every modelled mechanism),
and the study writes a table a person reads (Markdown), one a script reads
(CSV and JSON), a plot, and every raw result."""
import json
import math
import os
import sys
import time

from .. import results
from ..report import plot
from ..study_tools import (INTERVAL_COLUMNS, MECHANISMS, against_interval, csv_list,  # noqa: F401
                           design_choice, end_fields, fmt, interval_fields, label, markdown, mechanisms_for,
                           ratio, run_length, run_tasks, sim_fields, steady_cell, table_lines, write)
from ..run import launcher, programs, slurm
from . import sweep

# Table 4: what the paper ran, and the machine it ran on.
TABLE4_SERIES = [("bgp", "multicore"), ("bgp", "routed"), ("bgl", "routed")]
TABLE4_NODES = [64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536]
# Table 3: halfway between powers of two, and the powers of two around them.
TABLE3_NODES = [96, 192, 384, 768]
TABLE3_NEIGHBOURS = [64, 128, 256, 512, 1024]


class Study:
    def __init__(self, args, total):
        self.args = args
        self.model = programs.binary(args.build, "gups-model")
        self.sim = programs.binary(args.build, "gups-sim") \
            if not args.model_only else None
        self.progress = launcher.Progress(total, "study")
        self.launcher = slurm.from_args(args, args.out, getattr(args, "jobs", 1))
        self.commands = []
        os.makedirs(os.path.join(args.out, "raw"), exist_ok=True)

    def model_rows(self, machine, algorithm, nodes, buckets, owner="division"):
        name = f"model-{label(machine)}-{algorithm}-{buckets}-{owner}"
        path = os.path.join(self.args.out, "raw", name + ".json")
        command = programs.model_command(self.model, machine, algorithm, ",".join(str(n) for n in nodes), "--buckets",
                                         buckets, "--owner", owner, "--json", path)
        self.commands.append(launcher.quoted(command))
        # The model takes milliseconds: always here, whatever launches the simulations.
        task = launcher.Task(name, f"gups-model {machine} {algorithm}", command, path, "study")
        [(document, _)] = launcher.Local().run([task], launcher.Progress(0, "study", quiet=True), self.args.resume)
        if document is None:
            raise ValueError(f"gups-model could not model {algorithm} on {machine}")
        return {row["nodes"]: row for row in document["results"][0]["rows"]}

    def simulation(self, machine, algorithm, nodes, mechanisms, owner="division", tag="", inputs="file", wrap=None):
        """The Task of one gups-sim run (`inputs`: the machine file's values, or the model's low or high end;
        `wrap`: the partition's wrap-around links set outright, in place of the machine's mesh mechanism)."""
        tag += "" if inputs == "file" else f"-{inputs}"
        extra = ["--inputs", inputs] if inputs != "file" else []
        if wrap:
            tag += f"-{wrap}"
            mechanisms = ",".join(m for m in (mechanisms or "").split(",") if m and m != "mesh")
            extra += ["--wrap", wrap]
        name = f"sim-{label(machine)}-{algorithm}-{nodes}-{owner}{tag}"
        path = os.path.join(self.args.out, "raw", name + ".json")
        command = programs.sim_command(self.sim, machine, algorithm, nodes, "--verify", "none", "--owner", owner,
                                       "--mechanisms", mechanisms or "none", "--network", self.args.network, "--json",
                                       path, *extra)
        if self.args.updates_per_node:
            command += ["--updates-per-node", str(self.args.updates_per_node)]
        if self.args.max_wall:
            command += ["--max-wall", str(self.args.max_wall)]
        if self.args.converge:
            command += ["--converge"]
        if self.args.reception_fifo:
            command += ["--reception-fifo", str(self.args.reception_fifo)]
        return launcher.Task(name, f"sim {machine} {algorithm} {nodes} nodes ({owner}{tag})", command, path, "study")

    def launch(self, tasks):
        """Runs the simulations (here, or as Slurm tasks); (document or None, wall seconds) of each, in order."""
        self.commands += [launcher.quoted(task.command) for task in tasks]
        return run_tasks(self.launcher, tasks, self.progress, self.args.resume)


def table4(args):
    series = [s for s in TABLE4_SERIES if s[1] in args.algorithms]
    nodes_of = {s: [n for n in args.nodes if n <= (65536 if s[0] == "bgl" else 32768)] for s in series}
    runs_a_size = (3 if getattr(args, "ends", False) else 1) + (1 if getattr(args, "wraps", False) else 0)
    study = Study(args, 0 if args.model_only else runs_a_size * sum(len(v) for v in nodes_of.values()))
    rows = {}
    machine_files = {}
    for machine, algorithm in series:
        machine_files[machine] = machine_file = programs.load_machine(machine, args.build)
        nodes = nodes_of[(machine, algorithm)]
        if not nodes:
            continue
        rule = study.model_rows(machine, algorithm, nodes, "sizing")
        # The paper's bucket sizes (Table 4's BktSize) are the multi-core algorithm's.
        paper = study.model_rows(machine, algorithm, nodes, "reference") if algorithm == "multicore" else {}
        printed = machine_file.get("reference_gups", {})
        for n in nodes:
            rows[(machine, algorithm, n)] = {
                "machine": machine, "algorithm": algorithm, "nodes": n, "shape": rule[n]["shape"],
                "rule_bucket": rule[n]["bucket_size"],
                "paper_bucket": rule[n]["reference_bucket_size"] if paper else None,
                "eq_rule_gups": rule[n]["gups"], "eq_paper_gups": paper[n]["gups"] if paper else None,
                "paper_bound_gups": printed.get(f"{algorithm}_bound", {}).get(str(n)),
                "model_binds": rule[n]["binds"], **interval_fields(rule[n]),
                "paper_interval": interval_fields(paper[n]) if paper else None}
    if not args.model_only:
        simulate_by_size(args, study, rows, machine_files)
    ordered = sorted(rows.values(), key=lambda r: (SERIES_ORDER[(r["machine"], r["algorithm"])], r["nodes"]))
    return ordered, study.commands


SERIES_ORDER = {s: i for i, s in enumerate(TABLE4_SERIES)}


def simulate_by_size(args, study, rows, machine_files):
    """Smallest size first, every series of a size side by side (--jobs at a time). With --wall-budget, the
    series of a size whose estimated time would end past the budget are left unsimulated there and at every
    larger size; the cheaper series of that size still run if they fit (single-core runs have a quarter of the
    ranks of multi-core ones). Under Slurm every size is submitted at once: the cluster runs them side by side."""
    if study.launcher.name == "slurm":
        simulate_keys(study, rows, sorted(rows, key=lambda k: (k[2], SERIES_ORDER[k[:2]])), machine_files)
        return
    series = next(iter(rows))[:2]
    budget = WallBudget(args.wall_budget, args.jobs,
                        lambda n: args.updates_per_node or run_length(args.build, *series, n))
    stopped = set()
    for n in sorted({key[2] for key in rows}):
        candidates = [key for key in rows if key[2] == n and key[:2] not in stopped]
        if not candidates:
            return
        keys = budget.choose(candidates)
        left = [key for key in candidates if key not in keys]
        if left:
            estimate = budget.estimate(candidates)
            for series in (key[:2] for key in left):
                stopped.add(series)
                for key in (k for k in rows if k[:2] == series and k[2] >= n):
                    rows[key]["not_simulated"] = (f"about {estimate:.0f} s for {n:,} nodes would exceed the "
                                                  f"{args.wall_budget:g} s budget")
            print(f"study: {n} nodes and more not simulated: about {estimate:.0f} s more would exceed the "
                  f"{args.wall_budget:g} s budget ({budget.elapsed():.0f} s used): "
                  f"{', '.join(' '.join(key[:2]) for key in left)}", file=sys.stderr, flush=True)
        if not keys:
            return
        simulate_keys(study, rows, keys, machine_files, budget)


def simulate_keys(study, rows, keys, machine_files, budget=None):
    mechanisms = {key: mechanisms_for(programs.variant(study.args.build, key[1]), key[2], machine_files[key[0]])
                  for key in keys}
    for key in keys:  # the interval of the model with the buckets the simulation uses
        if "paper-buckets" in mechanisms[key] and rows[key].get("paper_interval"):
            rows[key].update(rows[key]["paper_interval"])
    if getattr(study.args, "ends", False):
        ends = study.launch([study.simulation(key[0], key[1], key[2], mechanisms[key], inputs=end)
                             for key in keys for end in ("low", "high")])
        for index, key in enumerate(keys):
            (low, _), (high, _) = ends[2 * index], ends[2 * index + 1]
            rows[key].update(end_fields(low, high))
    unknown = [key for key in keys if rows[key].get("wrap_unknown")] if getattr(study.args, "wraps", False) else []
    meshes = study.launch([study.simulation(*key, mechanisms[key], wrap="mesh") for key in unknown])
    for key, (document, _) in zip(unknown, meshes):
        mesh = sim_fields(document, 0)
        rows[key].update(sim_mesh_gups=mesh["sim_steady_gups"], sim_mesh_settled=mesh.get("steady_settled"))
    done = study.launch([study.simulation(key[0], key[1], key[2], mechanisms[key]) for key in keys])
    for key, (document, wall) in zip(keys, done):
        row = rows[key]
        row.update(mechanisms=mechanisms[key], **sim_fields(document, wall))
        # Eq. 7 with the buckets the simulation used.
        eq_gups = row["eq_paper_gups"] if "paper-buckets" in mechanisms[key] else row["eq_rule_gups"]
        row["sim_over_eq"] = ratio(row["sim_steady_gups"], eq_gups)
        row["whole_over_eq"] = ratio(row["sim_gups"], eq_gups)
        if budget:
            budget.record(key, wall, row.get("sim_updates_per_node"))


class WallBudget:
    """Estimates a size's simulations from the same series at the sizes before: the wall time per simulated
    update grows by about 1 to 2 per doubling of the nodes (Table 4 here, at 8,192 updates a node: 2, 3, 9, 30, 68,
    199, 530 s from 64 to 4,096 nodes), times the updates the run will simulate. A run's length is what it
    simulated (a converged run goes on until its steady state settles, past the default length(nodes) a node),
    and the next size is expected to run as much past its default length as the last one did."""
    FIRST_GROWTH, MIN_GROWTH, MAX_GROWTH, MARGIN = 1.5, 1.0, 2.0, 1.25

    def __init__(self, seconds, jobs, length):
        self.seconds, self.jobs, self.start, self.walls = seconds, max(1, jobs), time.monotonic(), {}
        self.length = length

    def elapsed(self):
        return time.monotonic() - self.start

    def record(self, key, wall, updates_per_node=None):
        """`updates_per_node`: what the run simulated, when it says (else its default length)."""
        self.walls.setdefault(key[:2], []).append((key[2], wall, updates_per_node or self.length(key[2])))

    def work(self, nodes):
        return nodes * self.length(nodes)

    def estimate(self, keys):
        """Seconds for these simulations run --jobs at a time, with a margin."""
        each = []
        for key in keys:
            history = self.walls.get(key[:2], [])
            if not history:
                each.append(0.0)
                continue
            growth = self.FIRST_GROWTH
            if len(history) >= 2 and history[-2][1] > 0 and history[-1][0] != history[-2][0]:
                (n1, w1, l1), (n2, w2, l2) = history[-2:]
                per_update = (w2 / w1) / ((n2 * l2) / (n1 * l1))
                growth = min(self.MAX_GROWTH, max(self.MIN_GROWTH, per_update ** (1 / math.log2(n2 / n1))))
            last_nodes, last_wall, _ = history[-1]
            # As far past its default length as the last size ran: their defaults' ratio.
            each.append(last_wall * self.work(key[2]) / self.work(last_nodes) *
                        growth ** math.log2(key[2] / last_nodes))
        return self.MARGIN * max(max(each, default=0.0), sum(each) / self.jobs)

    def fits(self, estimate):
        return not self.seconds or self.elapsed() + estimate <= self.seconds

    def choose(self, keys):
        """The simulations of these that fit together in the budget, taken cheapest first; in their given order."""
        chosen = []
        for key in sorted(keys, key=lambda k: self.estimate([k])):
            if not self.fits(self.estimate(chosen + [key])):
                break
            chosen.append(key)
        return [key for key in keys if key in chosen]


def table3(args):
    machine_file = programs.load_machine(args.machine, args.build)
    divide_costs = args.divide_cycles or [machine_file["costs_cycles"]["owner_division"]]
    odd = [n for n in args.nodes if n & (n - 1)]
    neighbours = [n for n in TABLE3_NEIGHBOURS if any(n < m < 2 * n or m < n < 2 * m for m in odd)] \
        if args.neighbours else []
    runs = len(odd) * (1 + len(divide_costs)) + len(neighbours)
    study = Study(args, 0 if args.model_only else runs)
    rows = []
    simulations = []
    algorithm = "multicore"
    for cycles in divide_costs:
        machine = machine_variant(args, machine_file, cycles)
        # The buckets the simulation uses: the paper's where it lists the size.
        models = {owner: study.model_rows(machine, algorithm, odd + neighbours, "reference", owner)
                  for owner in ("division", "predict")}
        for n in sorted(odd + neighbours):
            for owner in ("division", "predict"):
                if owner == "predict" and cycles != divide_costs[0]:
                    continue  # prediction does not depend on the divide's cost
                if n in neighbours and owner == "division":
                    continue  # a power of two finds owners by shifting either way
                row = {"nodes": n, "shape": models[owner][n]["shape"], "owner": owner,
                       "divide_cycles": cycles if owner == "division" else None,
                       "power_of_two": n not in odd, "eq_gups": models[owner][n]["gups"],
                       "eq_core_cycles": [round(c["cycles"], 1) for c in models[owner][n]["cores"]],
                       **interval_fields(models[owner][n])}
                if not args.model_only:
                    row["mechanisms"] = mechanisms_for(programs.variant(args.build, algorithm), n, machine_file)
                    tag = f"-div{cycles:g}" if owner == "division" else ""
                    simulations.append((row, study.simulation(machine, algorithm, n, row["mechanisms"], owner, tag)))
                rows.append(row)
    done = study.launch([task for _, task in simulations]) if simulations else []
    for (row, _), (document, wall) in zip(simulations, done):
        row.update(**sim_fields(document, wall))
        row["sim_over_eq"] = ratio(row["sim_steady_gups"], row["eq_gups"])
    return rows, study.commands


def machine_variant(args, machine_file, cycles):
    """The machine file with another divide cost, written beside the results."""
    if cycles == machine_file["costs_cycles"]["owner_division"]:
        return args.machine
    variant = dict(machine_file)
    variant["costs_cycles"] = dict(variant["costs_cycles"])
    variant["costs_cycles"]["owner_division"] = cycles
    variant["sources"] = dict(variant.get("sources", {}))
    variant["sources"]["costs_cycles.owner_division"] = design_choice(
        f"study variant: {cycles:g} cycles (python3 -m analysis study)")
    path = os.path.join(args.out, f"machine-{machine_file['name']}-divide-{cycles:g}.json")
    return os.path.abspath(programs.write_machine(variant, path))


def shares(values):
    return " ".join(fmt(v, ".2f") for v in values or [])


SIMULATED_COLUMNS = [
    ("level", False, lambda r: r.get("network_level") or "-"),
    ("simulated whole run", True, lambda r: fmt(r.get("sim_gups"))),
    ("simulated steady", True, lambda r: steady_cell(r)),
    ("quarters apart", True, lambda r: "-" if r.get("steady_spread") is None else f"{100 * r['steady_spread']:.1f}%"),
    ("steady/Eq.", True, lambda r: fmt(r.get("sim_over_eq"), ".3f")),
] + INTERVAL_COLUMNS


def beside_rows(folder):
    """Another table4 study's rows (its table4.json), by (machine, algorithm, nodes). Raises ValueError."""
    path = os.path.join(folder, "table4.json")
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, ValueError) as error:
        raise ValueError(f"--beside {folder}: cannot read its table4.json ({error})") from None
    return {(r["machine"], r["algorithm"], r["nodes"]): r for r in document.get("rows", [])}


def beside_columns(beside):
    """The other study's level and steady state beside this one's, and their ratio (on the same shape only)."""
    def other(r):
        o = beside.get((r["machine"], r["algorithm"], r["nodes"]))
        return o if o and o.get("shape") == r["shape"] else None

    def level(r):
        o = other(r)
        return (o.get("network_level") or "-") if o else "- (not on this shape)"
    return [("beside: level", False, level),
            ("beside: steady", True, lambda r: fmt(other(r) and other(r).get("sim_steady_gups"))),
            ("beside: steady/Eq.", True, lambda r: fmt(other(r) and other(r).get("sim_over_eq"), ".3f")),
            ("this/beside", True, lambda r: fmt(ratio(r.get("sim_steady_gups"),
                                                     other(r) and other(r).get("sim_steady_gups")), ".4f"))]


WRAP_COLUMNS = [
    ("wrap-around unknown: model, every dimension wraps / none", True,
     lambda r: f"{fmt(r['model_torus_gups'])} / {fmt(r['model_mesh_gups'])}" if r.get("wrap_unknown") else "-"),
    ("simulated steady, none wraps", True,
     lambda r: steady_cell({"sim_steady_gups": r["sim_mesh_gups"], "steady_settled": r.get("sim_mesh_settled")})
     if r.get("wrap_unknown") and "sim_mesh_gups" in r else "-"),
]


def markdown4(rows, wall, commands, beside=None):
    columns = [
        ("machine", False, lambda r: r["machine"]), ("algorithm", False, lambda r: r["algorithm"]),
        ("nodes", True, lambda r: r["nodes"]), ("shape", False, lambda r: r["shape"]),
        ("bucket rule/paper", False, lambda r: f"{r['rule_bucket']}/{r['paper_bucket'] or '-'}"),
        ("Eq. rule", True, lambda r: fmt(r["eq_rule_gups"])),
        ("Eq. paper buckets", True, lambda r: fmt(r["eq_paper_gups"])),
        ("paper's Bottleneck", True, lambda r: fmt(r["paper_bound_gups"])),
    ] + SIMULATED_COLUMNS + (WRAP_COLUMNS if any(r.get("wrap_unknown") for r in rows) else []) + \
        (beside_columns(beside) if beside else []) + [
        ("binds", False, lambda r: r.get("binds", r["model_binds"])),
        ("busy shares", False, lambda r: shares(r.get("busy_shares"))),
        ("stalled shares", False, lambda r: shares(r.get("stalled_shares"))),
        ("wall s", True, lambda r: fmt(r.get("wall_seconds"), ".0f")),
        ("peak MiB", True, lambda r: fmt(r.get("peak_mib"), ".0f")),
    ]
    skipped = next((r for r in rows if r.get("not_simulated")), None)
    extra = ["", f"Not simulated from {skipped['nodes']} nodes: {skipped['not_simulated']} "
             "(`--max-nodes` and a larger `--wall-budget` simulate them)."] if skipped else []
    simulated = sum(r.get("wall_seconds") or 0 for r in rows)
    return markdown("Table 4, predicted", f"gups-model (Eq. 1 / Eq. 6-7) and gups-sim (every modelled mechanism), "
                    f"{wall:.0f} s of wall time on this machine for this command, {simulated:.0f} s in the rows' "
                    "simulations (runs an earlier command made and --resume kept count theirs).", columns, rows,
                    commands, extra)


def markdown3(rows, wall, commands):
    columns = [
        ("nodes", True, lambda r: r["nodes"]), ("shape", False, lambda r: r["shape"]),
        ("owners", False, lambda r: "shift" if r["power_of_two"] else r["owner"]),
        ("divide cycles", True, lambda r: fmt(r["divide_cycles"], "g")),
        ("Eq. 7", True, lambda r: fmt(r["eq_gups"])),
        ("core loads (cycles)", False, lambda r: " ".join(fmt(c, "g") for c in r["eq_core_cycles"])),
    ] + SIMULATED_COLUMNS + [
        ("binds", False, lambda r: r.get("binds", "-")),
        ("wall s", True, lambda r: fmt(r.get("wall_seconds"), ".0f")),
    ]
    gains = improvement(rows)
    extra = ["", "Prediction over division (simulated steady state, Eq. 7 in brackets):", ""] + \
        [f"- {n} nodes, divide {c:g} cycles: {fmt(s, '.2f')}x ({fmt(e, '.2f')}x)" for n, c, s, e in gains] \
        if gains else []
    return markdown("Table 3, predicted", "Multi-core on Blue Gene/P; owners by HPCC's division or by the paper's "
                    f"prediction; {wall:.0f} s of wall time on this machine.", columns, rows, commands, extra)


def improvement(rows):
    predicted = {r["nodes"]: r for r in rows if r["owner"] == "predict" and not r["power_of_two"]}
    gains = []
    for r in rows:
        p = predicted.get(r["nodes"])
        if r["owner"] == "division" and not r["power_of_two"] and p:
            gains.append((r["nodes"], r["divide_cycles"], ratio(p.get("sim_steady_gups"), r.get("sim_steady_gups")),
                          ratio(p["eq_gups"], r["eq_gups"])))
    return gains


def study(args):
    if args.which == "table4":
        args.nodes = csv_list(args.nodes) if args.nodes else [n for n in TABLE4_NODES if n <= args.max_nodes]
    else:
        args.nodes = csv_list(args.nodes) if args.nodes else TABLE3_NODES
    args.divide_cycles = [int(c) if c == int(c) else c for c in csv_list(args.divide_cycles, float)] \
        if args.divide_cycles else []
    args.algorithms = args.algorithms.split(",")
    if not args.nodes or any(n < 1 for n in args.nodes):
        raise ValueError("--nodes needs node counts of at least 1")
    if args.reception_fifo < 0:
        raise ValueError("--reception-fifo must be 0 (unbounded) or more")
    if args.jobs < 1 or args.wall_budget < 0 or not math.isfinite(args.wall_budget):
        raise ValueError("--jobs needs 1 or more and --wall-budget 0 (no limit) or more seconds")
    beside = beside_rows(args.beside) if getattr(args, "beside", None) else None
    if beside is not None and args.which != "table4":
        raise ValueError("--beside compares two table4 studies")
    start = time.monotonic()
    rows, commands = (table4 if args.which == "table4" else table3)(args)
    wall = time.monotonic() - start
    text = markdown4(rows, wall, commands, beside) if args.which == "table4" else markdown3(rows, wall, commands)
    write(args, args.which, rows, text)
    png = plot.study_plot(args.which, rows, args.out)
    sys.stdout.write(text)
    print(f"study: {args.which} in {args.out}/{args.which}.md, .csv, .json and {os.path.basename(png)} "
          f"({wall:.0f} s)", file=sys.stderr)
    failed = sum(1 for r in rows if r.get("binds") == "failed")
    if failed:
        print(f"study: {failed} simulation(s) failed; their rows have no simulated figures", file=sys.stderr)
    return 1 if failed else 0
