#!/usr/bin/env python3
"""Benchmark: a machine's network alone under global-exchange traffic (gups-network), cube against elongated
partitions, queue against packet level: the efficiency each delivers (wire bytes delivered per node over the peak
its busiest line allows), beside the published Blue Gene/L all-to-all figures (about 64% of peak on 64x32x32 and
about 70% on 40x32x16 with the default routing; facts file). Writes network-traffic.md (the table with the date,
host and command), network-traffic.csv, network-traffic.json and every raw result in the output folder.

Uniform traffic at an offered load above the peak measures what the network accepts when saturated; all-to-all
(every node to every other, step by step, posted at once) runs where its n(n-1) messages are few enough.
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

NETWORK = os.path.join(ROOT, "build", "sim", "gups-network")
# (shape, what it is)
SHAPES = [
    ("8x8x8", "cube, a midplane"),
    ("8x8x16", "a rack"),
    ("16x16x16", "cube"),
    ("8x16x32", "4,096 nodes, the racks' pattern"),
    ("32x32x32", "cube, 32 racks"),
    ("40x32x16", "published: about 70% (Blue Gene/L, all-to-all)"),
    ("64x32x32", "published: 64% (Blue Gene/L, all-to-all)"),
]
PUBLISHED = {"40x32x16": 0.70, "64x32x32": 0.64}


def nodes_of(shape):
    n = 1
    for side in shape.split("x"):
        n *= int(side)
    return n


def run(command, path, resume):
    quoted = " ".join(shlex.quote(c) for c in command)
    kept = kept_benchmark_result(path, quoted) if resume else None
    if kept is not None:
        return kept
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        document = {"failed": done.stderr.strip()[-300:]}
    else:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    document["bench_command"] = quoted
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f, indent=1)
    return document


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--machine", default="bgl", help="machine file (default bgl: the published figures are its)")
    p.add_argument("--shapes", default=",".join(s for s, _ in SHAPES), help="comma list of shapes")
    p.add_argument("--levels", default="queue,packet", help="comma list of gups-network levels")
    p.add_argument("--messages", type=int, default=1_000_000,
                   help="uniform traffic: about this many messages per run in all, at least 32 per node (default 1,000,000)")
    p.add_argument("--offered-load", type=float, default=1.5, help="uniform traffic's offered load (default 1.5)")
    p.add_argument("--window", type=int, default=64,
                   help="uniform traffic: at most this many messages of a node in flight (default 64: a smaller window "
                        "holds the rate below saturation, 16 gave 68% where 64 gives 74% on 8x8x8 at queue; it bounds the backlog)")
    p.add_argument("--all-to-all-max-nodes", type=int, default=1024,
                   help="all-to-all (n(n-1) messages) up to this size (default 1024)")
    p.add_argument("--message-bytes", type=float, default=240, help="payload per message (default 240: one packet)")
    p.add_argument("--vary", help="a packet-level parameter (channel_buffer_chunks, injection_fifos, ...): each "
                                   "value of --values on each shape, uniform traffic, packet level (a what-if over an "
                                   "assumed parameter); writes network-traffic-VARY.md")
    p.add_argument("--values", help="with --vary: comma list of JSON values")
    p.add_argument("--out", default=os.path.join(ROOT, "results", "bench-network-traffic"))
    p.add_argument("--resume", action="store_true", help="keep results of the same command already in --out")
    args = p.parse_args(argv)
    shapes = [s for s in args.shapes.split(",") if s]
    levels = [level for level in args.levels.split(",") if level]
    if bool(args.vary) != bool(args.values):
        p.error("--vary and --values go together")
    settings = [None] if not args.vary else [f"{args.vary}={v}" for v in args.values.split(",") if v]
    described = dict(SHAPES)
    os.makedirs(os.path.join(args.out, "raw"), exist_ok=True)
    start = time.monotonic()
    rows = []
    for shape in shapes:
        n = nodes_of(shape)
        traffics = [("uniform", max(32, args.messages // n))]
        if n <= args.all_to_all_max_nodes and not args.vary:
            traffics.append(("all-to-all", n - 1))
        for traffic, per_node in traffics:
            for level, setting in [(lv, st) for lv in (["packet"] if args.vary else levels) for st in settings]:
                tag = "" if setting is None else "-" + setting.replace("=", "-")
                path = os.path.join(args.out, "raw", f"{shape}-{traffic}-{level}{tag}.json")
                print(f"bench: {shape} {traffic} {level} {setting or ''} [{time.monotonic() - start:.0f} s]",
                      file=sys.stderr, flush=True)
                command = [NETWORK, "--machine", args.machine, "--shape", shape, "--wrap", "torus", "--network",
                           level, "--traffic", traffic, "--message-bytes", str(args.message_bytes), "--quiet",
                           "--json", path]
                if traffic == "uniform":
                    command += ["--messages-per-node", str(per_node), "--offered-load", str(args.offered_load),
                                "--window", str(args.window)]
                if setting:
                    command += ["--set", setting]
                d = run(command, path, args.resume)
                rows.append({"shape": shape, "nodes": n, "what": described.get(shape, ""), "traffic": traffic,
                             "setting": setting or "",
                             "offered_load": args.offered_load if traffic == "uniform" else None,
                             "messages_per_node": per_node, "level": level,
                             "efficiency": d.get("efficiency"), "published": PUBLISHED.get(shape),
                             "mean_latency_us": d["mean_latency_seconds"] * 1e6 if "failed" not in d else None,
                             "held_upstream": d.get("packets", {}).get("held_upstream"),
                             "wall_seconds": d.get("wall_seconds"), "status": d.get("failed", "done")})
    command = " ".join(shlex.quote(a) for a in ["bash", "tests/benchmarks/network-traffic.sh"] + argv)
    lines = [provenance(command) + f" {time.monotonic() - start:.0f} s in all.", "",
             f"Machine {args.machine}, {args.message_bytes:g} payload bytes per message; uniform traffic offered "
             f"at {args.offered_load:g} x peak with at most {args.window} messages of a node in flight; efficiency = wire bytes delivered per node / the peak the busiest "
             "line allows (8 b / k on a ring of k).", "",
             "| shape | nodes | partition | traffic | messages/node | level | efficiency | published | "
             "mean latency us | wall s |", "|---|---:|---|---|---:|---|---:|---:|---:|---:|"]
    if args.vary:
        lines[-2] = lines[-2].replace("| level |", f"| {args.vary} |")
    for r in rows:
        eff = "-" if r["efficiency"] is None else f"{100 * r['efficiency']:.1f}%"
        pub = "" if r["published"] is None else f"{100 * r['published']:.0f}% (all-to-all)"
        lat = "-" if r["mean_latency_us"] is None else f"{r['mean_latency_us']:.3g}"
        wall = "-" if r["wall_seconds"] is None else f"{r['wall_seconds']:.1f}"
        status = "" if r["status"] == "done" else f" ({r['status']})"
        lines.append(f"| {r['shape']} | {r['nodes']:,} | {r['what']} | {r['traffic']} | {r['messages_per_node']:,} "
                     f"| {r['setting'].split('=', 1)[-1] if args.vary else r['level']}{status} | {eff} | {pub} "
                     f"| {lat} | {wall} |")
    lines += ["", f"Repeat: {command}"]
    text = "\n".join(lines) + "\n"
    stem = "network-traffic" + (f"-{args.vary}" if args.vary else "")
    for name, body in ((f"{stem}.md", text), (f"{stem}.json", json.dumps(rows, indent=1))):
        with open(os.path.join(args.out, name), "w", encoding="utf-8") as f:
            f.write(body)
    with open(os.path.join(args.out, f"{stem}.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    sys.stdout.write(text)
    return 1 if any(r["status"] != "done" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
