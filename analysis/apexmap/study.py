"""Apex-Map surfaces: the probe (gups --algo apex-map-mpi|apex-map-rma) over the (alpha, L) plane, measured on this
host's cores (one mpirun a point), simulated on a machine (one gups-sim a point) and modelled (apex-map-model), drawn
as its authors draw them: bandwidth per process on log scales over alpha and L, and the ratio of two surfaces (one
implementation against the other, the model against the simulation, the simulated machine against this host). The
(alpha = 1, L = 1) corner, uniform random single words, is set beside RandomAccess (gups --algo direct) on the same
host and ranks."""
import csv
import json
import os
import subprocess
import sys
import time

from .. import results
from ..run import launcher, programs

ALPHAS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0]
BLOCKS = [1, 4, 16, 64, 256, 1024, 4096, 16384]
# Words each process reads per repetition: enough for tens of milliseconds at every L, so that mpirun's start
# is not what is measured; I = this / L, within INDEX_RANGE.
WORDS_PER_REPETITION = 1 << 22
INDEX_RANGE = (64, 65536)
DEFAULT_SHARE_WORDS = 1 << 20  # gups's own when --memory-words is not given (apex_map::kDefaultShareWords)
SOURCES = ["measured", "sim", "model"]
# Simulated points: I = this / L within SIM_INDEX_RANGE. A simulated remote access costs SMPI two messages of wall
# time, so the accesses per process are kept to about a thousand, and longer blocks cost more.
SIM_WORDS_PER_REPETITION = 1 << 16
SIM_INDEX_RANGE = (64, 1024)
# Where L starts to matter: the smallest L whose time per access is this many times the time at L = 1.
L_MATTERS_FACTOR = 2.0


def csv_floats(text, what):
    try:
        values = [float(x) for x in text.split(",") if x.strip()]
    except ValueError as error:
        raise ValueError(f"{what}: not a comma list of numbers: {text!r}") from error
    if not values:
        raise ValueError(f"{what}: empty")
    return values


