"""What the studies share (the paper's tables, the what-ifs, explain): how long a simulation of a size runs, the
mechanisms of a machine as it was, running simulations and reading their fields, and writing a study's tables
(Markdown for a person, CSV and JSON for a script)."""
import csv
import functools
import json
import os

from . import results
from .report import stats
from .run import programs, slurm


@functools.lru_cache(maxsize=None)
def run_length(build, machine, algorithm, nodes):
    """Updates per node a simulation of this many nodes runs by default: the plan's (gups-topology), the one rule
    gups-sim and every study share (sim/plan/run_plan.hpp)."""
    return programs.plan(build, machine, nodes, algorithm)["table"]["updates_per_node"]


# Mechanisms of the machine as it was, by what a variant does (gups-topology --variants): every variant that
# routes over the torus takes them; the paper's bucket sizes are those of the algorithm with specialised cores
# (Table 4's BktSize), so only such a variant takes them.
MECHANISMS = "wire,receive-batches,dma,mesh"
SPECIALISED_MECHANISMS = "paper-buckets"


def csv_list(text, kind=int):
    try:
        return [kind(x) for x in text.split(",") if x.strip()]
    except ValueError as error:
        raise ValueError(f"not a comma list: {text!r}") from error


def run_tasks(runner, tasks, progress, resume):
    """Simulations run here or as Slurm tasks (sized first); (document or None, wall seconds) of each, in order."""
    if runner.name == "slurm":
        for task in tasks:
            slurm.size_simulation(task)
    return runner.run(tasks, progress, resume)


def label(machine):
    """A machine's name, or its file's name without .json."""
    return os.path.splitext(os.path.basename(machine))[0]


def mechanisms_for(variant, nodes, machine_file):
    """The mechanisms a simulation of the machine as it was takes: `variant` is the algorithm's row of
    gups-topology --variants (programs.variant); ValueError for one that does not route over the torus."""
    if not variant.get("routes_over_torus"):
        raise ValueError(f"the machine's mechanisms apply to the variants that route over the torus, not "
                         f"'{variant.get('name')}'")
    chosen = MECHANISMS.split(",")
    if variant.get("specialised_cores") and str(nodes) in machine_file.get("reference_bucket_sizes", {}):
        chosen += SPECIALISED_MECHANISMS.split(",")
    return ",".join(chosen)


def design_choice(why):
    """A machine file's sources entry for a value a study sets: its own choice, so no range of its own, and the
    model's interval is the other inputs'."""
    return {"kind": "assumed", "source": f"{why}, a design choice, so no range", "range": ["x1", "x1"]}


def interval_fields(model_row):
    """The model's interval over the machine file's input ranges (gups-model's row), for beside the simulation;
    where the file leaves the wrap-around unknown at this size, the model's figure for each side of it."""
    interval = model_row.get("interval") or {}
    return {"model_low": interval.get("low", {}).get("gups"), "model_high": interval.get("high", {}).get("gups"),
            "model_inputs": stats.leading_inputs(interval.get("inputs"), 3),
            **wrap_fields(model_row.get("nodes"), interval)}


def wrap_fields(nodes, interval):
    """torus.mesh_below_nodes with both values at this size: partitions of `nodes` wrap at its low value (nodes at
    or above it) and do not at its high one, so gups-model's GUPS at each are the torus's and the mesh's."""
    unknown = next((e for e in interval.get("inputs", []) if e["field"] == "torus.mesh_below_nodes"
                    and "values" in e and nodes is not None and e["low"] <= nodes < e["high"]), None)
    if unknown is None:
        return {}
    return {"wrap_unknown": True, "model_torus_gups": unknown["gups_at_low"], "model_mesh_gups": unknown["gups_at_high"]}


def against_interval(value, row):
    """Where a simulated figure lies against the model's interval: inside it (the model's ranges explain it), or
    outside, which the simulation adds (pipelines, buffers, the network) and the table marks."""
    low, high = row.get("model_low"), row.get("model_high")
    if value is None or low is None or high is None:
        return "-"
    beyond = stats.beyond_interval(value, low, high, slack=1e-3)
    if beyond == 0:
        return "inside"
    return f"**outside: {'above' if beyond > 0 else 'below'} by {abs(beyond):.1%}**"


def bucket_rule(mechanisms):
    """gups-model's --buckets for a simulation with these gups-sim mechanisms: one baseline on both sides."""
    chosen = mechanisms.split(",")
    return "reference" if "paper-buckets" in chosen or "all" in chosen else "sizing"


def measured_share(share):
    """A core's share rounded, or None where the run kept no clock for it (never a 0 that was not measured)."""
    return None if share is None else round(share, 3)


