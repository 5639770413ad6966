"""The global-exchange probes as a study: the bisection, the exchange and the all-to-all (gups --algo bisection |
exchange | all-to-all) measured on this host's cores and simulated on a machine (gups-sim, sizes, shapes and network
levels), in the style of the Cray X1 evaluation's pages: bandwidth against message size, aggregate and per pair, and
the all-to-all's share of its peak by shape. Each simulated bisection is read against the model's B and put into the
model's network bound (gups-model --bisection), beside the bound from the links."""
import csv
import json
import os
import subprocess
import sys
import time

from .. import results
from ..run import launcher, programs

SOURCES = ["measured", "sim"]
# A simulated bisection sends 8 messages of 64 KiB a sender: the exchange's sweep is within a few percent of its
# largest from 32 KiB on, and the packet level's time grows faster than the bytes where every packet crosses one
# cut: larger messages would take the study's budget at a few thousand nodes.
SIM_BISECTION_SIZES = "64K"
SIM_BISECTION_REPEATS = 8
# A simulated exchange sweeps 8 B to 256 KiB, 4 repetitions each, for the same reason: every pair crosses the
# cut.
SIM_EXCHANGE_SIZES = "8,64,512,4K,32K,256K"
SIM_EXCHANGE_REPEATS = 4
# The exchange's sweep and the all-to-all (n - 1 messages a process a size) are simulated up to this many nodes:
# at the packet level 512 nodes take minutes.
SWEEP_MAX_NODES = 1024


def comma_list(text, what, known=None):
    values = [v.strip() for v in text.split(",") if v.strip()]
    if not values:
        raise ValueError(f"{what}: empty")
    if known is not None and (unknown := [v for v in values if v not in known]):
        raise ValueError(f"{what}: {', '.join(unknown)}; known: {', '.join(known)}")
    return values


def sizes_of(args):
    """The simulated machine's sizes: shapes (--shapes) or node counts (--nodes), as gups-sim options and labels."""
    if args.shapes:
        return [(["--shape", shape], shape) for shape in comma_list(args.shapes, "--shapes")]
    nodes = [int(n) for n in comma_list(args.nodes, "--nodes")]
    if any(n < 2 for n in nodes):
        raise ValueError("--nodes: each must be 2 or more")
    return [(["--nodes", str(n), "--shape-rule", args.shape_rule], str(n)) for n in nodes]


def measured_task(args, gups, probe):
    path = results.raw_path(args.out, f"measured-{probe}")
    command = [gups, "--algo", probe, "--json", path]
    return launcher.Task(f"measured-{probe}", f"{probe} on {args.ranks} ranks", command, path, "probes",
                         {"source": "measured", "probe": probe}, ranks=args.ranks, env=launcher.MPI_ENV)


def sim_task(args, sim, probe, size_options, label, level):
    name = f"sim-{probe}-{label}-{level}"
    path = results.raw_path(args.out, name)
    command = [sim, "--quiet", "--machine", args.machine, "--algo", probe, *size_options, "--network", level,
               "--json", path]
    if probe == "bisection":
        command += ["--sizes", args.sim_bisection_sizes, "--repeats", str(SIM_BISECTION_REPEATS)]
    if probe == "exchange":
        command += ["--sizes", args.sim_exchange_sizes, "--repeats", str(SIM_EXCHANGE_REPEATS)]
    return launcher.Task(name, f"sim {probe} {label} {level}", command, path, "probes",
                         {"source": "sim", "probe": probe, "size": label, "level": level})


def plan_nodes(args, size_options):
    """The node count gups-topology maps a size to (so that the sweeps' limit applies before anything runs)."""
    done = subprocess.run(programs.topology_command(args.build, "--machine", args.machine, "--algo", "exchange",
                                                    *size_options), capture_output=True, text=True)
    if done.returncode != 0:
        raise ValueError(done.stderr.strip().replace("gups-topology: error: ", "gups-topology: "))
    return json.loads(done.stdout)["nodes"]


def rows_of(task, document):
    """One row per message size of a probe's result (or one failed row)."""
    meta = task.meta
    base = {"source": meta["source"], "probe": meta["probe"], "level": meta.get("level", "")}
    if document is None or document.get("partial") or "sizes" not in document:
        return [{**base, "failed": True}]
    simulation = document.get("simulation", {})
    base.update({"failed": not document.get("passed", False), "processes": document["processes"],
                 "machine": simulation.get("machine", "this host"), "shape": simulation.get("shape", ""),
                 "nodes": simulation.get("nodes", document["processes"]),
                 "wall_seconds": document.get("probes", {}).get("wall_seconds")})
    links = document.get("links", {})
    rows = []
    for size in document["sizes"]:
        row = {**base, "bytes": size["bytes"], "repeats": size["repeats"], "seconds": size["seconds"],
               "aggregate_mb_per_s": size["aggregate_bytes_per_s"] / 1e6,
               "per_pair_mb_per_s": size["per_pair_bytes_per_s"] / 1e6, "us_per_message": size["us_per_message"]}
        if links:
            per_node = size["per_pair_bytes_per_s"] * simulation.get("ranks_per_node", 1)
            one_way = size["aggregate_bytes_per_s"] / (2 if meta["probe"] == "exchange" else 1)
            row.update({"model_bisection_mb_per_s": links["model_bisection_bytes_per_s"] / 1e6,
                        "probe_cut_mb_per_s": links["probe_cut_bytes_per_s"] / 1e6,
                        "of_model_bisection": one_way / links["model_bisection_bytes_per_s"],
                        "of_probe_cut": one_way / links["probe_cut_bytes_per_s"],
                        "all_to_all_efficiency": per_node / links["all_to_all_peak_bytes_per_s_per_node"]})
        rows.append(row)
    return rows


