"""Blind tests of explain: seeded perturbations of one input of a worked machine, each column simulated with the
machine it changed, then explained with the original machine, which is not told what changed.

    python3 tests/benchmarks/explain_blind.py --build build --out DIR [--cases 20] [--seed 1]
        [--nodes 64,128,256,512,1024] [--sim-max-nodes 256] [--jobs 2]

Each case draws one input of bgp (the multi-core algorithm) and a factor from that input's stated range (RANGES;
some ranges change nothing measurable at these sizes on purpose). Its truth is the simulator's: a case changed
something when some size's perturbed steady state departs from the machine's own by more than its tolerance
(the larger of 1% and both runs' spreads). explain then runs as a user would (every candidate that applies,
`--converge`, its simulations up to --sim-max-nodes, the model beyond). Scored per case:

- named first: explain's first candidate is the input changed;
- among ties: the input is among the candidates the verdict says fit as well;
- value within 10%: at every size that changed, the law's value is within 10% of the one made, or the values
  giving the point include it;
- no change said: a case that changed nothing gets "nothing measurable";
- false positive: the verdict names a candidate and the input changed is not among them (or it changed nothing).

Writes DIR/blind.json (every case: the draw, the columns, explain's verdict and score), DIR/blind.md (the table
and the summary line) and each case's files under DIR/CASE/. Exits 1 if a case failed to run."""
import argparse
import concurrent.futures
import json
import math
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from analysis import explain  # noqa: E402
from analysis.explain import mechanisms as explain_mechanisms  # noqa: E402
from analysis.run import programs  # noqa: E402

MACHINE, ALGORITHM = "bgp", "multicore"
# Each input's factor range (drawn log-uniformly): costs from half to twice (a routing core's top binds from about
# 1.5x, core 3's at any rise); the links from a twentieth of their bandwidth (binding) to all of it (14-29% busy at
# these sizes: no change); link latency, whose moves change nothing measurable here; a reception FIFO of 4 to 64
# messages (the machine's is unbounded).
RANGES = {
    "top0": (0.5, 2.0), "top1": (0.5, 2.0), "top2": (0.5, 2.0), "top3": (0.5, 2.0),
    "update": (0.7, 1.4), "send_call": (0.5, 4.0), "receive_call": (0.5, 2.0),
    "link_bandwidth": (0.05, 1.0), "link_latency": (0.5, 4.0), "reception_fifo": (4 / 1024, 64 / 1024),
}
TOLERANCE = 0.01


def draws(count, seed):
    """The cases: (input, factor), seeded."""
    rng = random.Random(seed)
    names = sorted(RANGES)
    cases = []
    for _ in range(count):
        name = rng.choice(names)
        low, high = RANGES[name]
        cases.append((name, math.exp(rng.uniform(math.log(low), math.log(high)))))
    return cases


def simulate(build, machine, mechanism, value, nodes, out, name):
    """Steady GUPS and its spread of one run: the machine as given (mechanism None) or with one input moved."""
    variant = machine if mechanism is None else mechanism.applied(machine, value)
    path = programs.write_machine(variant, os.path.join(out, f"machine-{name}.json"))
    result = os.path.join(out, f"sim-{name}.json")
    command = explain.simulation_command(programs.binary(build, "gups-sim"), path,
                                         programs.variant(build, ALGORITHM), nodes, "division", "auto", machine,
                                         result, converge=True)
    if mechanism is not None:
        command += mechanism.sim_options(value)
    status, document, err = explain.simulated(command, result)
    if document is None:
        raise RuntimeError(f"the simulation {name} failed ({status}): {err[-300:]}")
    return document["steady_gups"], document["steady_spread"] * document["steady_gups"]


def nominal_column(build, machine, nodes, out):
    """The machine as given at every size, simulated once for every case (cached in out/nominal.json)."""
    path = os.path.join(out, "nominal.json")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            cached = {int(k): tuple(v) for k, v in json.load(f).items()}
        if all(n in cached for n in nodes):
            return cached
    os.makedirs(os.path.join(out, "nominal"), exist_ok=True)
    column = {n: simulate(build, machine, None, None, n, os.path.join(out, "nominal"), str(n)) for n in nodes}
    with open(path, "w", encoding="utf-8") as f:
        json.dump({str(n): list(v) for n, v in column.items()}, f)
    return column


