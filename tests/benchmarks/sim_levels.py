#!/usr/bin/env python3
"""Benchmark: every network level of gups-sim against flow, the finest.

For each case (a machine and algorithm with every mechanism of the machine, as `study table4` simulates it, and
network-bound cases where contention decides the rate) and each size, one run per level: the steady-state GUPS
and its ratio to flow's, the busiest dimension's link load (mean and busiest link), the wall time, the peak
memory and the simulated messages per wall second. Writes sim-levels.md (the table, with the date, the host and
the command), sim-levels.csv and every raw result in the output folder. Run it alone: at 4,096 nodes a flow run with
every mechanism takes minutes.
"""
import argparse
import csv
import json
import os
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from analysis.results import kept_benchmark_result, provenance  # noqa: E402
from analysis.run import programs  # noqa: E402
from analysis.study_tools import mechanisms_for  # noqa: E402
SIM = os.path.join(ROOT, "build", "sim", "gups-sim")
# name: (machine, algorithm, extra gups-sim options, what it is)
CASES = {
    "bgp-multicore": ("bgp", "multicore", [], "Blue Gene/P, multi-core, every mechanism"),
    "bgp-routed": ("bgp", "routed", [], "Blue Gene/P, single-core, every mechanism"),
    "bgl-routed": ("bgl", "routed", [], "Blue Gene/L, single-core, every mechanism"),
    "bgp-multicore-slow-links": ("bgp", "multicore", ["--bandwidth-scale", "0.02"],
                                 "Blue Gene/P, multi-core, every mechanism, links 50 times slower (network-bound)"),
    "bgp-multicore-no-cpu": ("bgp", "multicore", ["--costs", "zero"],
                             "Blue Gene/P, multi-core, no CPU cost at all (network-bound, rendezvous sends)"),
}


def machine_file(machine):
    with open(os.path.join(ROOT, "models", "machines", machine + ".json"), encoding="utf-8") as f:
        return json.load(f)


def command_of(case, nodes, level, args, path):
    machine, algorithm, extra, _ = CASES[case]
    # The machine's mechanisms by the variant's traits (paper-buckets where the file lists the size).
    mechanisms = mechanisms_for(programs.variant(os.path.join(ROOT, "build"), algorithm), nodes, machine_file(machine))
    if "--costs" in extra:
        mechanisms = "mesh"  # the other mechanisms model the machine's costs
    command = [SIM, "--quiet", "--machine", machine, "--algo", algorithm, "--nodes", str(nodes), "--verify", "none",
               "--mechanisms", mechanisms, "--network", level, "--link-load", "--json", path] + extra
    if args.min_updates and "--costs" not in extra:
        command += ["--min-updates-per-node", str(args.min_updates)]
    if args.max_wall:
        command += ["--max-wall", str(args.max_wall)]
    return command


def run(command, path, resume):
    quoted = " ".join(shlex.quote(c) for c in command)
    kept = kept_benchmark_result(path, quoted) if resume else None
    if kept is not None:
        return kept
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, ValueError):
        document = {"partial": True, "simulation": {"wall_seconds": time.monotonic() - start}}
    if done.returncode != 0:
        document["failed"] = done.stderr.strip()[-300:]
    document["bench_command"] = quoted
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f, indent=1)
    return document