def sim_fields(document, wall):
    if document is None:
        return {"sim_gups": None, "sim_steady_gups": None, "steady_spread": None, "binds": "failed", "busy_shares": None,
                "stalled_shares": None, "sim_bucket": None, "network_level": None, "wall_seconds": round(wall, 1),
                "peak_mib": None, "sim_updates_per_node": None}
    cores = document.get("cores", [])
    binds = document.get("binds", {})
    verdict = document.get("steady_verdict") or {}
    return {"sim_gups": document.get("gups"), "sim_steady_gups": document.get("steady_gups"),
            "steady_spread": document.get("steady_spread"), "steady_settled": verdict.get("settled"),
            "binds": binds.get("resource", ""), "sim_bucket": document.get("bucket_capacity"),
            "busy_shares": [measured_share(c.get("busy_share")) for c in cores],
            "stalled_shares": [measured_share(c.get("stalled_share")) for c in cores],
            "network_level": document.get("simulation", {}).get("network_level"),
            "wall_seconds": round(document.get("simulation", {}).get("wall_seconds", wall), 1),
            "peak_mib": round(document.get("simulation", {}).get("peak_memory_bytes", 0) / 2**20),
            # What the run simulated: a converged one stops once settled, past its default length.
            "sim_updates_per_node": simulated_per_node(document)}


def simulated_per_node(document):
    generated, nodes = document.get("counters", {}).get("generated"), document.get("nodes")
    return round(generated / nodes) if generated and nodes else None


def ratio(a, b):
    return a / b if a and b else None


# A steady state whose run did not settle (gups-sim's verdict) is marked wherever a table shows it.
UNSETTLED_MARK = " (not settled)"
WHOLE_RUN_MARK = " (whole run)"


def steady_cell(row, text=None):
    """A simulated steady state as a table shows it (text: how a figure is written): marked when its run's verdict
    was NOT settled."""
    value = row.get("sim_steady_gups")
    if value is None and row.get("sim_gups") is not None:  # an algorithm with no steady state (direct, hypercube)
        return (text or fmt)(row["sim_gups"]) + WHOLE_RUN_MARK
    return (text or fmt)(value) + (UNSETTLED_MARK if value is not None and row.get("steady_settled") is False else "")


def simulated_gups(row):
    """The simulated figure set against a model: the steady state, or the whole run's where the algorithm has none."""
    return row.get("sim_steady_gups") if row.get("sim_steady_gups") is not None else row.get("sim_gups")


def fmt(value, spec=".3g"):
    return "-" if value is None else format(value, spec)


def table_lines(columns, rows):
    """A Markdown table; columns: (heading, right-aligned, cell of a row)."""
    return ["| " + " | ".join(c[0] for c in columns) + " |",
            "| " + " | ".join("---:" if c[1] else "---" for c in columns) + " |"] + \
        ["| " + " | ".join(str(c[2](r)) for c in columns) + " |" for r in rows]


def markdown(title, intro, columns, rows, commands, extra=(), done="Simulated and modelled"):
    lines = [f"# {title}", "", results.provenance(done=done), "", intro, ""] + table_lines(columns, rows)
    return "\n".join(lines + list(extra) + ["", "Commands:", ""] + [f"    {c}" for c in commands]) + "\n"


def write(args, name, rows, text):
    with open(os.path.join(args.out, f"{name}.json"), "w", encoding="utf-8") as f:
        json.dump({"study": name, "rows": rows}, f, indent=1)
    fields = list(dict.fromkeys(k for r in rows for k in r))
    with open(os.path.join(args.out, f"{name}.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    with open(os.path.join(args.out, f"{name}.md"), "w", encoding="utf-8") as f:
        f.write(text)


def end_fields(low_document, high_document):
    """A row's simulated ends (--ends): each end's steady state and whether its run settled."""
    low, high = sim_fields(low_document, 0), sim_fields(high_document, 0)
    return {"sim_low_gups": low["sim_steady_gups"], "sim_low_settled": low.get("steady_settled"),
            "sim_high_gups": high["sim_steady_gups"], "sim_high_settled": high.get("steady_settled")}


def ends_cell(row):
    """The simulated ends as a table shows them, an end whose run did not settle marked."""
    mark = lambda end: UNSETTLED_MARK if row.get(f"sim_{end}_settled") is False else ""
    return f"{fmt(row.get('sim_low_gups'))}{mark('low')} .. {fmt(row.get('sim_high_gups'))}{mark('high')}"


# The model's interval and the inputs that lead it, for a row with no simulation.
MODEL_INTERVAL_COLUMNS = [
    ("model's interval", True, lambda r: f"{fmt(r.get('model_low'))} .. {fmt(r.get('model_high'))}"
     if r.get("model_low") is not None else "-"),
    ("inputs by share", False, lambda r: r.get("model_inputs") or "-"),
]
# Beside a simulated figure, and the simulated ends where a study ran them (--ends).
INTERVAL_COLUMNS = MODEL_INTERVAL_COLUMNS[:1] + [
    ("steady vs interval", False, lambda r: against_interval(simulated_gups(r), r)),
    ("simulated ends", True, lambda r: ends_cell(r) if "sim_low_gups" in r else "-"),
    ("ends vs interval", False, lambda r: "; ".join(filter(None, (
        f"low {against_interval(r.get('sim_low_gups'), r)}", f"high {against_interval(r.get('sim_high_gups'), r)}")))
     if "sim_low_gups" in r else "-"),
] + MODEL_INTERVAL_COLUMNS[1:]