def model_bounds(args, task, machine):
    """gups-model's network bound 4B/b at a bisection's size on `machine`, from the measured B and from the
    links'."""
    path = results.raw_path(args.out, f"model-{task.name}")
    command = [programs.binary(args.build, "gups-model"), "--machine", machine, "--algorithm", args.algorithm,
               "--bisection", task.path, "--json", path]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise ValueError(done.stderr.strip())
    with open(path, encoding="utf-8") as f:
        row = json.load(f)["results"][0]["rows"][0]
    measured_b, model_b = row["bisection_bytes_per_s"], row["model_bisection_bytes_per_s"]
    return {"size": task.meta.get("size", "this host"), "level": task.meta.get("level") or "this host",
            "nodes": row["nodes"], "shape": row["shape"],
            "algorithm": args.algorithm, "model_network": row["network"], "cpu_gups": row["cpu_gups"], "bytes_per_update": row["bytes_per_update"],
            "measured_bisection_gb_per_s": measured_b / 1e9, "model_bisection_gb_per_s": model_b / 1e9,
            "network_gups_measured_b": row.get("bisection_network_gups") or row["network_gups"],
            "network_gups_model_b": row["links_network_gups"],
            "command": launcher.quoted(command)}


def probes(args):
    args.sources = comma_list(args.sources, "--sources", SOURCES)
    args.levels = comma_list(args.levels, "--levels")
    for level in args.levels:
        try:
            programs.check_network_level(args.build, level)
        except ValueError as error:
            raise ValueError(str(error).replace("--network", "--levels").replace(" or auto", "")) from error
    sizes = sizes_of(args)
    known = programs.variant_names(args.build, "global-exchange probe")
    args.probes = comma_list(args.probes or ",".join(known), "--probes", known)
    args.ranks = args.ranks or launcher.host_cores()
    if args.ranks > launcher.host_cores():
        raise ValueError(f"--ranks {args.ranks}: this host gives {launcher.host_cores()} cores (measured runs never "
                         "oversubscribe)")
    if args.ranks % 2 and any(p != "all-to-all" for p in args.probes) and "measured" in args.sources:
        raise ValueError(f"--ranks {args.ranks}: the bisection and the exchange pair rank i with i + n/2: give an "
                         "even number")
    os.makedirs(results.raw_folder(args.out), exist_ok=True)
    start = time.monotonic()
    rows, bounds = [], []
    if "measured" in args.sources:
        gups = programs.binary(args.build, "gups")
        tasks = [measured_task(args, gups, probe) for probe in args.probes]
        done = launcher.Local().run(tasks, launcher.Progress(len(tasks), "probes"), args.resume)
        rows += [row for task, (document, _) in zip(tasks, done) for row in rows_of(task, document)]
        for task, (document, _) in zip(tasks, done):
            if args.host_machine and task.meta["probe"] == "bisection" and document and document.get("passed"):
                bounds.append(model_bounds(args, task, args.host_machine))
    if "sim" in args.sources:
        sim = programs.binary(args.build, "gups-sim")
        tasks = []
        for size_options, label in sizes:
            nodes = plan_nodes(args, size_options)
            for probe in args.probes:
                if probe != "bisection" and nodes > args.sweep_max_nodes:
                    print(f"probes: {probe} is not simulated at {label} ({nodes} nodes, above --sweep-max-nodes "
                          f"{args.sweep_max_nodes})", file=sys.stderr)
                    continue
                tasks += [sim_task(args, sim, probe, size_options, label, level) for level in args.levels]
        done = launcher.Local().run(tasks, launcher.Progress(len(tasks), "probes sim"), args.resume)
        for task, (document, _) in zip(tasks, done):
            rows += rows_of(task, document)
            if task.meta["probe"] == "bisection" and document is not None and document.get("passed"):
                bounds.append(model_bounds(args, task, args.machine))
    wall = time.monotonic() - start
    write(args, rows, bounds, wall)
    failed = sum(1 for r in rows if r["failed"])
    if failed:
        print(f"probes: {failed} result(s) failed; their rows say so", file=sys.stderr)
    return 1 if failed else 0


def size_text(size):
    if size % (1 << 20) == 0:
        return f"{size >> 20} MiB"
    return f"{size >> 10} KiB" if size % 1024 == 0 else f"{size} B"


def where(row):
    return "this host" if row["source"] == "measured" else f"{row['machine']} {row['shape']} {row['level']}"


