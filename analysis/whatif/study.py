"""What-if studies: one machine-file field (or two, as a grid) varied over a list of values or factors of the
machine's own, at one or more sizes, each point modelled (gups-model) and simulated (gups-sim). The table, CSV,
JSON and plot say what binds at each point (which core's role, or which of the network's links), so an architect
sees where the binding resource changes. `--field machine` compares whole machine files instead."""
import copy
import json
import math
import os
import sys
import time

from .. import study_tools
from ..run import launcher, programs, slurm
from . import plot as whatif_plot

MACHINE_FIELD = "machine"


def values_of(text, current):
    """The values a --values list names: numbers, factors of the current value ("x2"), or a doubling range of
    factors ("x0.25..x4"). Raises ValueError naming the item at fault."""
    values = []
    for item in (x.strip() for x in text.split(",")):
        if not item:
            continue
        if isinstance(current, str) and not (item.startswith("x") and item[1:2].isdigit()):
            values.append(item)  # a named choice, such as role_plan's paper or best
        elif item.startswith("x") and ".." in item:
            low, high = (number(part.lstrip("x"), item) for part in item.split("..", 1))
            if not 0 < low <= high:
                raise ValueError(f"--values {item}: a range of factors runs from a positive factor up")
            factor = low
            while factor <= high * (1 + 1e-9):
                values.append(scaled(current, factor, item))
                factor *= 2
        elif item.startswith("x"):
            values.append(scaled(current, number(item[1:], item), item))
        else:
            values.append(number(item, item))
    if not values:
        raise ValueError("--values names no value")
    return values


def number(text, item):
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"--values {item}: not a number or a factor such as x2") from None
    if not math.isfinite(value):
        raise ValueError(f"--values {item}: not a finite number")
    return int(value) if value == int(value) and abs(value) < 2**53 else value


def scaled(current, factor, item):
    if current is None:
        raise ValueError(f"--values {item}: a factor needs the field's current value, and the machine has none")
    if isinstance(current, list):
        return [scaled(c, factor, item) for c in current]
    if not isinstance(current, (int, float)) or isinstance(current, bool):
        raise ValueError(f"--values {item}: the field is not a number, so it has no factors")
    value = current * factor
    return int(round(value)) if isinstance(current, int) and value == round(value) else value


def field_value(document, field):
    """The value at a dotted path of a machine file, or None."""
    node = document
    for key in field.split("."):
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def with_field(document, field, value):
    """A copy of the machine file with `field` set to `value`; raises ValueError for a path that is not there (a
    mistyped field would otherwise be refused by the C++ with the file's name, not the option's)."""
    changed = copy.deepcopy(document)
    node = changed
    keys = field.split(".")
    for key in keys[:-1]:
        if not isinstance(node.get(key), dict):
            raise ValueError(f"--field {field}: the machine file has no section '{key}' there")
        node = node[key]
    if keys[-1] not in node:
        known = ", ".join(k for k in node if not isinstance(node[k], dict))
        raise ValueError(f"--field {field}: the machine file has no field '{keys[-1]}' there (it has: {known})")
    node[keys[-1]] = value
    why = f"what-if study: set to {value} (python3 -m analysis study whatif)"
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    changed.setdefault("sources", {})[field] = study_tools.design_choice(why) if numeric else why
    return changed


def machine_documents(args, build):
    """(values, machine argument) per point of the study's grid, the variants written under OUT/machines."""
    if args.field == MACHINE_FIELD:
        if args.field2:
            raise ValueError("--field machine compares whole machines; it takes no --field2")
        names = [x.strip() for x in args.values.split(",") if x.strip()]
        if not names:
            raise ValueError("--values names no machine")
        return [((name,), name) for name in names]
    base = programs.plan(build, args.machine, min(args.nodes))["machine"]
    fields = [args.field] + ([args.field2] if args.field2 else [])
    for field in fields:
        with_field(base, field, None)  # a field the file lacks is named before its values are read
    args.machine_values = [field_value(base, field) for field in fields]  # what each value is a factor of
    lists = [values_of(args.values, field_value(base, args.field))]
    if args.field2:
        if not args.values2:
            raise ValueError("--field2 needs --values2")
        lists.append(values_of(args.values2, field_value(base, args.field2)))
    grid = [(a,) for a in lists[0]] if len(lists) == 1 else [(a, b) for b in lists[1] for a in lists[0]]
    os.makedirs(os.path.join(args.out, "machines"), exist_ok=True)
    points = []
    for values in grid:
        document = base
        for field, value in zip(fields, values):
            document = with_field(document, field, value)
        name = "-".join([base["name"]] + [f"{f.split('.')[-1]}-{whatif_plot.label_of(v)}" for f, v in zip(fields, values)])
        name = name.replace(" ", "_").replace("[", "").replace("]", "").replace("/", "_")  # a plan's groups: X/YZ
        path = os.path.abspath(programs.write_machine(document, os.path.join(args.out, "machines", name + ".json")))
        points.append((values, path))
    return points