def run_case(index, name, factor, args, machine, nominal):
    mechanism = explain_mechanisms.MECHANISMS[name]
    made = mechanism.nominal(machine) * factor
    if mechanism.integer:
        made = float(max(1, round(made)))
    folder = os.path.join(args.out, f"case-{index:02d}-{name}")
    os.makedirs(folder, exist_ok=True)
    column = {n: simulate(args.build, machine, mechanism, made, n, folder, f"made-{n}") for n in args.nodes}
    measured = os.path.join(folder, "measured.csv")
    with open(measured, "w", encoding="utf-8") as f:
        f.write("nodes,gups,spread\n" + "".join(f"{n},{g!r},{s!r}\n" for n, (g, s) in column.items()))
    changed = {n: abs(g / nominal[n][0] - 1) > max(TOLERANCE, (s + nominal[n][1]) / nominal[n][0])
               for n, (g, s) in column.items()}
    command = [sys.executable, "-m", "analysis", "explain", "--machine", MACHINE, "--algorithm", ALGORITHM,
               "--measured", measured, "--out", os.path.join(folder, "explain"), "--build", args.build,
               "--converge", "--wall-budget", "0", "--sim-max-nodes", str(args.sim_max_nodes)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"explain failed ({done.returncode}): {done.stderr[-500:]}")
    with open(os.path.join(folder, "explain", "explain.json"), encoding="utf-8") as f:
        document = json.load(f)
    return score(index, name, factor, made, mechanism, machine, column, nominal, changed, document, command)


def value_within(document, name, made, changed):
    """At every size that changed, the law's value within 10% of the one made, or the range giving the point
    includes it."""
    entry = next((m for m in document["mechanisms"] if m["mechanism"] == name), None)
    if entry is None or entry["law"] is None:
        return False, None
    values = {int(k): v for k, v in entry["law"]["values"].items()}
    points = {p["nodes"]: p for p in entry["points"]}
    def ok(n):
        v, p = values.get(n), points[n]
        if v is None:
            return False
        inside = p["low"] is not None and p["low"] <= made <= (math.inf if p["unbounded_above"] else p["high"])
        return abs(v / made - 1) <= 0.10 or inside
    sizes = [n for n, moved in changed.items() if moved]
    largest = max(sizes, key=lambda n: abs(values.get(n, made) / made - 1)) if sizes else None
    return all(ok(n) for n in sizes), values.get(largest) if largest else None


def score(index, name, factor, made, mechanism, machine, column, nominal, changed, document, command):
    named = document["explained_by"]
    moved = any(changed.values())
    within, found = value_within(document, name, made, changed) if moved else (False, None)
    result = {
        "case": index, "input": name, "fields": mechanism.fields(machine), "factor": factor, "made": made,
        "nominal": mechanism.nominal(machine), "changed_sizes": [n for n, c in changed.items() if c],
        "column": {str(n): g for n, (g, _) in column.items()},
        "departure": {str(n): g / nominal[n][0] - 1 for n, (g, _) in column.items()},
        "verdict": document["verdict"], "explained_by": named, "found_value": found,
        "nothing_measurable_said": document.get("nothing_measurable", False),
        "named_first": moved and named[:1] == [name], "among_ties": moved and name in named,
        "value_within_10": moved and name in named and within,
        "explain_command": " ".join(command[1:]), "explain_wall_s": document["wall_seconds"],
    }
    result["false_positive"] = bool(named) and (not moved or name not in named)
    result["passed"] = (result["value_within_10"] if moved else result["nothing_measurable_said"]) and \
        not result["false_positive"]
    return result


