#!/usr/bin/env python3
"""HPCC's MPIRandomAccess (Debian's hpcc, the reference every site submits) beside gups on the same ranks and the
same table: interleaved repeats of HPCC, of HPCC's own hypercube algorithm (RA_SANDIA_OPT2, built from Debian's
source package by analysis/run/hpcc_sandia.py where it can be fetched; else one line says why and its row is left
out) and of every gups update algorithm, medians, each one's ratio to HPCC's, and HPCC's own verification checked.
Prints a Markdown table (tests/benchmarks/hpcc-peer.sh records it).

HPCC is run as analysis/run/hpcc.py runs it (the main job's too).

Usage: hpcc_peer.py --build BUILD [--ranks 2] [--log2-table 22] [--repeats 3] [--cache DIR]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from analysis.run import hpcc, hpcc_sandia  # noqa: E402
from analysis.run.launcher import MPI_ENV  # noqa: E402


def run_gups(build, ranks, log2_table, algorithm, folder):
    """gups's GUP/s from its JSON result (verified runs only)."""
    path = os.path.join(folder, f"gups-{algorithm}.json")
    command = [os.path.join(build, "kernel", "gups-mpirun"), "-np", str(ranks), os.path.join(build, "kernel", "gups"), "--algo", algorithm,
               "--log2-table", str(log2_table), "--json", path]
    if algorithm == "multicore":
        command += ["--cores-per-node", str(ranks)]
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, **MPI_ENV}, timeout=600)
    result = json.load(open(path, encoding="utf-8")) if done.returncode == 0 and os.path.exists(path) else {}
    if not result.get("passed"):
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return result["gups"], (result.get("host_load") or {}).get("others_cpu_share")


def main(args):
    if not hpcc.installed():
        sys.exit(f"hpcc_peer: hpcc is not installed ({hpcc.INSTALL_HINT}; tests/benchmarks/hpcc-peer.sh does)")
    n = hpcc.hpl_n(args.log2_table)
    sandia, why_not = hpcc_sandia.build(args.cache)
    if why_not:
        print(f"hpcc_peer: {why_not}; its row is left out", file=sys.stderr)
    folder = tempfile.mkdtemp(prefix="tg-hpcc-")
    hpcc.write_input(folder, args.log2_table, args.ranks)
    algorithms = ["direct", "routed", "multicore", "hypercube"] if args.ranks > 1 else ["direct", "routed", "hypercube"]
    peers = ["hpcc"] + (["hpcc-sandia"] if sandia else [])
    rates = {name: [] for name in peers + algorithms}
    loads = {name: [] for name in rates}  # the share of the host's cores others used during each run
    hpcc_runs = []
    try:
        for repeat in range(1, args.repeats + 1):
            print(f"hpcc_peer: repeat {repeat} of {args.repeats}", file=sys.stderr, flush=True)
            for peer in peers:
                hpcc_runs.append(hpcc.run(folder, args.ranks, MPI_ENV, sandia if peer == "hpcc-sandia" else "hpcc"))
                if hpcc_runs[-1]["sandia_opt2"] != (peer == "hpcc-sandia"):
                    sys.exit(f"hpcc_peer: {peer} ran {'Sandia' if hpcc_runs[-1]['sandia_opt2'] else 'the standard'} "
                             "algorithm (HPCC's summary, CPS_RA_SANDIA_OPT2)")
                rates[peer].append(hpcc_runs[-1]["GUPs"])
                loads[peer].append(hpcc_runs[-1]["others_cpu_share"])
            for algorithm in algorithms:
                rate, load = run_gups(args.build, args.ranks, args.log2_table, algorithm, folder)
                rates[algorithm].append(rate)
                loads[algorithm].append(load)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    words = {int(r["N"]) for r in hpcc_runs}
    if words != {2 ** args.log2_table}:
        sys.exit(f"hpcc_peer: HPCC's table was {sorted(words)} words, not 2^{args.log2_table}")
    verified = all(hpcc.verified(r) for r in hpcc_runs)
    base = statistics.median(rates["hpcc"])
    print(f"{args.ranks} ranks on this host, a table of 2^{args.log2_table} words, 4 updates per word, "
          f"{args.repeats} interleaved repeats; HPCC 1.5.0 (Debian), HPL N {n}; HPCC's verification: "
          f"{'passed' if verified else 'FAILED'} (errors at most "
          f"{100 * max(r['ErrorsFraction'] for r in hpcc_runs):.3g}% of the table).")
    print()
    print("HPCC's hypercube: " + ("Debian's hpcc 1.5.0 source package built with -DRA_SANDIA_OPT2 "
                                  "(analysis/run/hpcc_sandia.py); its summary says so (CPS_RA_SANDIA_OPT2=1)."
                                  if sandia else why_not + "."))
    print()
    print("| program | median GUP/s | min..max | ratio to HPCC | others' CPU share (most) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    labels = {"hpcc": "HPCC MPIRandomAccess", "hpcc-sandia": "HPCC MPIRandomAccess, RA_SANDIA_OPT2 (hypercube)",
              "direct": "gups --algo direct", "routed": "gups --algo routed",
              "multicore": f"gups --algo multicore --cores-per-node {args.ranks}", "hypercube": "gups --algo hypercube"}
    for name, values in rates.items():
        m = statistics.median(values)
        print(f"| {labels[name]} | {m:.4f} | {min(values):.4f}..{max(values):.4f} | {m / base:.2f}x | "
              f"{load_cell(loads[name])} |")
    busiest = max((v for values in loads.values() for v in values if v is not None), default=None)
    print()
    print("Others' CPU share: of this host's cores, what other processes used during a run (gups: its update "
          "phase, its JSON's host_load; HPCC: its whole run, read around it), the most over the repeats. "
          + (f"Above {BUSY_SHARE:.0%} (here up to {busiest:.0%}) a ratio says as much about the host as about the "
             "programs." if busiest is not None and busiest > BUSY_SHARE else
             f"All at most {BUSY_SHARE:.0%}: the host was quiet enough for the ratios."))
    return 0 if verified else 1


BUSY_SHARE = 0.10  # gups's own threshold (kernel/core/host_load.hpp, kBusyHostShare)


def load_cell(values):
    measured = [v for v in values if v is not None]
    return f"{100 * max(measured):.0f}%" if measured else "not measured"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--log2-table", type=int, default=22)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cache", default=hpcc_sandia.DEFAULT_CACHE,
                        help="where HPCC built with RA_SANDIA_OPT2 is kept (built once)")
    arguments = parser.parse_args()
    if arguments.ranks < 1 or arguments.repeats < 1 or not 10 <= arguments.log2_table <= 34:
        sys.exit("hpcc_peer: --ranks and --repeats at least 1, --log2-table 10 to 34")
    sys.exit(main(arguments))
