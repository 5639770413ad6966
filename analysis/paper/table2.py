"""The paper's Table 2 on this host: k threads updating one table they share (gups-shared-table).

(a) Updates lost by unprotected shared updates (a core's read and write, with another core's update of the same
word falling between them), for 2 to 32 updates per word of a 2^24-word table (the paper's 32M to 512M updates
on 16M words): the mean error rate and its std/mean over the runs. (b) The rate of one core updating alone,
relative to: k cores unprotected, k cores with 1, 16 and 32 striped locks, k cores with atomic XORs.

k is the number of cores this process may use (4 on the paper's Blue Gene/P node): more threads than cores take
turns, which changes both the rate and how often two updates meet.
"""
import csv
import json
import os
import statistics
import subprocess
import sys

from .. import results
from ..report import plot

# The paper's Table 2 (Blue Gene/P, 4 cores, 16M-word table): (a) updates -> (mean error rate 1e-6, std 1e-6,
# std/mean), (b) relative GUPS. Published figures, shown beside this host's.
PAPER_ERRORS = {32 << 20: (2.92, 1.49, 0.51), 64 << 20: (3.46, 1.55, 0.45), 128 << 20: (6.14, 2.50, 0.41),
                256 << 20: (8.52, 1.91, 0.22), 512 << 20: (19.13, 3.27, 0.17)}
PAPER_RELATIVE = {"serial": 1.0, "shared": 2.58, "1 lock": 0.83, "16 locks": 1.83, "32 locks": 1.87}

# (label, protection, locks, threads: 1 or k)
RATE_CASES = [("serial", "none", 0, 1), ("shared", "none", 0, None), ("1 lock", "locks", 1, None),
              ("16 locks", "locks", 16, None), ("32 locks", "locks", 32, None), ("atomic", "atomic", 0, None)]


def run_binary(binary, out, name, log2_table, updates, threads, protection, locks, repeats):
    raw = results.raw_path(out, name)
    command = [binary, "--log2-table", str(log2_table), "--updates", str(updates), "--threads", str(threads),
               "--protection", protection, "--repeats", str(repeats), "--json", raw]
    if protection == "locks":
        command += ["--locks", str(locks)]
    os.makedirs(results.raw_folder(out), exist_ok=True)
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        raise ValueError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    with open(raw, encoding="utf-8") as f:
        document = json.load(f)
    document["command"] = command
    results.write_whole(raw, document)
    return document


def error_rows(documents):
    rows = []
    for d in documents:
        errors = [r["errors"] for r in d["runs"]]
        mean = statistics.fmean(errors)
        std = statistics.stdev(errors) if len(errors) > 1 else 0.0
        paper = PAPER_ERRORS.get(d["updates"]) if d["words"] == 1 << 24 else None
        rows.append({"updates": d["updates"], "updates_per_word": d["updates"] / d["words"], "runs": len(errors),
                     "threads": d["threads"], "mean_errors": mean, "std_errors": std,
                     "error_rate_per_word": mean / d["words"], "std_rate_per_word": std / d["words"],
                     "std_over_mean": std / mean if mean else None,
                     "paper_error_rate": paper[0] * 1e-6 if paper else None,
                     "paper_std_over_mean": paper[2] if paper else None})
    return rows


def rate_rows(documents):
    medians = {label: statistics.median(r["gups"] for r in d["runs"]) for label, d in documents}
    base = medians["serial"]
    rows = []
    for label, d in documents:
        rates = [r["gups"] for r in d["runs"]]
        rows.append({"case": label, "threads": d["threads"], "protection": d["protection"], "locks": d["locks"],
                     "runs": len(rates), "median_gups": medians[label], "min_gups": min(rates),
                     "max_gups": max(rates), "relative": medians[label] / base,
                     "errors_max": max(r["errors"] for r in d["runs"]),
                     "paper_relative": PAPER_RELATIVE.get(label)})
    return rows