def table(results, args):
    lines = ["| case | input changed | factor | sizes moved | largest departure | explain names | value found "
             "(made) | first | in ties | value ≤10% | no change said | false positive | passed |",
             "| ---: | --- | ---: | --- | ---: | --- | --- | --- | --- | --- | --- | --- | --- |"]
    yes = {True: "yes", False: "-"}
    for r in results:
        departure = max(r["departure"].values(), key=abs)
        moved = ", ".join(map(str, r["changed_sizes"])) or "none"
        found = "-" if r["found_value"] is None else f"{r['found_value']:.4g} ({r['made']:.4g})"
        lines.append(f"| {r['case']} | {r['input']} | {r['factor']:.3g} | {moved} | {100 * departure:+.1f}% | "
                     f"{', '.join(r['explained_by']) or ('nothing measurable' if r['nothing_measurable_said'] else 'none')} | "
                     f"{found} | {yes[r['named_first']]} | {yes[r['among_ties']]} | {yes[r['value_within_10']]} | "
                     f"{yes[r['nothing_measurable_said']] if not r['changed_sizes'] else 'n/a'} | "
                     f"{'YES' if r['false_positive'] else '-'} | {yes[r['passed']]} |")
    changed = [r for r in results if r["changed_sizes"]]
    quiet = [r for r in results if not r["changed_sizes"]]
    summary = (f"blind tests: {sum(r['passed'] for r in results)} of {len(results)} passed; of {len(changed)} that "
               f"changed the column, {sum(r['named_first'] for r in changed)} named first, "
               f"{sum(r['among_ties'] for r in changed)} among the stated ties, "
               f"{sum(r['value_within_10'] for r in changed)} with the value within 10%; of {len(quiet)} that "
               f"changed nothing measurable, {sum(r['nothing_measurable_said'] for r in quiet)} said so; "
               f"{sum(r['false_positive'] for r in results)} false positives")
    return lines, summary


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--out", required=True)
    p.add_argument("--cases", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--nodes", default="64,128,256,512,1024")
    p.add_argument("--sim-max-nodes", type=int, default=256)
    p.add_argument("--jobs", type=int, default=1, help="cases run at once")
    p.add_argument("--require", type=int, default=None, help="exit 1 unless at least this many cases pass and "
                   "none is a false positive")
    args = p.parse_args()
    args.nodes = [int(n) for n in args.nodes.split(",")]
    if args.cases < 1 or args.jobs < 1:
        p.error("--cases and --jobs must be at least 1")
    os.makedirs(args.out, exist_ok=True)
    machine = programs.load_machine(MACHINE, args.build)
    print(f"explain blind tests: {args.cases} cases, seed {args.seed}, {ALGORITHM} on {MACHINE} at "
          f"{', '.join(map(str, args.nodes))} nodes (explain simulates up to {args.sim_max_nodes})", file=sys.stderr)
    nominal = nominal_column(args.build, machine, args.nodes, args.out)
    cases = draws(args.cases, args.seed)
    results = [None] * len(cases)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(run_case, i + 1, name, factor, args, machine, nominal): i
                   for i, (name, factor) in enumerate(cases)}
        for future in concurrent.futures.as_completed(futures):
            i = futures[future]
            try:
                results[i] = future.result()
            except RuntimeError as error:
                sys.exit(f"explain_blind: case {i + 1} ({cases[i][0]} x {cases[i][1]:.3g}): {error}")
            r = results[i]
            print(f"case {i + 1}: {r['input']} x {r['factor']:.3g}: {'passed' if r['passed'] else 'FAILED'}; "
                  f"explain: {r['verdict'][:160]}", file=sys.stderr, flush=True)
    lines, summary = table(results, args)
    command = (f"python3 tests/benchmarks/explain_blind.py --out {args.out} --cases {args.cases} --seed {args.seed} "
               f"--nodes {','.join(map(str, args.nodes))} --sim-max-nodes {args.sim_max_nodes}")
    with open(os.path.join(args.out, "blind.json"), "w", encoding="utf-8") as f:
        json.dump({"command": command, "summary": summary, "nominal": {str(n): v for n, v in nominal.items()},
                   "ranges": RANGES, "cases": results}, f, indent=1)
    text = "\n".join(lines + ["", summary + "."])
    with open(os.path.join(args.out, "blind.md"), "w", encoding="utf-8") as f:
        f.write(text + "\n")
    print(text)
    failed = sum(r["false_positive"] for r in results) or \
        (args.require is not None and sum(r["passed"] for r in results) < args.require)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