CHOSEN = "chosen"
ROUTING = ("routed", "multicore")
# The mapping modes gups-sim runs: a node's cores share no table (modes 5 and 6 are real runs only).
SIMULATED_MODES = (1, 8)


def model_row(args, model, machine, nodes, tag):
    """gups-model's row of a point, with the mode planner's table where the machine asks for it; with --algorithm
    chosen, the planner's chosen placement (row["placement"]: what the simulation runs)."""
    if args.algorithm == CHOSEN:
        return chosen_row(args, model, machine, nodes, tag)
    return placement_row(args, model, machine, nodes, tag, {"algorithm": args.algorithm})


def placement_row(args, model, machine, nodes, tag, placement, *options):
    path = os.path.join(args.out, "raw", f"model-{tag}.json")
    command = programs.model_command(model, machine, placement["algorithm"], nodes, "--buckets",
                                     study_tools.bucket_rule(args.mechanisms), *placement_options(placement),
                                     *options, "--json", path)
    status, _, err = launcher.run(command)
    if status != 0:
        raise ValueError(f"gups-model refused {machine} at {nodes} nodes: {err.strip().splitlines()[-1]}")
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    row = document["results"][0]["rows"][0]
    # A machine whose file asks for the mode planner: its table at this size, each mode's best.
    modes = document.get("mapping_modes") or []
    row["mapping_modes"] = modes[0] if modes else None
    return row, launcher.quoted(command)


def placement_options(placement):
    """gups-model's and gups-sim's options for a placement: processes (groups) a node, the groups' role plan."""
    options = []
    if placement.get("processes_per_node"):
        options += ["--processes-per-node", str(placement["processes_per_node"])]
    if placement.get("role_plan"):
        options += ["--role-plan", placement["role_plan"]]
    return options


def chosen_row(args, model, machine, nodes, tag):
    """The planner's table at this size, then the model of the placement it chose, in the mode it chose where
    gups-sim runs that mode (or nothing is simulated), else in mode 1 (the same algorithm and processes, each its
    own table slice)."""
    planned, command = placement_row(args, model, machine, nodes, tag + "-planner", {"algorithm": "multicore"},
                                     "--mapping-mode", "best", "--samples", "0")
    table = planned["mapping_modes"]
    if not table:
        raise ValueError(f"gups-model gave no mode planner's table for {machine} at {nodes} nodes")
    chosen = table["modes"][table["chosen_index"]]
    mode = chosen["mode"] if args.model_only or chosen["mode"] in SIMULATED_MODES else 1
    placement = {"algorithm": chosen["algorithm"], "processes_per_node": chosen["processes_per_node"],
                 "role_plan": chosen.get("role_plan"), "mode": mode, "chosen_mode": chosen["mode"]}
    row, placed = placement_row(args, model, machine, nodes, tag, placement, "--mapping-mode", str(mode))
    row["mapping_modes"] = table
    row["placement"] = placement
    return row, command + "\n    " + placed