def indices_for(block_words, asked, words=WORDS_PER_REPETITION, bounds=INDEX_RANGE):
    if asked:
        return asked
    low, high = bounds
    return max(low, min(high, words // block_words))


def sim_indices(block_words, args):
    """I of a simulated point (and of the model beside it)."""
    return indices_for(block_words, args.indices, SIM_WORDS_PER_REPETITION, SIM_INDEX_RANGE)


def sim_task(args, sim, algorithm, alpha, block_words):
    name = f"sim-{algorithm}-a{alpha:g}-L{block_words}"
    path = results.raw_path(args.out, name)
    command = programs.sim_command(sim, args.machine, algorithm, args.nodes, "--network", args.network, "--alpha",
                                   f"{alpha:g}", "--block-words", str(block_words), "--indices",
                                   str(sim_indices(block_words, args)), "--json", path)
    return launcher.Task(name, f"sim {algorithm} alpha {alpha:g} L {block_words}", command, path, "apexmap",
                         {"source": "sim", "algorithm": algorithm, "alpha": alpha, "block_words": block_words})


def model_rows(args, algorithm):
    """apex-map-model's points for one implementation, on the simulated machine and size, each for the I its
    simulated point runs (the process with the most remote accesses sets the probe's time)."""
    rows = []
    for block in args.blocks:
        path = os.path.join(args.out, "raw", f"model-{algorithm}-L{block}.json")
        command = [programs.binary(args.build, "apex-map-model"), "--machine", args.machine, "--algo", algorithm,
                   "--nodes", str(args.nodes), "--alphas", ",".join(f"{a:g}" for a in args.alphas),
                   "--blocks", str(block), "--json", path,
                   "--indices", str(sim_indices(block, args))]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise ValueError(done.stderr.strip().replace("apex-map-model: error: ", "apex-map-model: "))
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        rows += [{"source": "model", "algorithm": algorithm, "alpha": p["alpha"], "block_words": p["block_words"],
                  "failed": False, "processes": document["processes"], "remote_fraction": p["remote_fraction"],
                  "expected_remote_fraction": p["remote_fraction"],
                  "slowest_remote_fraction": p["slowest_remote_fraction"], "ns_per_access": p["ns_per_access"],
                  "mb_per_second_per_process": p["mb_per_second_per_process"], "binds": p["binds"],
                  "core_ns": p["core_ns"], "latency_ns": p["latency_ns"], "link_ns": p["link_ns"]}
                 for p in document["points"]]
    return rows


def point_task(args, gups, algorithm, alpha, block_words):
    name = f"{algorithm}-a{alpha:g}-L{block_words}"
    path = results.raw_path(args.out, name)
    command = [gups, "--algo", algorithm, "--alpha", f"{alpha:g}", "--block-words", str(block_words),
               "--indices", str(indices_for(block_words, args.indices)), "--repeats", str(args.repeats),
               "--json", path]
    if args.memory_words:
        command += ["--memory-words", str(args.memory_words)]
    return launcher.Task(name, f"{algorithm} alpha {alpha:g} L {block_words}", command, path, "apexmap",
                         {"source": "measured", "algorithm": algorithm, "alpha": alpha, "block_words": block_words},
                         ranks=args.ranks, env=launcher.MPI_ENV)


def corner_task(args, gups):
    """RandomAccess on the same ranks: HPCC's direct algorithm, a table as large as the probe's array."""
    path = results.raw_path(args.out, "randomaccess-direct")
    words = args.memory_words or DEFAULT_SHARE_WORDS * args.ranks
    log2_table = max(1, words.bit_length() - 1)
    command = [gups, "--algo", "direct", "--log2-table", str(log2_table), "--json", path]
    return launcher.Task("randomaccess-direct", "RandomAccess direct", command, path, "apexmap",
                         {"source": "measured", "algorithm": "direct"}, ranks=args.ranks, env=launcher.MPI_ENV)


def row_of(task, document):
    meta = task.meta
    row = {"source": meta["source"], "algorithm": meta["algorithm"], "alpha": meta["alpha"],
           "block_words": meta["block_words"]}
    if document is None or document.get("partial"):
        return {**row, "failed": True}
    # The point's own wall time, as the launcher stamped it (kept across --resume).
    row["wall_seconds"] = document.get(task.section, {}).get("wall_seconds")
    if "simulation" in document:
        row["network_level"] = document["simulation"]["network_level"]
    return {**row, "failed": not document.get("passed", False), "processes": document["processes"],
            "indices": document["indices"], "repeats": document["repeats"],
            "remote_fraction": document["remote_fraction"],
            "expected_remote_fraction": document["expected_remote_fraction"],
            "ns_per_access": document["ns_per_access"], "seconds": document["seconds"],
            "mb_per_second_per_process": document["mb_per_second_per_process"],
            "aggregate_mb_per_second": document["aggregate_mb_per_second"]}


def corner_comparison(rows, direct, ranks):
    """The probe's uniform single-word corner beside RandomAccess: accesses (or updates) per second, all ranks."""
    if direct is None:
        return None
    comparison = {"randomaccess_gups": direct.get("gups"), "ranks": ranks}
    for row in rows:
        if row["source"] == "measured" and row["alpha"] == 1.0 and row["block_words"] == 1 and not row["failed"]:
            comparison[f"{row['algorithm']}_giga_accesses_per_second"] = ranks / row["ns_per_access"]
    return comparison


def find(rows, source, algorithm, alpha, block):
    return next((r for r in rows if (r["source"], r["algorithm"], r["alpha"], r["block_words"]) ==
                 (source, algorithm, alpha, block) and not r["failed"]), None)


def key_figures(rows, source, algorithm, alphas, blocks):
    """Worst and best corner (MB/s per process) and, per alpha, the smallest L whose time per access is
    L_MATTERS_FACTOR times the time at the smallest L (None: not within the blocks swept)."""
    points = [r for r in rows if r["source"] == source and r["algorithm"] == algorithm and not r["failed"]]
    if not points:
        return None
    worst = min(points, key=lambda r: r["mb_per_second_per_process"])
    best = max(points, key=lambda r: r["mb_per_second_per_process"])
    matters = {}
    for alpha in alphas:
        first = find(rows, source, algorithm, alpha, blocks[0])
        later = [find(rows, source, algorithm, alpha, b) for b in blocks[1:]]
        matters[alpha] = next((r["block_words"] for r in later if first and r and
                               r["ns_per_access"] >= L_MATTERS_FACTOR * first["ns_per_access"]), None)
    corner = lambda r: {"alpha": r["alpha"], "block_words": r["block_words"],  # noqa: E731
                        "mb_per_second_per_process": r["mb_per_second_per_process"],
                        "ns_per_access": r["ns_per_access"]}
    return {"worst": corner(worst), "best": corner(best), "l_matters": matters}


def l_matters_text(l_matters, largest):
    """'L 64 (alpha 0.001 to 0.1), L 256 (alpha 0.5, 1)': the alphas that share an L, together."""
    groups = {}
    for alpha, block in l_matters.items():
        groups.setdefault(block, []).append(alpha)
    parts = []
    for block, alphas in groups.items():
        which = (", ".join(f"{a:g}" for a in alphas) if len(alphas) <= 2 else f"{alphas[0]:g} to {alphas[-1]:g}")
        parts.append(f"L {block if block else '> ' + str(largest)} (alpha {which})")
    return ", ".join(parts)


def model_errors(rows, algorithms):
    """Per point where both exist: the model's time per access over the simulation's, less 1."""
    errors = []
    for sim in (r for r in rows if r["source"] == "sim" and not r["failed"] and r["algorithm"] in algorithms):
        model = find(rows, "model", sim["algorithm"], sim["alpha"], sim["block_words"])
        if model:
            errors.append({"algorithm": sim["algorithm"], "alpha": sim["alpha"], "block_words": sim["block_words"],
                           "error": model["ns_per_access"] / sim["ns_per_access"] - 1, "binds": model["binds"]})
    return errors


def against_rows(args):
    """The rows of another run (--against FOLDER: its apexmap.json), and what that run was, or ([], None)."""
    if not args.against:
        return [], None
    path = os.path.join(args.against, "apexmap.json")
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        return document["rows"], describe(document)
    except (OSError, ValueError, KeyError) as error:
        raise ValueError(f"--against {args.against}: cannot read its apexmap.json ({error})") from error


def describe(document):
    """A run in words: its machine, size and network level for simulations, its ranks for measurements."""
    parts = []
    if "sim" in document.get("sources", []):
        parts.append(f"{document['machine']} simulated on {document['nodes']} nodes, network level {document['network']}")
    if "measured" in document.get("sources", ["measured"]):
        parts.append(f"this host's {document['ranks']} ranks")
    return " and ".join(parts) or "the model"


def against_ratios(rows, other, algorithms):
    """This run's bandwidth over the other's, per source, implementation and point both have."""
    ratios = []
    for row in (r for r in rows if not r["failed"] and r["algorithm"] in algorithms):
        there = find(other, row["source"], row["algorithm"], row["alpha"], row["block_words"])
        if there:
            ratios.append({"source": row["source"], "algorithm": row["algorithm"], "alpha": row["alpha"],
                           "block_words": row["block_words"],
                           "ratio": row["mb_per_second_per_process"] / there["mb_per_second_per_process"]})
    return ratios


def table(rows, source, algorithm, alphas, blocks, cell):
    lines = ["| alpha \\ L | " + " | ".join(str(b) for b in blocks) + " |",
             "| ---: | " + " | ".join("---:" for _ in blocks) + " |"]
    for alpha in alphas:
        cells = []
        for block in blocks:
            row = find(rows, source, algorithm, alpha, block)
            cells.append("failed" if row is None else cell(row))
        lines.append(f"| {alpha:g} | " + " | ".join(cells) + " |")
    return lines + [""]


SOURCE_TITLES = {"measured": "measured on this host", "sim": "simulated", "model": "modelled (apex-map-model)"}


def against_markdown(ratios, other_what, args):
    lines = ["### Against another run", "", f"This run's MB/s per process over that of {args.against} "
             f"({other_what}), point by point.", ""]
    for source in args.sources:
        for algorithm in args.algorithms:
            mine = {(r["alpha"], r["block_words"]): r["ratio"] for r in ratios
                    if (r["source"], r["algorithm"]) == (source, algorithm)}
            if not mine:
                continue
            lines += [f"#### {algorithm}, {SOURCE_TITLES[source]}", ""]
            lines += table([{"source": source, "algorithm": algorithm, "alpha": a, "block_words": b, "failed": False}
                            for a, b in mine], source, algorithm, args.alphas, args.blocks,
                           lambda r, m=mine: f"{m[(r['alpha'], r['block_words'])]:.3g}")
            values = list(mine.values())
            lines += [f"From {min(values):.3g} to {max(values):.3g}; median {sorted(values)[len(values) // 2]:.3g}.", ""]
    return lines


def markdown(rows, comparison, errors, args, wall, against=None):
    lines = [f"# Apex-Map surfaces: {', '.join(SOURCE_TITLES[s] for s in args.sources)}", "", results.provenance(),
             "", f"MB/s per process; {wall:.0f} s for this run, the points' own wall times sum to "
             f"{sum(r.get('wall_seconds') or 0 for r in rows):.0f} s (measured: one after another; simulated: "
             f"{launcher.host_cores()} side by side).", ""]
    for source in args.sources:
        where = (f"{args.ranks} ranks of this host; I = {WORDS_PER_REPETITION:,} / L words within {INDEX_RANGE}, "
                 f"{args.repeats} repetitions a point" if source == "measured" else
                 f"{args.machine}, {args.nodes} nodes, one process a node; network level {args.network}; I = "
                 f"{SIM_WORDS_PER_REPETITION:,} / L within {SIM_INDEX_RANGE}, one repetition" if source == "sim" else
                 f"{args.machine}, {args.nodes} nodes: the largest of core, round trips over B and busiest link")
        lines += [f"### {SOURCE_TITLES[source].capitalize()}", "", where + ".", ""]
        for algorithm in args.algorithms:
            lines += [f"#### {algorithm}", ""]
            lines += table(rows, source, algorithm, args.alphas, args.blocks,
                           lambda r: f"{r['mb_per_second_per_process']:.3g}")
            figures = key_figures(rows, source, algorithm, args.alphas, args.blocks)
            if figures:
                w, b = figures["worst"], figures["best"]
                lines.append(f"**{SOURCE_TITLES[source].split(' (')[0].capitalize()}, {algorithm}:** "
                             f"worst corner alpha {w['alpha']:g}, L {w['block_words']}: "
                             f"{w['mb_per_second_per_process']:.3g} MB/s per process ({w['ns_per_access']:.4g} ns an "
                             f"access); best alpha {b['alpha']:g}, L {b['block_words']}: "
                             f"{b['mb_per_second_per_process']:.3g} MB/s. L starts to matter (time per access "
                             f"{L_MATTERS_FACTOR:g}x its L = {args.blocks[0]} value) at " +
                             l_matters_text(figures["l_matters"], args.blocks[-1]) + ".")
                lines.append("")
    if errors:
        lines += ["### The model against the simulation", "",
                  "Model time per access over simulated, less 1 (what binds in the model in brackets).", ""]
        for algorithm in args.algorithms:
            mine = {(e["alpha"], e["block_words"]): e for e in errors if e["algorithm"] == algorithm}
            if not mine:
                continue
            lines += [f"#### {algorithm}", ""]
            lines += table(rows, "sim", algorithm, args.alphas, args.blocks,
                           lambda r, m=mine: (f"{100 * m[(r['alpha'], r['block_words'])]['error']:+.0f}% "
                                              f"({m[(r['alpha'], r['block_words'])]['binds']})"
                                              if (r["alpha"], r["block_words"]) in m else "-"))
            within = sum(1 for e in mine.values() if abs(e["error"]) <= 0.25)
            worst = max(mine.values(), key=lambda e: abs(e["error"]))
            lines.append(f"**The model against the simulation, {algorithm}:** {within} of {len(mine)} points within "
                         f"25%; the largest departure "
                         f"{100 * worst['error']:+.0f}% at alpha {worst['alpha']:g}, L {worst['block_words']}.")
            lines.append("")
    if against:
        lines += against_markdown(*against, args)
    if comparison:
        lines += ["### The uniform single-word corner beside RandomAccess", ""]
        lines.append(f"RandomAccess (direct, {comparison['ranks']} ranks): {comparison['randomaccess_gups']:.4g} GUPS.")
        for algorithm in args.algorithms:
            value = comparison.get(f"{algorithm}_giga_accesses_per_second")
            if value:
                lines.append(f"{algorithm} at alpha 1, L 1: {value:.4g} giga-accesses per second "
                             f"({value / comparison['randomaccess_gups']:.3g}x RandomAccess).")
        lines.append("")
    return "\n".join(lines) + "\n"


def apexmap(args):
    args.alphas = csv_floats(args.alphas, "--alphas")
    args.blocks = [int(b) for b in csv_floats(args.blocks, "--blocks")]
    args.algorithms = [a for a in args.algorithms.split(",") if a]
    args.sources = [s for s in args.sources.split(",") if s]
    if any(not 0 < a <= 1 for a in args.alphas):
        raise ValueError("--alphas: each must be above 0 and at most 1")
    if any(b < 1 for b in args.blocks) or args.repeats < 1 or args.indices < 0:
        raise ValueError("--blocks need 1 or more words, --repeats 1 or more, --indices 0 (automatic) or more")
    known = programs.variant_names(args.build, "Apex-Map implementation")
    unknown = [a for a in args.algorithms if a not in known]
    if unknown or not args.algorithms:
        raise ValueError(f"--algorithms: {', '.join(unknown) or 'none'}; known: {', '.join(known)}")
    unknown = [s for s in args.sources if s not in SOURCES]
    if unknown or not args.sources:
        raise ValueError(f"--sources: {', '.join(unknown) or 'none'}; known: {', '.join(SOURCES)}")
    if args.nodes < 1:
        raise ValueError("--nodes must be at least 1")
    other, other_what = against_rows(args)
    args.ranks = args.ranks or launcher.host_cores()
    if args.ranks > launcher.host_cores():
        raise ValueError(f"--ranks {args.ranks}: this host gives {launcher.host_cores()} cores (measured runs never "
                         "oversubscribe)")
    os.makedirs(results.raw_folder(args.out), exist_ok=True)
    start = time.monotonic()
    rows, comparison = [], None
    for algorithm in args.algorithms if "model" in args.sources else []:
        rows += model_rows(args, algorithm)
    plane = [(a, alpha, block) for a in args.algorithms for alpha in args.alphas for block in args.blocks]
    if "measured" in args.sources:
        gups = programs.binary(args.build, "gups")
        tasks = [point_task(args, gups, *point) for point in plane]
        corner = corner_task(args, gups) if 1.0 in args.alphas and 1 in args.blocks else None
        progress = launcher.Progress(len(tasks) + (corner is not None), "apexmap")
        done = launcher.Local().run(tasks + ([corner] if corner else []), progress, args.resume)
        rows += [row_of(task, document) for task, (document, _) in zip(tasks, done)]
        comparison = corner_comparison(rows, done[-1][0] if corner else None, args.ranks)
    if "sim" in args.sources:
        sim = programs.binary(args.build, "gups-sim")
        tasks = [sim_task(args, sim, *point) for point in plane]
        progress = launcher.Progress(len(tasks), "apexmap sim")
        done = launcher.Local(launcher.host_cores()).run(tasks, progress, args.resume)
        rows += [row_of(task, document) for task, (document, _) in zip(tasks, done)]
    wall = time.monotonic() - start
    against = (against_ratios(rows, other, args.algorithms), other_what) if args.against else None
    write(args, rows, comparison, model_errors(rows, args.algorithms), wall, against)
    failed = sum(1 for r in rows if r["failed"])
    if failed:
        print(f"apexmap: {failed} point(s) failed; their cells say so", file=sys.stderr)
    return 1 if failed else 0


def write(args, rows, comparison, errors, wall, against=None):
    figures = {source: {a: key_figures(rows, source, a, args.alphas, args.blocks) for a in args.algorithms}
               for source in args.sources}
    with open(os.path.join(args.out, "apexmap.json"), "w", encoding="utf-8") as f:
        json.dump({"ranks": args.ranks, "machine": args.machine, "nodes": args.nodes, "network": args.network,
                   "sources": args.sources, "rows": rows, "key_figures": figures, "model_errors": errors,
                   "against": {"folder": args.against, "what": against[1], "ratios": against[0]} if against else None,
                   "randomaccess": comparison, "wall_seconds": wall}, f, indent=1)
    fields = list(dict.fromkeys(k for r in rows for k in r))
    with open(os.path.join(args.out, "apexmap.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    text = markdown(rows, comparison, errors, args, wall, against)
    with open(os.path.join(args.out, "apexmap.md"), "w", encoding="utf-8") as f:
        f.write(text)
    from . import plot as apexmap_plot  # matplotlib only when writing
    paths = apexmap_plot.all_surfaces(rows, args)
    if against:
        paths += apexmap_plot.against_surfaces(against[0], args, against[1])
    sys.stdout.write(text)
    print(f"apexmap: {os.path.join(args.out, 'apexmap.md')}, .csv, .json, " + ", ".join(os.path.basename(p) for p in paths)
          + f" ({wall:.0f} s)", file=sys.stderr)
