"""Apex-Map surfaces: the probe (gups --algo apex-map-mpi|apex-map-rma) measured over the (alpha, L) plane on this
host's cores, one run a point, as its authors draw them: bandwidth per process on log scales over alpha and L, and
the ratio of two implementations' surfaces. The (alpha = 1, L = 1) corner, uniform random single words, is set
beside RandomAccess (gups --algo direct) on the same host and ranks."""
import csv
import json
import os
import sys
import time

from . import launcher, results, sweep

ALPHAS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0]
BLOCKS = [1, 4, 16, 64, 256, 1024, 4096, 16384]
ALGORITHMS = ["apex-map-mpi", "apex-map-rma"]
# Words each process reads per repetition: enough for tens of milliseconds at every L, so that mpirun's start
# is not what is measured; I = this / L, within INDEX_RANGE.
WORDS_PER_REPETITION = 1 << 22
INDEX_RANGE = (64, 65536)
DEFAULT_SHARE_WORDS = 1 << 20  # gups's own when --memory-words is not given (apex_map::kDefaultShareWords)


def csv_floats(text, what):
    try:
        values = [float(x) for x in text.split(",") if x.strip()]
    except ValueError as error:
        raise ValueError(f"{what}: not a comma list of numbers: {text!r}") from error
    if not values:
        raise ValueError(f"{what}: empty")
    return values


def indices_for(block_words, asked):
    if asked:
        return asked
    low, high = INDEX_RANGE
    return max(low, min(high, WORDS_PER_REPETITION // block_words))


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
                         ranks=args.ranks, env=sweep.MPI_ENV)


def corner_task(args, gups):
    """RandomAccess on the same ranks: HPCC's direct algorithm, a table as large as the probe's array."""
    path = results.raw_path(args.out, "randomaccess-direct")
    words = args.memory_words or DEFAULT_SHARE_WORDS * args.ranks
    log2_table = max(1, words.bit_length() - 1)
    command = [gups, "--algo", "direct", "--log2-table", str(log2_table), "--json", path]
    return launcher.Task("randomaccess-direct", "RandomAccess direct", command, path, "apexmap",
                         {"source": "measured", "algorithm": "direct"}, ranks=args.ranks, env=sweep.MPI_ENV)


def row_of(task, document):
    meta = task.meta
    row = {"algorithm": meta["algorithm"], "alpha": meta["alpha"], "block_words": meta["block_words"]}
    if document is None:
        return {**row, "failed": True}
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
        if row["alpha"] == 1.0 and row["block_words"] == 1 and not row["failed"]:
            comparison[f"{row['algorithm']}_giga_accesses_per_second"] = ranks / row["ns_per_access"]
    return comparison


def markdown(rows, comparison, args, wall):
    lines = [f"# Apex-Map on this host, {args.ranks} ranks", "", results.provenance(), "",
             f"MB/s per process, measured (gups --algo ..., {args.repeats} repetitions a point, I = "
             f"{WORDS_PER_REPETITION:,} / L words within {INDEX_RANGE}); {wall:.0f} s in all.", ""]
    for algorithm in args.algorithms:
        lines += [f"### {algorithm}", "", "| alpha \\ L | " + " | ".join(str(b) for b in args.blocks) + " |",
                  "| ---: | " + " | ".join("---:" for _ in args.blocks) + " |"]
        for alpha in args.alphas:
            cells = []
            for block in args.blocks:
                row = next((r for r in rows if (r["algorithm"], r["alpha"], r["block_words"]) ==
                            (algorithm, alpha, block)), None)
                cells.append("failed" if row is None or row["failed"] else f"{row['mb_per_second_per_process']:.3g}")
            lines.append(f"| {alpha:g} | " + " | ".join(cells) + " |")
        lines.append("")
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
    if any(not 0 < a <= 1 for a in args.alphas):
        raise ValueError("--alphas: each must be above 0 and at most 1")
    if any(b < 1 for b in args.blocks) or args.repeats < 1 or args.indices < 0:
        raise ValueError("--blocks need 1 or more words, --repeats 1 or more, --indices 0 (automatic) or more")
    unknown = [a for a in args.algorithms if a not in ALGORITHMS]
    if unknown or not args.algorithms:
        raise ValueError(f"--algorithms: {', '.join(unknown) or 'none'}; known: {', '.join(ALGORITHMS)}")
    args.ranks = args.ranks or sweep.host_cores()
    if args.ranks > sweep.host_cores():
        raise ValueError(f"--ranks {args.ranks}: this host gives {sweep.host_cores()} cores (measured runs never "
                         "oversubscribe)")
    gups = sweep.binary(args.build, "kernel/gups")
    os.makedirs(results.raw_folder(args.out), exist_ok=True)
    tasks = [point_task(args, gups, a, alpha, block) for a in args.algorithms for alpha in args.alphas
             for block in args.blocks]
    corner = corner_task(args, gups) if 1.0 in args.alphas and 1 in args.blocks else None
    start = time.monotonic()
    progress = sweep.Progress(len(tasks) + (corner is not None), "apexmap")
    done = launcher.Local().run(tasks + ([corner] if corner else []), progress, args.resume)
    wall = time.monotonic() - start
    rows = [row_of(task, document) for task, (document, _) in zip(tasks, done)]
    comparison = corner_comparison(rows, done[-1][0] if corner else None, args.ranks)
    write(args, rows, comparison, wall)
    failed = sum(1 for r in rows if r["failed"])
    if failed:
        print(f"apexmap: {failed} point(s) failed; their cells say so", file=sys.stderr)
    return 1 if failed else 0


def write(args, rows, comparison, wall):
    with open(os.path.join(args.out, "apexmap.json"), "w", encoding="utf-8") as f:
        json.dump({"ranks": args.ranks, "rows": rows, "randomaccess": comparison, "wall_seconds": wall}, f, indent=1)
    fields = list(dict.fromkeys(k for r in rows for k in r))
    with open(os.path.join(args.out, "apexmap.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    text = markdown(rows, comparison, args, wall)
    with open(os.path.join(args.out, "apexmap.md"), "w", encoding="utf-8") as f:
        f.write(text)
    from . import apexmap_plot  # matplotlib only when writing
    paths = apexmap_plot.surfaces(rows, args.algorithms, args.alphas, args.blocks, args.out, args.ranks)
    sys.stdout.write(text)
    print(f"apexmap: {os.path.join(args.out, 'apexmap.md')}, .csv, .json, " + ", ".join(os.path.basename(p) for p in paths)
          + f" ({wall:.0f} s)", file=sys.stderr)