def largest_rows(rows, probe):
    """Each result's largest size."""
    best = {}
    for row in rows:
        if row["probe"] != probe or row["failed"]:
            continue
        key = (row["source"], row.get("shape"), row["level"])
        if key not in best or row["bytes"] > best[key]["bytes"]:
            best[key] = row
    return list(best.values())


def markdown(args, rows, bounds, wall):
    command = f"python3 -m analysis {' '.join(args.argv)}"
    lines = [f"# Global-exchange probes: this host ({args.ranks} ranks) and {args.machine} simulated", "",
             results.provenance(command), ""]
    bisection = largest_rows(rows, "bisection")
    if bisection:
        lines += ["### Bisection: the lower half sends to the upper half", "",
                  "One way across the halves at the largest size, against the links across the cut the pairs "
                  "cross (the last dimension's) and the model's B (the longest side's).", "",
                  "| where | nodes | size | one way MB/s | per pair MB/s | of the pairs' cut | of the model's B |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for r in bisection:
            cut = f"{100 * r['of_probe_cut']:.1f}%" if "of_probe_cut" in r else "-"
            model = f"{100 * r['of_model_bisection']:.1f}%" if "of_model_bisection" in r else "-"
            lines.append(f"| {where(r)} | {r['nodes']} | {size_text(r['bytes'])} | {r['aggregate_mb_per_s']:.6g} | "
                         f"{r['per_pair_mb_per_s']:.6g} | {cut} | {model} |")
        lines.append("")
    if bounds:
        lines += [f"### The network bound 4B/b from the measured B ({args.algorithm})", "",
                  "B links: the model's, on the machine file's network of that size (a mesh below its "
                  "torus.mesh_below_nodes, where the simulated probe still ran a torus).", "",
                  "| shape | where | B measured GB/s | B links GB/s | model's network | 4B/b measured | 4B/b links | "
                  "CPU bound |",
                  "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: |"]
        for b in bounds:
            lines.append(f"| {b['shape']} | {b['level']} | {b['measured_bisection_gb_per_s']:.4g} | "
                         f"{b['model_bisection_gb_per_s']:.4g} | {b['model_network']} | "
                         f"{b['network_gups_measured_b']:.4g} | "
                         f"{b['network_gups_model_b']:.4g} | {b['cpu_gups']:.4g} |")
        lines.append("")
    for probe, pair_word in (("exchange", "per pair"), ("all-to-all", "per process")):
        series = {}
        for r in rows:
            if r["probe"] == probe and not r["failed"]:
                series.setdefault(where(r), {})[r["bytes"]] = r
        if not series:
            continue
        sizes = sorted({b for s in series.values() for b in s})
        title = ("Exchange: i with i + n/2, both ways" if probe == "exchange"
                 else "All-to-all: n - 1 pairwise steps")
        lines += [f"### {title}", "", f"Aggregate MB/s ({pair_word} MB/s) by message size.", "",
                  "| where | " + " | ".join(size_text(s) for s in sizes) + " |",
                  "| --- | " + " | ".join("---:" for _ in sizes) + " |"]
        for name, by_size in series.items():
            cells = [f"{by_size[s]['aggregate_mb_per_s']:.4g} ({by_size[s]['per_pair_mb_per_s']:.4g})"
                     if s in by_size else "-" for s in sizes]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        lines.append("")
    all_to_all = [r for r in largest_rows(rows, "all-to-all") if "all_to_all_efficiency" in r]
    if all_to_all:
        lines += ["### All-to-all efficiency by shape", "",
                  "Per node at the largest size, against the peak the busiest line's links allow (8b/k on a ring "
                  "of k nodes).", "",
                  "| shape | level | size | MB/s per node | of the peak |", "| --- | --- | ---: | ---: | ---: |"]
        for r in all_to_all:
            lines.append(f"| {r['shape']} | {r['level']} | {size_text(r['bytes'])} | {r['per_pair_mb_per_s']:.4g} | "
                         f"{100 * r['all_to_all_efficiency']:.1f}% |")
        lines.append("")
    lines += ["### Command", "", f"    {command}", "",
              f"Wall time {wall:.0f} s; raw results in {os.path.join(args.out, 'raw')}.", ""]
    return "\n".join(lines)


def write(args, rows, bounds, wall):
    with open(os.path.join(args.out, "probes.json"), "w", encoding="utf-8") as f:
        json.dump({"ranks": args.ranks, "machine": args.machine, "levels": args.levels, "probes": args.probes,
                   "sources": args.sources, "rows": rows, "model_bounds": bounds, "wall_seconds": wall}, f, indent=1)
    fields = list(dict.fromkeys(k for r in rows for k in r))
    with open(os.path.join(args.out, "probes.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    text = markdown(args, rows, bounds, wall)
    with open(os.path.join(args.out, "probes.md"), "w", encoding="utf-8") as f:
        f.write(text)
    from . import plot as probes_plot  # matplotlib only when writing
    paths = probes_plot.all_plots(rows, args.out)
    sys.stdout.write(text)
    print(f"probes: {os.path.join(args.out, 'probes.md')}, .csv, .json, "
          + ", ".join(os.path.basename(p) for p in paths) + f" ({wall:.0f} s)", file=sys.stderr)