def row_of(case, nodes, level, document, flow):
    s = document.get("simulation", {})
    row = {"case": case, "nodes": nodes, "level": level, "steady_gups": None, "vs_flow": None,
           "busiest_dimension": None, "link_mean": None, "link_max": None,
           "wall_seconds": s.get("wall_seconds"), "peak_mib": s.get("peak_memory_bytes", 0) / 2**20,
           "messages_per_wall_second": None, "updates_per_node": s.get("updates_per_node"),
           "quarters_apart": document.get("steady_spread"), "status": "done"}
    if document.get("partial") or document.get("failed"):
        row["status"] = "failed: " + document.get("failed", "stopped (--max-wall)")
        return row
    row["steady_gups"] = document["steady_gups"]
    if flow and flow.get("steady_gups"):
        row["vs_flow"] = document["steady_gups"] / flow["steady_gups"]
    if document.get("link_load"):
        busiest = max(document["link_load"], key=lambda d: d["mean_utilisation"])
        row.update(busiest_dimension=busiest["dimension"], link_mean=busiest["mean_utilisation"],
                   link_max=busiest["max_utilisation"])
    messages = sum(c["messages_sent"] + c["local_messages_sent"] for c in document["cores"])
    phases = s.get("phase_end_wall_seconds", {})
    if "update phase" in phases and "set-up" in phases:
        row["messages_per_wall_second"] = messages / max(1e-9, phases["update phase"] - phases["set-up"])
    return row


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def markdown(rows, args, wall):
    command = " ".join(shlex.quote(a) for a in ["bash", "tests/benchmarks/sim-levels.sh"] + args.argv)
    lines = [provenance(command) + f" {wall:.0f} s in all.", "",
             "| case | nodes | level | steady GUP/s | vs flow | busiest links: dimension, mean, max | quarters apart "
             "| updates/node | wall s | peak MiB | messages per wall s |",
             "|---|---:|---|---:|---:|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        links = "-" if r["busiest_dimension"] is None else \
            f"{r['busiest_dimension']}: {100 * r['link_mean']:.1f}%, {100 * r['link_max']:.1f}%"
        vs = "-" if r["vs_flow"] is None else ("1" if r["level"] == "flow" else f"{r['vs_flow']:.4f}")
        status = "" if r["status"] == "done" else f" ({r['status']})"
        lines.append(f"| {r['case']} | {r['nodes']:,} | {r['level']}{status} | {fmt(r['steady_gups'], '.4g')} | {vs} "
                     f"| {links} | {fmt(r['quarters_apart'] and 100 * r['quarters_apart'], '.2f')}% "
                     f"| {fmt(r['updates_per_node'], 'd')} | {fmt(r['wall_seconds'], '.1f')} | {r['peak_mib']:.0f} "
                     f"| {fmt(r['messages_per_wall_second'], ',.0f')} |")
    lines += ["", "Cases:", ""] + [f"- {name}: {CASES[name][3]}" for name in args.cases]
    lines += ["", f"Repeat: {command}"]
    return "\n".join(lines) + "\n"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--nodes", default="64,512,4096", help="comma list (default 64,512,4096)")
    p.add_argument("--cases", default=",".join(CASES), help="comma list of " + ", ".join(CASES))
    p.add_argument("--levels", default="flow,queue,latency,packet", help="comma list; flow first (the reference)")
    p.add_argument("--min-updates", type=int, default=8192,
                   help="at least this many updates per node (default 8192, as study table4: DMA fills its "
                        "pipeline slowly)")
    p.add_argument("--max-wall", type=float, default=0, help="each run stops after this many seconds (0: no limit)")
    p.add_argument("--out", default=os.path.join(ROOT, "results", "bench-sim-levels"))
    p.add_argument("--resume", action="store_true", help="keep results of the same command already in --out")
    args = p.parse_args(argv)
    args.argv = argv
    args.cases = [c for c in args.cases.split(",") if c]
    levels = [level for level in args.levels.split(",") if level]
    unknown = [c for c in args.cases if c not in CASES]
    if unknown or not levels or levels[0] != "flow":
        p.error(f"unknown cases {unknown}" if unknown else "--levels must start with flow, the reference")
    nodes = [int(n) for n in args.nodes.split(",") if n]
    os.makedirs(os.path.join(args.out, "raw"), exist_ok=True)
    start = time.monotonic()
    rows = []
    for case in args.cases:
        for n in nodes:
            flow = None
            for level in levels:
                path = os.path.join(args.out, "raw", f"{case}-{n}-{level}.json")
                print(f"bench: {case}, {n} nodes, {level} [{time.monotonic() - start:.0f} s]", file=sys.stderr,
                      flush=True)
                document = run(command_of(case, n, level, args, path), path, args.resume)
                flow = document if level == "flow" else flow
                rows.append(row_of(case, n, level, document, flow))
    text = markdown(rows, args, time.monotonic() - start)
    with open(os.path.join(args.out, "sim-levels.md"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(args.out, "sim-levels.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    sys.stdout.write(text)
    print(f"bench: {args.out}/sim-levels.md, sim-levels.csv, raw/", file=sys.stderr)
    return 1 if any(r["status"] != "done" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