def sim_task(args, sim, machine, nodes, tag, inputs="file", placement=None):
    """One gups-sim run of a point (`inputs`: the machine file's values, or the model's low or high end;
    `placement`: the planner's chosen, with --algorithm chosen)."""
    tag += "" if inputs == "file" else f"-{inputs}"
    path = os.path.join(args.out, "raw", f"sim-{tag}.json")
    placement = placement or {"algorithm": args.algorithm}
    algorithm = placement["algorithm"]
    command = programs.sim_command(sim, machine, algorithm, nodes, "--verify", "checksum", "--network",
                                   args.network, "--json", path, *placement_options(placement),
                                   *(["--inputs", inputs] if inputs != "file" else []))
    if algorithm in ROUTING:  # the mechanisms, and which links bind beside which core, are these two's
        command += ["--mechanisms", args.mechanisms, "--link-load"]
    elif "mesh" in args.mechanisms.split(","):  # the file's wrap-around, which the mesh mechanism gives the others
        command += ["--wrap", "machine"]
    if args.updates_per_node:
        command += ["--updates-per-node", str(args.updates_per_node)]
    if args.converge:
        command += ["--converge"]
    if args.max_wall:
        command += ["--max-wall", str(args.max_wall)]
    return launcher.Task(f"sim-{tag}", f"sim {os.path.basename(machine)} {nodes} nodes", command, path, "study")


def ends_of(args):
    """The runs of each simulated point: the machine file's values, and with --ends the model's low and high ends."""
    return ("file", "low", "high") if getattr(args, "ends", False) else ("file",)


def whatif(args):
    args.nodes = study_tools.csv_list(args.nodes) if args.nodes else [1024]
    if not args.field:
        raise ValueError("whatif needs --field (a machine-file field such as torus.link_bandwidth_bytes_per_s, or "
                         "'machine') and --values")
    if not args.values:
        raise ValueError("--field needs --values (numbers, factors such as x2, or a range x0.25..x4)")
    if args.jobs < 1:
        raise ValueError("--jobs needs 1 or more")
    if args.converge and args.algorithm not in ROUTING:
        raise ValueError("--converge applies to routed and multicore (direct has no steady state to settle, and "
                         "the chosen placement may be direct)")
    start = time.monotonic()
    os.makedirs(os.path.join(args.out, "raw"), exist_ok=True)
    points = machine_documents(args, args.build)
    model = programs.binary(args.build, "gups-model")
    sim = None if args.model_only else \
        programs.binary(args.build, "gups-sim")
    rows, tasks, commands = [], [], []
    for values, machine in points:
        for nodes in args.nodes:
            tag = f"{study_tools.label(machine)}-{nodes}"
            predicted, command = model_row(args, model, machine, nodes, tag)
            commands.append(command)
            row = {"nodes": nodes, "machine": study_tools.label(machine),
                   "shape": predicted["shape"], "network": predicted["network"],
                   "model_gups": predicted["gups"], "cpu_gups": predicted["cpu_gups"],
                   "network_gups": predicted["network_gups"], "model_binds": predicted["binding_resource"],
                   **study_tools.interval_fields(predicted),
                   "placement": predicted.get("placement"),
                   "overlapped_network_gups": predicted.get("overlapped_network_gups"),
                   "role_plan": predicted.get("role_plan"), "bucket_size": predicted.get("bucket_size"),
                   "software_hops": predicted.get("software_hops"), "mapping_modes": predicted.get("mapping_modes"),
                   "physical_hops_per_software_hop": predicted.get("physical_hops_per_software_hop")}
            for i, value in enumerate(values):
                row["value" if i == 0 else "value2"] = value
                factor = factor_of(value, (getattr(args, "machine_values", None) or [None, None])[i])
                if factor is not None:
                    row["factor" if i == 0 else "factor2"] = factor
            rows.append(row)
            if sim:
                tasks += [sim_task(args, sim, machine, nodes, tag, inputs, row["placement"])
                          for inputs in ends_of(args)]
    if sim:
        commands += [launcher.quoted(task.command) for task in tasks]
        runner = slurm.from_args(args, args.out, args.jobs)
        done = study_tools.run_tasks(runner, tasks, launcher.Progress(len(tasks), "whatif"), args.resume)
        runs = len(ends_of(args))
        for index, row in enumerate(rows):
            (document, wall), *ends = done[runs * index:runs * (index + 1)]
            row.update(study_tools.sim_fields(document, wall))
            row["sim_over_model"] = study_tools.ratio(study_tools.simulated_gups(row), row["model_gups"])
            if ends:
                row.update(study_tools.end_fields(ends[0][0], ends[1][0]))
    wall = time.monotonic() - start
    text = markdown(args, rows, wall, commands)
    study_tools.write(args, "whatif", rows, text)
    png = whatif_plot.draw(args, rows, args.out)
    sys.stdout.write(text)
    print(f"study: whatif in {args.out}/whatif.md, .csv, .json and {os.path.basename(png)} ({wall:.0f} s)",
          file=sys.stderr)
    failed = sum(1 for r in rows if r.get("binds") == "failed")
    if failed:
        print(f"study: {failed} simulation(s) failed; their rows have no simulated figures", file=sys.stderr)
    return 1 if failed else 0


