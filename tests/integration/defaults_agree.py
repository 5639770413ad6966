#!/usr/bin/env python3
"""The programs with their defaults: gups-model and an uncongested gups-sim (links 1000 times faster, no
latency) on the same machine agree within 1%, or the simulation states beside its figure where it assumes
otherwise, and then, with what it names, agrees within 1% and settled (a balanced plan, stated, may fall up to 3%
below); gups-sim follows gups-model's role plan,
and gups (real MPI, no machine file) follows the plan gups-model gives a machine file that names none.

    defaults_agree.py --build BUILD --source SOURCE [--machines bgp,bgq] [--nodes 64]

Prints a line per check; exit status 1 when one fails.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

TOLERANCE = 0.01
# A balanced plan (several cores bind at once, which the simulation states) may fall this far below the model:
# each core's waits for input are throughput the bound does not count. Never above it by more than TOLERANCE.
BALANCED_SHORTFALL = 0.03
BALANCED = "within 2% of the slowest"
UNCONGESTED = ["--bandwidth-scale", "1000", "--zero-latency"]
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_btl_vader_single_copy_mechanism": "none"}


def run_json(command, path):
    done = subprocess.run(command + ["--json", path], capture_output=True, text=True,
                          env={**os.environ, **MPI_ENV}, timeout=900)
    if done.returncode != 0:
        raise SystemExit(f"defaults_agree: {' '.join(command)} failed ({done.returncode}): {done.stderr[-400:]}")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def model_row(build, machine, work, *options):
    document = run_json([os.path.join(build, "models", "gups-model"), "--machine", machine, "--algorithm",
                         "multicore", *options], os.path.join(work, "model.json"))
    return document["results"][0]["rows"][0]


def simulated(build, machine, nodes, work, *options):
    return run_json([os.path.join(build, "sim", "gups-sim"), "--machine", machine, "--nodes", str(nodes), "--quiet",
                     *UNCONGESTED, *options], os.path.join(work, "sim.json"))


def settled(result):
    return (result.get("steady_verdict") or {}).get("settled") is True


def check_machine(build, machine, nodes, work):
    """Problems of one machine's defaults (empty: none)."""
    problems = []
    model = model_row(build, machine, work, "--nodes", str(nodes))
    sim = simulated(build, machine, nodes, work)
    ratio = sim["steady_gups"] / model["gups"]
    stated = sim.get("against_model") or []
    print(f"defaults_agree: {machine} {nodes} nodes, defaults: model {model['gups']:.4g} GUPS ({model['role_plan']}), "
          f"simulated {sim['steady_gups']:.4g} ({sim.get('role_plan')}): {ratio:.4f}; stated: {stated or 'nothing'}")
    if sim.get("role_plan") != model["role_plan"]:
        problems.append(f"{machine}: gups-sim ran {sim.get('role_plan')}, gups-model planned {model['role_plan']}")
    if abs(ratio - 1) > TOLERANCE and not stated:
        problems.append(f"{machine}: {ratio:.4f} of the model and nothing stated beside the figure")
    if stated:
        # What the line names to simulate the model's assumptions: --mechanisms dma.
        matched = simulated(build, machine, nodes, work, "--mechanisms", "dma")
        matched_ratio = matched["steady_gups"] / model["gups"]
        print(f"defaults_agree: {machine} {nodes} nodes, --mechanisms dma as stated: {matched_ratio:.4f} of the "
              f"model, {'settled' if settled(matched) else 'NOT settled'}; stated: {matched.get('against_model')}")
        left = [line for line in matched.get("against_model") or [] if BALANCED not in line]
        balanced = len(left) < len(matched.get("against_model") or [])
        low = BALANCED_SHORTFALL if balanced else TOLERANCE
        if not 1 - low <= matched_ratio <= 1 + TOLERANCE or not settled(matched) or left:
            problems.append(f"{machine}: with --mechanisms dma {matched_ratio:.4f} of the model "
                            f"(settled: {settled(matched)}, stated: {matched.get('against_model')})")
    return problems


def check_kernel_plan(build, source, work):
    """gups's default plan against gups-model's for a 4-core node whose file names no plan."""
    with open(os.path.join(source, "models", "machines", "bgp.json"), encoding="utf-8") as f:
        machine = json.load(f)
    machine.pop("role_plan")
    machine["sources"].pop("role_plan", None)
    path = os.path.join(work, "no-plan.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(machine, f)
    model = model_row(build, path, work, "--shape", "1x1x1", "--cores-per-node", "4")
    kernel = run_json([os.path.join(build, "kernel", "gups-mpirun"), "-np", "4", os.path.join(build, "kernel", "gups"),
                       "--algo", "multicore", "--cores-per-node", "4", "--shape", "1x1x1", "--log2-table", "12"],
                      os.path.join(work, "gups.json"))
    print(f"defaults_agree: a file that names no role_plan: gups-model plans {model['role_plan']}, gups runs "
          f"{kernel.get('role_plan')}")
    return [] if kernel.get("role_plan") == model["role_plan"] else [
        f"gups ran {kernel.get('role_plan')}, gups-model planned {model['role_plan']}"]


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", required=True)
    p.add_argument("--source", required=True)
    p.add_argument("--machines", default="bgp,bgq")
    p.add_argument("--nodes", type=int, default=64)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="defaults-agree-") as work:
        problems = check_kernel_plan(args.build, args.source, work)
        for machine in args.machines.split(","):
            problems += check_machine(args.build, machine, args.nodes, work)
    for problem in problems:
        print(f"defaults_agree: FAIL {problem}")
    print(f"defaults_agree: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
