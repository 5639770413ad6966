#!/usr/bin/env python3
"""HPCC's MPIRandomAccess (Debian's hpcc, the reference every site submits) beside gups on the same ranks and the
same table: interleaved repeats of HPCC and of gups --algo direct, routed and multicore, medians, each one's ratio
to HPCC's, and HPCC's own verification checked. Prints a Markdown table (tests/benchmarks/hpcc-peer.sh records it).

HPCC sizes its table from HPL's matrix: the largest power of two <= N^2 words, so N = 2^ceil(k/2) gives 2^k words;
every other HPCC test runs too, at that small N, and is ignored here. Updates: 4 per word in both.

Usage: hpcc_peer.py --build BUILD [--ranks 2] [--log2-table 22] [--repeats 3] [--out DIR]
"""
import argparse
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_btl_vader_single_copy_mechanism": "none"}
EXAMPLE_INPUT = "/usr/share/doc/hpcc/examples/_hpccinf.txt"


def hpcc_input(n, ranks):
    """Debian's example input with HPL's N and a 1 x ranks grid."""
    lines = open(EXAMPLE_INPUT, encoding="utf-8").read().splitlines()
    values = {5: str(n), 10: "1", 11: str(ranks)}  # line numbers (0-based) of Ns, Ps, Qs
    for index, value in values.items():
        lines[index] = f"{value:<13}{lines[index][13:]}"
    return "\n".join(lines) + "\n"


def run_hpcc(folder, ranks):
    output = os.path.join(folder, "hpccoutf.txt")
    if os.path.exists(output):
        os.remove(output)
    done = subprocess.run(["mpirun", "--oversubscribe", "-np", str(ranks), "hpcc"], cwd=folder, capture_output=True,
                          text=True, env={**os.environ, **MPI_ENV}, timeout=600)
    if done.returncode != 0 or not os.path.exists(output):
        raise RuntimeError(f"hpcc failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    text = open(output, encoding="utf-8").read()
    summary = dict(re.findall(r"^(\w+)=(\S+)$", text.split("Begin of Summary section.", 1)[-1], re.M))
    return {key: float(summary[f"MPIRandomAccess_{key}"]) for key in ("N", "GUPs", "ErrorsFraction", "ExeUpdates")}


def run_gups(build, ranks, log2_table, algorithm):
    command = ["mpirun", "--oversubscribe", "-np", str(ranks), os.path.join(build, "kernel", "gups"), "--algo", algorithm,
               "--log2-table", str(log2_table)]
    if algorithm == "multicore":
        command += ["--cores-per-node", str(ranks)]
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, **MPI_ENV}, timeout=600)
    rate = re.search(r"^([\d.]+) Billion\(10\^9\) Updates +per second", done.stdout, re.M)
    if done.returncode != 0 or not rate or "(passed)" not in done.stdout:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return float(rate.group(1))


def main(args):
    if shutil.which("hpcc") is None:
        sys.exit("hpcc_peer: hpcc is not installed (Debian: apt install hpcc; tests/benchmarks/hpcc-peer.sh does)")
    n = 2 ** math.ceil(args.log2_table / 2)
    folder = tempfile.mkdtemp(prefix="tg-hpcc-")
    with open(os.path.join(folder, "hpccinf.txt"), "w", encoding="utf-8") as f:
        f.write(hpcc_input(n, args.ranks))
    algorithms = ["direct", "routed", "multicore"] if args.ranks > 1 else ["direct", "routed"]
    rates = {name: [] for name in ["hpcc"] + algorithms}
    hpcc_runs = []
    try:
        for repeat in range(1, args.repeats + 1):
            print(f"hpcc_peer: repeat {repeat} of {args.repeats}", file=sys.stderr, flush=True)
            hpcc_runs.append(run_hpcc(folder, args.ranks))
            rates["hpcc"].append(hpcc_runs[-1]["GUPs"])
            for algorithm in algorithms:
                rates[algorithm].append(run_gups(args.build, args.ranks, args.log2_table, algorithm))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    words = {int(r["N"]) for r in hpcc_runs}
    if words != {2 ** args.log2_table}:
        sys.exit(f"hpcc_peer: HPCC's table was {sorted(words)} words, not 2^{args.log2_table}")
    verified = all(r["ErrorsFraction"] <= 0.01 for r in hpcc_runs)  # HPCC's own pass mark: at most 1% errors
    base = statistics.median(rates["hpcc"])
    print(f"{args.ranks} ranks on this host, a table of 2^{args.log2_table} words, 4 updates per word, "
          f"{args.repeats} interleaved repeats; HPCC 1.5.0 (Debian), HPL N {n}; HPCC's verification: "
          f"{'passed' if verified else 'FAILED'} (errors at most "
          f"{100 * max(r['ErrorsFraction'] for r in hpcc_runs):.3g}% of the table).")
    print()
    print("| program | median GUP/s | min..max | ratio to HPCC |")
    print("| --- | ---: | ---: | ---: |")
    labels = {"hpcc": "HPCC MPIRandomAccess", "direct": "gups --algo direct", "routed": "gups --algo routed",
              "multicore": f"gups --algo multicore --cores-per-node {args.ranks}"}
    for name, values in rates.items():
        m = statistics.median(values)
        print(f"| {labels[name]} | {m:.4f} | {min(values):.4f}..{max(values):.4f} | {m / base:.2f}x |")
    return 0 if verified else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--log2-table", type=int, default=22)
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    if arguments.ranks < 1 or arguments.repeats < 1 or not 10 <= arguments.log2_table <= 34:
        sys.exit("hpcc_peer: --ranks and --repeats at least 1, --log2-table 10 to 34")
    sys.exit(main(arguments))