def changes(rows, key):
    """Where the binding resource changes along the first field, per size (and second value)."""
    found = []
    groups = {}
    for r in rows:
        groups.setdefault((r["nodes"], whatif_plot.label_of(r.get("value2", ""))), []).append(r)
    for (nodes, second), group in groups.items():
        for a, b in zip(group, group[1:]):
            if (a.get(key) or "").split(":")[0] != (b.get(key) or "").split(":")[0] or \
                    a.get(key, "").startswith("core") and a.get(key) != b.get(key):
                found.append(f"{nodes} nodes{', ' + second if second else ''}: {a[key]} at {whatif_plot.label_of(a['value'])}, "
                             f"{b[key]} at {whatif_plot.label_of(b['value'])}")
    return found


def listed(items):
    return [f"- {item}" for item in items] or ["- nowhere in this range"]


def factor_of(value, machine_value):
    """A number's factor of the machine's own value (so that x0.125 reads as typed), or None."""
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (value, machine_value))
    return value / machine_value if numbers and machine_value else None


def value_cell(row, key, factor_key):
    text = whatif_plot.label_of(row[key])
    return text + (f" (x{row[factor_key]:g})" if row.get(factor_key) is not None else "")


def above_lockstep_lines(rows):
    """Why a hypercube row's simulation may pass its model: the model takes the stages in lockstep, while pairs'
    stages overlap; what none can pass is the bound with every stage's traffic at once."""
    lines = [f"- {r['machine']}, {r['nodes']} nodes: simulated {study_tools.fmt(study_tools.simulated_gups(r))} "
             f"against the model's {study_tools.fmt(r['model_gups'])}, whose hypercube stages run in lockstep; "
             f"pairs' stages overlap, and none can pass {study_tools.fmt(r['overlapped_network_gups'])} GUPS "
             f"(every stage's traffic on the links at once)"
             for r in rows if r.get("overlapped_network_gups") and study_tools.simulated_gups(r)
             and study_tools.simulated_gups(r) > r["model_gups"]]
    return ["", "Above the model:", ""] + lines if lines else []


def placement_cell(row):
    """The chosen placement as the table shows it: mode, algorithm, processes or groups a node; a mode gups-sim does
    not run (a node's cores sharing its table) is said, with the mode the row runs instead."""
    placement = row.get("placement") or {}
    if not placement:
        return "-"
    groups = "groups" if placement["algorithm"] == "multicore" else "processes"
    text = f"mode {placement['mode']}, {placement['algorithm']}, {placement['processes_per_node']} {groups} a node"
    if placement["chosen_mode"] != placement["mode"]:
        text += f" (chosen in mode {placement['chosen_mode']}, which only real runs take)"
    return text


