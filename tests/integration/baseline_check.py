"""One baseline for model and simulation: gups-model's CPU bound (Eq. 7, or Eq. 1 for routed) against a simulation
of the same case where the model's assumptions hold, each bucket-size rule named on both sides.

The same case: the same machine, size and bucket sizes (the sizing rule, or the machine's reference sizes with the
paper-buckets mechanism and gups-model --buckets reference), sends injected as the DMA does (--mechanisms dma:
without it a send waits for its receive, which Eq. 7 does not have), and a network that cannot bind (links 1000
times faster, no latency). The simulation's steady state must be settled (its verdict; a run that is not runs
once more at the length the verdict names, up to four times the default) and its bucket size the model's; the ratio must be within --tolerance. Exit status 1 when a case is not; each case is one line.

ctest runs it at small sizes (model.baseline); as a benchmark over Table 4's sizes it writes its table with
--markdown (docs/measured/baseline.md):
    python3 tests/integration/baseline_check.py --build build --nodes 64,128,...,8192 --markdown F"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from analysis import results, study_tools  # noqa: E402  (provenance line, Markdown table)
from analysis.run import programs  # noqa: E402  (the programs' command lines)

RULES = {"sizing": "dma", "reference": "dma,paper-buckets"}
UNCONGESTED = ("--bandwidth-scale", "1000", "--zero-latency")
MAX_LENGTHENING = 4  # a run not settled at the default length runs once more, at most this many times as long


def model_row(build, machine, algorithm, nodes, rule, out):
    path = os.path.join(out, f"model-{machine}-{algorithm}-{nodes}-{rule}.json")
    subprocess.run(programs.model_command(programs.binary(build, "gups-model"), machine, algorithm, nodes,
                                          "--buckets", rule, "--json", path), check=True, capture_output=True)
    with open(path, encoding="utf-8") as f:
        return json.load(f)["results"][0]["rows"][0]


def simulate(build, machine, algorithm, nodes, rule, network, out, updates_per_node=None):
    path = os.path.join(out, f"sim-{machine}-{algorithm}-{nodes}-{rule}.json")
    command = programs.sim_command(programs.binary(build, "gups-sim"), machine, algorithm, nodes,
                                   "--mechanisms", RULES[rule], "--network", network, "--verify", "none",
                                   *UNCONGESTED, "--json", path)
    if updates_per_node:
        command += ["--updates-per-node", str(updates_per_node)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    with open(path, encoding="utf-8") as f:
        return json.load(f), " ".join(command[1:])


def check(args, machine, algorithm, nodes, rule, out):
    model = model_row(args.build, machine, algorithm, nodes, rule, out)
    start = time.monotonic()
    sim, command = simulate(args.build, machine, algorithm, nodes, rule, args.network, out)
    verdict = sim.get("steady_verdict") or {}
    longer = verdict.get("settling_updates_per_node")
    if not verdict.get("settled") and longer and longer <= MAX_LENGTHENING * sim["simulation"]["updates_per_node"]:
        # Not settled at the default length: once more at the length its verdict names, as --converge would.
        sim, command = simulate(args.build, machine, algorithm, nodes, rule, args.network, out, longer)
        verdict = sim.get("steady_verdict") or {}
    ratio = sim["steady_gups"] / model["cpu_gups"]
    problems = []
    if sim["bucket_capacity"] != model["bucket_size"]:
        problems.append(f"bucket size {sim['bucket_capacity']} simulated, {model['bucket_size']} modelled")
    if not verdict.get("settled"):
        problems.append("steady state not settled: " + verdict.get("text", "no verdict"))
    if abs(ratio - 1) > args.tolerance:
        problems.append(f"{abs(ratio - 1):.2%} apart, more than {args.tolerance:.0%}")
    return {"machine": machine, "algorithm": algorithm, "nodes": nodes, "rule": rule,
            "bucket_size": model["bucket_size"], "model_gups": model["cpu_gups"], "sim_gups": sim["steady_gups"],
            "ratio": ratio, "settled": verdict.get("settled"), "standard_error": verdict.get("standard_error"),
            "updates_per_node": sim["simulation"]["updates_per_node"],
            "wall_seconds": time.monotonic() - start, "problems": problems, "command": command}


def line(r):
    head = (f"{r['algorithm']} on {r['machine']}, {r['nodes']} nodes, buckets by {r['rule']} ({r['bucket_size']}): "
            f"model {r['model_gups']:.4g}, uncongested simulation {r['sim_gups']:.4g}, ratio {r['ratio']:.4f}")
    return head + (": " + "; ".join(r["problems"]) if r["problems"] else ": agree")


def markdown(rows, args, wall):
    command = "python3 tests/integration/baseline_check.py " + " ".join(
        f"--{k.replace('_', '-')} {v}" for k, v in (("machine", args.machine), ("algorithm", args.algorithm),
                                                    ("nodes", args.nodes), ("rules", args.rules),
                                                    ("network", args.network), ("tolerance", args.tolerance)))
    lines = ["# Model and uncongested simulation, one baseline", "",
             results.provenance(command, done="Simulated and modelled") + f" {wall:.0f} s in all.", "",
             f"gups-model's CPU bound against gups-sim's steady state with sends injected as the DMA does "
             f"(`--mechanisms {RULES['sizing']}`, plus `paper-buckets` for the reference rule), links 1000 times "
             f"faster and no latency, `--network {args.network}`, the default run length (once more at the length "
             f"its verdict names when not settled, up to {MAX_LENGTHENING} times). Each row's bucket size is the "
             f"one both used.", "",
             ] + study_tools.table_lines(COLUMNS, rows)
    return "\n".join(lines) + "\n"


COLUMNS = [
    ("algorithm", False, lambda r: r["algorithm"]), ("machine", False, lambda r: r["machine"]),
    ("nodes", True, lambda r: f"{r['nodes']:,}"), ("bucket rule", False, lambda r: r["rule"]),
    ("bucket size", True, lambda r: r["bucket_size"]), ("model GUPS", True, lambda r: f"{r['model_gups']:.4g}"),
    ("simulated GUPS", True, lambda r: f"{r['sim_gups']:.4g}"), ("sim/model", True, lambda r: f"{r['ratio']:.4f}"),
    ("standard error", True, lambda r: "-" if r["standard_error"] is None else f"{r['standard_error']:.2%}"),
    ("settled", False, lambda r: "yes" if r["settled"] else "no"),
    ("updates per node", True, lambda r: f"{r['updates_per_node']:,}"),
    ("wall s", True, lambda r: f"{r['wall_seconds']:.0f}")]


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", required=True)
    p.add_argument("--machine", default="bgp")
    p.add_argument("--algorithm", default="multicore")
    p.add_argument("--nodes", default="64,128")
    p.add_argument("--rules", default="sizing,reference")
    p.add_argument("--network", default="flow")
    p.add_argument("--tolerance", type=float, default=0.01)
    p.add_argument("--markdown", help="write the table here (and its rows as JSON beside it)")
    args = p.parse_args(argv)
    try:
        sizes = [int(n) for n in args.nodes.split(",")]
    except ValueError:
        p.error(f"--nodes: not a comma list of node counts: {args.nodes!r}")
    rules = args.rules.split(",")
    if any(rule not in RULES for rule in rules):
        p.error(f"--rules: give some of {', '.join(RULES)}")
    start, rows = time.monotonic(), []
    with tempfile.TemporaryDirectory() as out:
        for nodes in sizes:
            for rule in rules:
                rows.append(check(args, args.machine, args.algorithm, nodes, rule, out))
                print(line(rows[-1]), flush=True)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(markdown(rows, args, time.monotonic() - start))
        with open(os.path.splitext(args.markdown)[0] + ".json", "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    return 1 if any(r["problems"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