def markdown(error_table, rate_table, args, threads):
    def opt(value, fmt):
        return "" if value is None else format(value, fmt)

    lines = [f"# Table 2 on this host: {threads} threads sharing one table of 2^{args.log2_table} words", "",
             results.provenance(), "",
             "(a) Unprotected shared updates: words left wrong after the run (HPCC's error count), per word of "
             "the table.", "",
             "| updates | per word | runs | mean errors | error rate (1e-6 of words) | std (1e-6) | std/mean "
             "| paper: rate (1e-6) | paper: std/mean |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in error_table:
        lines.append(f"| {r['updates']:,} | {r['updates_per_word']:g} | {r['runs']} | {r['mean_errors']:.1f} | "
                     f"{r['error_rate_per_word'] * 1e6:.3f} | {r['std_rate_per_word'] * 1e6:.3f} | "
                     f"{opt(r['std_over_mean'], '.2f')} | "
                     f"{opt(r['paper_error_rate'] and r['paper_error_rate'] * 1e6, '.2f')} | "
                     f"{opt(r['paper_std_over_mean'], '.2f')} |")
    lines += ["", f"(b) Rate relative to one core alone ({4 * (1 << args.log2_table):,} updates, "
                  f"{args.rate_runs} runs each, medians).", "",
              "| case | threads | median GUP/s | min..max | relative | most errors | paper (4 cores) |",
              "|---|---:|---:|---|---:|---:|---:|"]
    for r in rate_table:
        lines.append(f"| {r['case']} | {r['threads']} | {r['median_gups']:.4f} | {r['min_gups']:.4f}.."
                     f"{r['max_gups']:.4f} | {r['relative']:.2f} | {r['errors_max']} | "
                     f"{opt(r['paper_relative'], '.2f')} |")
    lines += ["", "Commands: the `command` of each file in `raw/`. The paper's figures are Blue Gene/P's, 4 cores "
                  "(its Table 2); this host's k is the cores this process may use."]
    return "\n".join(lines) + "\n"


def figure(error_table, rate_table, out, threads):
    fig, (left, right) = plot.plt.subplots(1, 2, figsize=(11, 4.2))
    xs = [r["updates"] / 2**20 for r in error_table]
    left.errorbar(xs, [r["error_rate_per_word"] * 1e6 for r in error_table],
                  yerr=[r["std_rate_per_word"] * 1e6 for r in error_table], marker="o", capsize=3,
                  label=f"this host, {threads} threads")
    paper = [(r["updates"] / 2**20, r["paper_error_rate"] * 1e6) for r in error_table if r["paper_error_rate"]]
    if paper:
        left.plot(*zip(*paper), "s--", color="grey", label="paper, Blue Gene/P, 4 cores")
    left.set_xscale("log", base=2)
    left.set_xlabel("updates (millions)")
    left.set_ylabel("wrong words per table word (1e-6)")
    left.set_title("(a) unprotected shared updates")
    left.legend()
    labels = [r["case"] for r in rate_table]
    positions = range(len(labels))
    right.bar([p - 0.2 for p in positions], [r["relative"] for r in rate_table], width=0.4,
              label=f"this host, {threads} threads")
    right.bar([p + 0.2 for p in positions], [r["paper_relative"] or 0 for r in rate_table], width=0.4,
              color="grey", label="paper, 4 cores")
    right.set_xticks(list(positions), labels, rotation=20)
    right.set_ylabel("GUPS relative to one core alone")
    right.set_title("(b) rate by protection")
    right.legend()
    fig.tight_layout()
    return plot.save(fig, out, "table2")


def table2(args):
    binary = os.path.join(args.build, "kernel", "gups-shared-table")
    if not os.path.exists(binary):
        raise ValueError(f"{binary} is not built (cmake --build {args.build})")
    from ..run.launcher import host_cores  # the cores this process may use
    threads = args.threads or host_cores()
    words = 1 << args.log2_table
    errors = []
    per_word = [float(x) for x in args.updates_per_word.split(",")]
    for i, k in enumerate(per_word, 1):
        print(f"table2: (a) {i}/{len(per_word)}: {int(k * words):,} updates, {args.error_runs} runs",
              file=sys.stderr, flush=True)
        errors.append(run_binary(binary, args.out, f"errors-{k:g}", args.log2_table, int(k * words), threads,
                                 "none", 0, args.error_runs))
    rates = []
    for i, (label, protection, locks, case_threads) in enumerate(RATE_CASES, 1):
        print(f"table2: (b) {i}/{len(RATE_CASES)}: {label}, {args.rate_runs} runs", file=sys.stderr, flush=True)
        rates.append((label, run_binary(binary, args.out, "rate-" + label.replace(" ", "-"), args.log2_table,
                                        4 * words, case_threads or threads, protection, locks, args.rate_runs)))
    error_table, rate_table = error_rows(errors), rate_rows(rates)
    document = {"schema": "torus-gups/table2/1", "threads": threads, "log2_table": args.log2_table,
                "errors": error_table, "rates": rate_table}
    results.write_whole(os.path.join(args.out, "table2.json"), document)
    with open(os.path.join(args.out, "table2.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rate_table[0].keys()))
        writer.writeheader()
        writer.writerows(rate_table)
    text = markdown(error_table, rate_table, args, threads)
    with open(os.path.join(args.out, "table2.md"), "w", encoding="utf-8") as f:
        f.write(text)
    paths = figure(error_table, rate_table, args.out, threads)
    print(text)
    print("\n".join([os.path.join(args.out, n) for n in ("table2.json", "table2.csv", "table2.md")] + paths))
    return 0
