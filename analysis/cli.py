"""Command line: python3 -m analysis sweep|plot|report"""
import argparse
import os
import sys

from . import plot, report, results, sweep

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parser():
    p = argparse.ArgumentParser(prog="python3 -m analysis", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    for name in ("sweep", "plot", "report"):
        s = sub.add_parser(name)
        s.add_argument("--out", required=True, help="results folder")
        s.add_argument("--machine", default="bgp", help="machine name or path")
        s.add_argument("--source", default=ROOT, help=argparse.SUPPRESS)
        if name == "sweep":
            s.add_argument("--algorithms", default="multicore,routed")
            s.add_argument("--nodes", default="64,128,256,512", help="comma list")
            s.add_argument("--sources", default="model,sim", help="model, sim, measured (comma list)")
            s.add_argument("--repeat", type=int, default=1)
            s.add_argument("--updates-per-node", type=int, default=16384)
            s.add_argument("--costs", default="machine", choices=["machine", "zero", "measured"])
            s.add_argument("--log2-table", type=int, default=20, help="measured runs: table 2^N words")
            s.add_argument("--owners", default="division",
                           help="measured runs: division, predict or both (the paper's Table 3 experiment)")
            s.add_argument("--max-wall", type=float, default=0, help="simulations: wall budget each")
            s.add_argument("--build", default=os.path.join(ROOT, "build"))
    return p


def main(argv):
    args = parser().parse_args(argv)
    try:
        if args.command == "sweep":
            if args.repeat < 1:
                raise sweep.MissingBinary("--repeat must be at least 1")
            return sweep.sweep(args)
        if args.command == "plot":
            records = results.load_records(args.out)
            paths = plot.gups_plot(records, args.out, args.machine) + \
                plot.shares_plot(records, report.raw_documents(args.out), args.out)
            print("\n".join(paths))
            return 0
        return report.report(args)
    except (sweep.MissingBinary, OSError, ValueError) as error:
        print(f"analysis: error: {error}", file=sys.stderr)
        return 2
