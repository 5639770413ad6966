"""Benchmark: the model's network bound for each physical network (the busiest link of the traffic routed as
SimGrid routes it) against simulations where the network binds. Each machine runs multicore with one routing core
per dimension and one updating core (the paper's plan shape), its links slowed until the model's network bound is
an eighth of its CPU bound; messages carry the machine's packets, headers and acknowledgements (--mechanisms
wire), the bytes the model's b counts. Two ratios per point: the simulated steady GUPS over the bound as the model states it,
and over the bound recomputed with the wire bytes per update the simulation sent (which separates the link-capacity
derivation from the model's bucket fill). Writes results/bench-network-bounds/network-bounds.md (and .json).

Usage: python3 tests/benchmarks/network_bounds.py [--nodes 64,512,4096] [--machines bgp,bgq,fattree,dragonfly]
       [--network queue] [--build build] [--out results/bench-network-bounds]"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from analysis import results  # noqa: E402  (the provenance line every measured table carries)
# Routing cores (virtual dimensions) plus one updater: the paper's plan shape on each machine.
CORES = {"bgp": 4, "bgl": 4, "bgq": 6, "fattree": 4, "dragonfly": 4}
SLOWER = 8  # the network bound this many times under the CPU bound


def model(build, machine, nodes, cores, out):
    path = os.path.join(out, f"model-{machine}-{nodes}.json")
    subprocess.run([os.path.join(build, "models/gups-model"), "--machine", machine, "--nodes", str(nodes),
                    "--cores-per-node", str(cores), "--json", path], check=True, capture_output=True)
    with open(path, encoding="utf-8") as f:
        return json.load(f)["results"][0]["rows"][0]


def simulate(build, machine, nodes, cores, scale, network, out):
    path = os.path.join(out, f"sim-{machine}-{nodes}.json")
    command = [os.path.join(build, "sim/gups-sim"), "--machine", machine, "--nodes", str(nodes), "--cores-per-node",
               str(cores), "--bandwidth-scale", f"{scale:.6g}", "--network", network, "--verify", "checksum",
               "--mechanisms", "wire",
               "--link-load", "--quiet", "--json", path]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: {done.stderr.strip()[-300:]}")
    with open(path, encoding="utf-8") as f:
        return json.load(f), " ".join(command)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--nodes", default="64,512,4096")
    p.add_argument("--machines", default="bgp,bgq,fattree,dragonfly")
    p.add_argument("--network", default="queue", choices=["flow", "queue", "latency"])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--out", default=os.path.join(ROOT, "results", "bench-network-bounds"))
    p.add_argument("--rewrite", action="store_true", help="only write the table again from OUT/network-bounds.json")
    args = p.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    if args.rewrite:
        with open(os.path.join(args.out, "network-bounds.json"), encoding="utf-8") as f:
            saved = json.load(f)
        write(args, saved["rows"], saved["commands"])
        return 0
    rows, commands = [], []
    for machine in args.machines.split(","):
        for nodes in (int(n) for n in args.nodes.split(",")):
            cores = CORES.get(machine, 4)
            fast = model(args.build, machine, nodes, cores, args.out)
            scale = fast["cpu_gups"] / fast["routes_network_gups"] / SLOWER
            bound = fast["routes_network_gups"] * scale
            start = time.monotonic()
            result, command = simulate(args.build, machine, nodes, cores, scale, args.network, args.out)
            commands.append(command)
            wire_model = fast["bytes_per_update"] * fast["software_hops"]
            wire_sim = result["counters"]["network_bytes_sent"] / result["updates"]
            busiest = max(result["link_load"] or [{}], key=lambda load: load.get("max_utilisation", 0))
            rows.append({"machine": machine, "nodes": nodes, "shape": fast["shape"], "network": fast["network"],
                         "cores": cores, "link_scale": scale, "bound_gups": bound,
                         "bottleneck": fast["network_bottleneck"], "sim_steady_gups": result["steady_gups"],
                         "ratio": result["steady_gups"] / bound, "wire_bytes_model": wire_model,
                         "wire_bytes_sim": wire_sim,
                         "ratio_sim_wire": result["steady_gups"] / (bound * wire_model / wire_sim),
                         "busiest_class": busiest.get("class", f"dimension {busiest.get('dimension', '-')}"),
                         "busiest_utilisation": busiest.get("max_utilisation"),
                         "verified": result.get("passed"), "wall_seconds": time.monotonic() - start})
            r = rows[-1]
            print(f"{machine} {nodes}: bound {bound:.4g} sim {r['sim_steady_gups']:.4g} ratio {r['ratio']:.3f} "
                  f"(with the simulated wire bytes {r['ratio_sim_wire']:.3f}), {r['wall_seconds']:.0f} s",
                  file=sys.stderr, flush=True)
    write(args, rows, commands)
    return 0


def command(args):
    return (f"python3 tests/benchmarks/network_bounds.py --nodes {args.nodes} --machines {args.machines} "
            f"--network {args.network}")


def summary(rows):
    """One line per machine: its ratios' range over the sizes, and what the model finds binding."""
    lines = []
    for machine in dict.fromkeys(r["machine"] for r in rows):
        mine = [r for r in rows if r["machine"] == machine]
        ratios = [r["ratio"] for r in mine]
        sizes = [r["nodes"] for r in mine]
        networks = "/".join(dict.fromkeys(r["network"] for r in mine))
        lines.append(f"- {machine} ({networks}): simulated / bound {min(ratios):.2f} to {max(ratios):.2f} "
                     f"at {min(sizes):,} to {max(sizes):,} nodes; busiest links "
                     f"{', '.join(dict.fromkeys(r['bottleneck'] for r in mine))}")
    return lines


def write(args, rows, commands):
    with open(os.path.join(args.out, "network-bounds.json"), "w", encoding="utf-8") as f:
        json.dump({"rows": rows, "commands": commands}, f, indent=1)
    lines = ["# Network bound against network-bound simulations", "", results.provenance(command(args)), "",
             f"multicore, one routing core per dimension and one updating core, links slowed until the model's "
             f"network bound is 1/{SLOWER} of its CPU bound, messages of the machine's packets (--mechanisms wire); "
             f"network level {args.network}; checksums verified.", "",
             "| machine | nodes | virtual torus | network | bound GUPS | busiest links (model) | simulated steady "
             "| sim / bound | wire bytes per update, model / sim | sim / bound at the simulated wire bytes "
             "| busiest links (simulated) | wall s |",
             "| --- | ---: | --- | --- | ---: | --- | ---: | ---: | --- | ---: | --- | ---: |"]
    for r in rows:
        used = "-" if r["busiest_utilisation"] is None else f"{100 * r['busiest_utilisation']:.0f}% busy"
        lines.append(f"| {r['machine']} | {r['nodes']} | {r['shape']} | {r['network']} | {r['bound_gups']:.4g} "
                     f"| {r['bottleneck']} | {r['sim_steady_gups']:.4g} | {r['ratio']:.3f} "
                     f"| {r['wire_bytes_model']:.1f} / {r['wire_bytes_sim']:.1f} | {r['ratio_sim_wire']:.3f} "
                     f"| {r['busiest_class']}, {used} | {r['wall_seconds']:.0f} |")
    lines += ["", f"Command: `{command(args)}`", "", "### Per network", ""] + summary(rows) + [""]
    with open(os.path.join(args.out, "network-bounds.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))  # noqa: the table, for a person at the terminal


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