def mode_lines(rows, table_above):
    """The mode planner's table of each point whose machine asks for it (mapping_mode "best")."""
    lines = []
    for row in rows:
        table = row.get("mapping_modes")
        if not table:
            continue
        cells = []
        # The best placement of each (mode, algorithm); the chosen is the best of all.
        best = {}
        for index, mode in enumerate(table["modes"]):
            key = (mode["mode"], mode["algorithm"])
            if mode["fits"] and (key not in best or mode["gups"] > best[key][1]["gups"]):
                best[key] = (index, mode)
            best.setdefault(key, (index, mode))
        for index, mode in best.values():
            chosen = " (chosen)" if index == table["chosen_index"] else ""
            if not mode["fits"]:
                cells.append(f"mode {mode['mode']} {mode['algorithm']}: does not fit ({mode['why_not']})")
                continue
            cells.append(f"mode {mode['mode']}{chosen}: {mode['algorithm']}, {mode['placement']}, "
                         f"{study_tools.fmt(mode['gups'])} GUPS ({mode['binds']})")
        interval = table.get("chosen_interval") or {}
        if interval.get("low") and interval.get("high"):
            leading = ", ".join(f"{i['field']} {100 * i['share']:.0f}% ({i['kind']})"
                                for i in interval.get("inputs", [])[:3] if i["share"] >= 0.1)
            cells.append(f"the chosen's interval {study_tools.fmt(interval['low']['gups'])} .. "
                         f"{study_tools.fmt(interval['high']['gups'])} over the ranges"
                         + (f", leading inputs {leading}" if leading else ""))
        lines.append(f"- {row['machine']}, {row['nodes']} nodes: " + "; ".join(cells))
    if not lines:
        return []
    return ["", "Placements HPCC permits, the best of each mode and algorithm (gups-model's mode planner; the table "
            f"above is {table_above}):",
            ""] + lines


def markdown(args, rows, wall, commands):
    fields = args.field + (f" and {args.field2}" if args.field2 else "")
    columns = [(args.field, False, lambda r: value_cell(r, "value", "factor"))]
    if args.field2:
        columns.append((args.field2, False, lambda r: value_cell(r, "value2", "factor2")))
    columns += [
        ("nodes", True, lambda r: r["nodes"]), ("shape", False, lambda r: r["shape"]),
        ("network", False, lambda r: r["network"]),
    ]
    if args.algorithm == CHOSEN:  # what the planner chose at each point, which the row models and simulates
        columns += [("placement (mode planner's)", False, placement_cell)]
    if any(r.get("role_plan") for r in rows):  # multicore: which plan the cores follow, and its buckets
        columns += [("role plan", False, lambda r: r.get("role_plan") or "-"),
                    ("bucket", True, lambda r: r.get("bucket_size") or "-")]
    columns += [
        ("model GUPS", True, lambda r: study_tools.fmt(r["model_gups"])),
        ("CPU bound", True, lambda r: study_tools.fmt(r["cpu_gups"])),
        ("network bound", True, lambda r: study_tools.fmt(r["network_gups"])),
        ("model: binds", False, lambda r: r["model_binds"]),
    ]
    if args.model_only:
        columns += study_tools.MODEL_INTERVAL_COLUMNS
    else:
        columns += [
            ("level", False, lambda r: r.get("network_level") or "-"),
            ("simulated steady", True, lambda r: study_tools.steady_cell(r)),
            ("sim/model", True, lambda r: study_tools.fmt(r.get("sim_over_model"), ".3f")),
        ] + study_tools.INTERVAL_COLUMNS + [
            ("simulation: binds", False, lambda r: r.get("binds") or "-"),
            ("wall s", True, lambda r: study_tools.fmt(r.get("wall_seconds"), ".0f")),
        ]
    extra = ["", "Where the binding resource changes (model):", ""] + listed(changes(rows, "model_binds"))
    extra += mode_lines(rows, "the chosen placement's" if args.algorithm == CHOSEN else f"{args.algorithm}'s")
    if not args.model_only:
        extra += ["", "Where it changes (simulation):", ""] + listed(changes(rows, "binds"))
        extra += above_lockstep_lines(rows)
    machine = "" if args.field == MACHINE_FIELD else f" of {args.machine}"
    what = "the mode planner's chosen placement at each point" if args.algorithm == CHOSEN else args.algorithm
    return study_tools.markdown(f"What if: {fields}", f"{what} with {fields}{machine} varied; gups-model and "
                          f"{'' if args.model_only else 'gups-sim, '}{wall:.0f} s of wall time on this machine; "
                          f"bucket sizes: {study_tools.bucket_rule(args.mechanisms)} on both sides"
                          f"{'' if args.model_only else f' (simulation mechanisms: {args.mechanisms})'}.",
                          columns, rows, commands, extra, "Modelled" if args.model_only else "Simulated and modelled")
