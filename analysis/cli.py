"""Command line: python3 -m analysis sweep|plot|report|study|main|table2|explain|apexmap|probes"""
import argparse
import os
import sys

from . import apexmap, explain, probes, report, results, whatif
from .explain import mechanisms as explain_mechanisms
from .paper import main_job, study, sweep, table2
from .report import plot
from .run import launcher, programs, slurm

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The arguments that name one update algorithm, and what it must have (gups-topology --variants' fields): checked
# against the build's table of variants (kernel/core/variants.def), not a list kept here.
ALGORITHM_ARGUMENTS = {"study": {}, "probes": {}, "explain": {"routes_over_torus": True}}


def check_algorithm(args):
    needs = ALGORITHM_ARGUMENTS.get(args.command)
    if needs is None or getattr(args, "algorithm", None) is None:
        return
    try:
        known = programs.variant_names(args.build, "update algorithm", **needs)
    except programs.MissingBinary:
        return  # without a build, the run that needs one says so
    # A what-if study may follow the mode planner's choice at each point instead.
    if getattr(args, "which", None) == "whatif":
        known = known + ["chosen"]
    if args.algorithm not in known:
        raise ValueError(f"--algorithm: unknown '{args.algorithm}' here (give {', '.join(known)})")


class OneLineParser(argparse.ArgumentParser):
    """A bad command line is one line with the prefix of every other error of the analysis (argparse prints the
    usage first, under the subcommand's own prefix)."""

    def error(self, message):
        self.exit(2, f"analysis: error: {message} ({self.prog} --help)\n")


def add_sweep_plot_report_parser(sub):
    """sweep, plot and report: one results folder."""
    for name in ("sweep", "plot", "report"):
        s = sub.add_parser(name)
        s.add_argument("--out", required=True, help="results folder")
        s.add_argument("--machine", default="bgp", help="machine name or path")
        s.add_argument("--source", default=ROOT, help=argparse.SUPPRESS)
        s.add_argument("--build", default=os.path.join(ROOT, "build"), help="the build (its gups-topology reads machines)")
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
            s.add_argument("--nodes-per-host", default="fill",
                           help="measured runs: torus nodes placed on one host (default fill: as many as its cores "
                                "hold); model and simulation place them alike")
            s.add_argument("--resume", action="store_true",
                           help="keep the runs whose finished results are in OUT/raw (same command), run the rest")
            s.add_argument("--allow-skips", action="store_true",
                           help="exit 0 when measured runs that need more cores or nodes than there are were not "
                                "run (default: the last line names them and the sweep exits 3)")
            slurm.add_arguments(s)


def add_main_parser(sub):
    """analysis main."""
    s = sub.add_parser("main", help="the main job after the builds: this host validated, Table 3 and Table 4 "
                                    "predicted within a wall budget, and the report (analysis/main-job.sh)")
    s.add_argument("--out", default=os.path.join(ROOT, "results", "main"), help="results folder")
    s.add_argument("--budget", type=float, default=600, help="seconds for the whole job (default 600)")
    # Three repeats give a spread; 2^22 words (32 MiB) is past a host's caches, as HPCC intends.
    s.add_argument("--host-repeats", type=int, default=3, help="this host: repeats of each run")
    s.add_argument("--host-log2-table", type=int, default=22, help="this host: measured table of 2^N words")
    s.add_argument("--host-updates-per-node", type=int, default=65536, help="this host: simulated updates per node")
    s.add_argument("--no-hpcc-hypercube", action="store_true",
                   help="this host: leave out HPCC's own hypercube (built once from Debian's hpcc source with "
                        "-DRA_SANDIA_OPT2 where OpenBLAS is installed; else the report says why not)")
    s.add_argument("--build", default=os.path.join(ROOT, "build"))


def add_study_parser(sub):
    """analysis study."""
    s = sub.add_parser("study", help="the paper's Table 4 or Table 3, predicted by gups-model and gups-sim; "
                                     "whatif: any machine-file field varied, modelled and simulated")
    s.add_argument("which", choices=["table4", "table3", "whatif"])
    s.add_argument("--out", required=True, help="results folder")
    s.add_argument("--machine", default="bgp", help="table3, whatif: machine name or path")
    s.add_argument("--nodes", help="comma list (table4: 64 up to --max-nodes; table3: 96,192,384,768; whatif: 1024)")
    s.add_argument("--field", help="whatif: the machine-file field to vary, dotted (torus.link_bandwidth_bytes_per_s, "
                                   "cores_per_node, costs_cycles.update), or 'machine' to compare machine files")
    s.add_argument("--values", help="whatif: comma list of values, factors of the machine's (x2), a doubling range "
                                    "of factors (x0.25..x4), or machine names with --field machine")
    s.add_argument("--field2", help="whatif: a second field, for a grid of both (a heat map)")
    s.add_argument("--values2", help="whatif: the second field's values, as --values")
    s.add_argument("--algorithm", default="multicore", help="whatif: the update algorithm (default multicore), or chosen: at each point the "
                        "mode planner's chosen placement (algorithm, processes or groups a node, role plan), "
                        "modelled and simulated")
    s.add_argument("--mechanisms", default="wire",
                   help="whatif: gups-sim's mechanisms (default wire: messages of the machine's packets, the bytes "
                        "the model's network bound counts)")
    s.add_argument("--max-nodes", type=int, default=4096,
                   help="table4: largest size (default 4096; 8192 and up take minutes to hours each here)")
    s.add_argument("--algorithms", default="multicore,routed", help="table4: multicore, routed (comma list)")
    s.add_argument("--divide-cycles", help="table3: divide costs to simulate (comma list; default the machine's)")
    s.add_argument("--no-neighbours", dest="neighbours", action="store_false",
                   help="table3: leave out the powers of two around each size")
    s.add_argument("--model-only", action="store_true", help="gups-model only, no simulation")
    s.add_argument("--ends", action="store_true",
                   help="table4, whatif: also simulate each size (each point) at the model's low and high ends "
                        "(gups-sim --inputs low, high: every ranged input, the wrap-around too, at the side that "
                        "lowers or raises the bound): each simulated figure with its simulated range, three runs a "
                        "size")
    s.add_argument("--wraps", action="store_true",
                   help="table4: where the machine file leaves the wrap-around unknown at a size (torus."
                        "mesh_below_nodes with both values), also simulate it with no wrap-around link (gups-sim "
                        "--wrap mesh) beside the torus; the model gives both either way")
    s.add_argument("--updates-per-node", type=int, default=0, help="simulations (default: gups-sim's, at least 8192)")
    s.add_argument("--max-wall", type=float, default=0, help="simulations: wall budget each")
    s.add_argument("--reception-fifo", type=int, default=0,
                   help="simulations: messages a core's channel holds before DMA sends to it wait (0: unbounded)")
    s.add_argument("--converge", action="store_true",
                   help="simulations: run each until its steady state is settled, in one run (gups-sim --converge)")
    s.add_argument("--wall-budget", type=float, default=0,
                   help="table4: seconds for the whole study; a size that would end past it, and every larger "
                        "one, is modelled but not simulated (0: no limit)")
    s.add_argument("--jobs", type=int, default=1, help="table4, whatif: simulations run side by side (one core each)")
    s.add_argument("--network", default="auto",
                   help="simulations: network level, as gups-topology --network-levels lists them, or auto (default "
                        "auto: gups-topology's rule by size; each row names the level that gave it)")
    s.add_argument("--resume", action="store_true",
                   help="keep the runs whose finished results are in OUT/raw (same command), run the rest")
    s.add_argument("--beside", help="table4: another table4 study's folder (at another network level, say): its "
                                    "simulated steady state beside this one's, row by row, where the shape is the same")
    slurm.add_arguments(s)
    s.add_argument("--source", default=ROOT, help=argparse.SUPPRESS)
    s.add_argument("--build", default=os.path.join(ROOT, "build"))


def add_table2_parser(sub):
    """analysis table2."""
    s = sub.add_parser("table2", help="the paper's Table 2 on this host: threads sharing one table, lost updates "
                                      "and the rate by protection (gups-shared-table)")
    s.add_argument("--out", required=True, help="results folder")
    s.add_argument("--log2-table", type=int, default=24, help="table of 2^N words (default 24: the paper's 16M)")
    s.add_argument("--updates-per-word", default="2,4,8,16,32",
                   help="(a): comma list (default: the paper's 32M to 512M updates on 16M words)")
    s.add_argument("--error-runs", type=int, default=10, help="(a): runs of each size")
    s.add_argument("--rate-runs", type=int, default=5, help="(b): runs of each case")
    s.add_argument("--threads", type=int, default=0, help="k (default: the cores this process may use)")
    s.add_argument("--build", default=os.path.join(ROOT, "build"))


def add_explain_parser(sub):
    """analysis explain."""
    s = sub.add_parser("explain", help="which mechanism, at which value, accounts for a measured GUPS column "
                                        "(the model inverted, then confirmed by simulation)")
    s.add_argument("--machine", default="bgp", help="machine name or path")
    s.add_argument("--algorithm", default="multicore",
                   help="an update algorithm that routes over the torus (default multicore)")
    s.add_argument("--measured", required=True, help="CSV with a header: nodes,gups[,spread] (spread in GUPS)")
    s.add_argument("--mechanisms", default="all",
                   help="comma list of candidates (default all that apply): " + ", ".join(explain_mechanisms.MECHANISMS))
    s.add_argument("--out", default=os.path.join("results", "explain"), help="results folder")
    s.add_argument("--tolerance", type=float, default=0.01,
                   help="relative GUPS error a point allows at least (default 0.01; a point's spread or printed "
                        "precision may allow more)")
    s.add_argument("--owner", default="division", choices=["division", "predict"])
    s.add_argument("--network", default="auto",
                   help="simulations: network level, as gups-topology --network-levels lists them, or auto (default "
                        "auto, as the study)")
    s.add_argument("--no-simulation", action="store_true", help="the model only")
    s.add_argument("--search", action="store_true",
                   help="search the candidates even where every measured point lies within the model's interval "
                        "over the machine file's input ranges (by default such a column needs no mechanism)")
    s.add_argument("--sim-max-nodes", type=int, default=65536, help="simulate sizes up to this many nodes")
    s.add_argument("--sim-steps", type=int, default=3, help="simulations per mechanism and size at most (default 3)")
    s.add_argument("--updates-per-node", type=int, default=0,
                   help="simulations: updates each node generates (default 0: gups-sim's length, as the study's)")
    s.add_argument("--converge", action="store_true",
                   help="simulations: run each until its steady state is settled, in one run (gups-sim --converge)")
    s.add_argument("--wall-budget", type=float, default=600,
                   help="seconds for the whole command; a size whose simulations would end past it is left to the "
                        "model (default 600; 0: no limit)")
    s.add_argument("--build", default=os.path.join(ROOT, "build"))


def add_apexmap_parser(sub):
    """analysis apexmap."""
    s = sub.add_parser("apexmap", help="Apex-Map's (alpha, L) surfaces measured on this host, simulated on a machine and "
                                        "modelled: two-sided MPI against one-sided MPI-3, and the uniform "
                                        "single-word corner beside RandomAccess")
    s.add_argument("--out", required=True, help="results folder")
    s.add_argument("--algorithms", default="apex-map-mpi,apex-map-rma", help="comma list")
    s.add_argument("--alphas", default=",".join(f"{a:g}" for a in apexmap.ALPHAS), help="comma list, each in (0, 1]")
    s.add_argument("--blocks", default=",".join(str(b) for b in apexmap.BLOCKS), help="L values, comma list")
    s.add_argument("--ranks", type=int, default=0, help="MPI ranks (default: this host's cores)")
    s.add_argument("--memory-words", type=int, default=0, help="M (default: 2^20 words per rank)")
    s.add_argument("--indices", type=int, default=0,
                   help=f"I per point (default: {apexmap.WORDS_PER_REPETITION:,} / L within {apexmap.INDEX_RANGE})")
    s.add_argument("--repeats", type=int, default=3, help="N per point (default 3)")
    s.add_argument("--sources", default="measured", help="measured, sim, model (comma list; default measured)")
    s.add_argument("--machine", default="bgp", help="sim and model: machine name or path (default bgp)")
    s.add_argument("--nodes", type=int, default=512, help="sim and model: nodes, one process each (default 512)")
    s.add_argument("--network", default="queue",
                   help="sim: network level, as gups-topology --network-levels lists them (default queue: flow takes "
                        "hours at 512 nodes where L is large)")
    s.add_argument("--against", help="another run's folder: this run's surfaces over its, point by point (one machine "
                                     "against another, one network level against another)")
    s.add_argument("--resume", action="store_true", help="keep the points whose finished results are in OUT/raw")
    s.add_argument("--build", default=os.path.join(ROOT, "build"))


def add_probes_parser(sub):
    """analysis probes."""
    s = sub.add_parser("probes", help="the global-exchange probes (bisection, exchange, all-to-all) measured on this "
                                       "host and simulated on a machine: bandwidth by message size, the all-to-all's "
                                       "share of its peak by shape, the measured B in the network bound")
    s.add_argument("--out", required=True, help="results folder")
    s.add_argument("--probes", help="comma list (default: every global-exchange probe of gups-topology --variants)")
    s.add_argument("--sources", default="measured,sim", help="measured, sim (comma list; default both)")
    s.add_argument("--ranks", type=int, default=0, help="measured: MPI ranks (default: this host's cores)")
    s.add_argument("--machine", default="bgp", help="sim: machine name or path (default bgp)")
    s.add_argument("--nodes", default="512", help="sim: node counts, a comma list, mapped by --shape-rule (default 512)")
    s.add_argument("--shape-rule", default="machine", choices=["machine", "balanced"])
    s.add_argument("--shapes", help="sim: shapes instead of --nodes, a comma list such as 8x8x8,4x8x16")
    s.add_argument("--levels", default="queue,packet", help="sim: network levels, a comma list (default queue,packet)")
    s.add_argument("--sim-bisection-sizes", default=probes.SIM_BISECTION_SIZES,
                   help=f"sim: the bisection's message sizes (default {probes.SIM_BISECTION_SIZES})")
    s.add_argument("--host-machine",
                   help="measured: this host's machine file (gups-calibrate's, such as results/main/host/host.json), "
                        "so that the host's bisection goes into its model's 4B/b too")
    s.add_argument("--sim-exchange-sizes", default=probes.SIM_EXCHANGE_SIZES,
                   help=f"sim: the exchange's message sizes, {probes.SIM_EXCHANGE_REPEATS} repetitions each (default "
                        f"{probes.SIM_EXCHANGE_SIZES})")
    s.add_argument("--sweep-max-nodes", type=int, default=probes.SWEEP_MAX_NODES,
                   help=f"sim: the exchange and the all-to-all up to this many nodes (default {probes.SWEEP_MAX_NODES})")
    s.add_argument("--algorithm", default="multicore",
                   help="the model's network bound 4B/b for this update algorithm's bytes per update (default multicore)")
    s.add_argument("--resume", action="store_true", help="keep the results whose finished JSON is in OUT/raw")
    s.add_argument("--build", default=os.path.join(ROOT, "build"))


def add_task_parser(sub):
    """analysis task."""
    s = sub.add_parser("task", help=argparse.SUPPRESS)  # one task of a Slurm array: TASKS.json INDEX
    s.add_argument("file")
    s.add_argument("index", type=int)


def parser():
    p = OneLineParser(prog="python3 -m analysis", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    add_sweep_plot_report_parser(sub)
    add_main_parser(sub)
    add_study_parser(sub)
    add_table2_parser(sub)
    add_explain_parser(sub)
    add_apexmap_parser(sub)
    add_probes_parser(sub)
    add_task_parser(sub)
    return p


def main(argv):
    args = parser().parse_args(argv)
    try:
        if getattr(args, "network", "auto") != "auto":
            programs.check_network_level(args.build, args.network)
        check_algorithm(args)
        if args.command == "task":
            return launcher.task_main([args.file, args.index])
        if args.command == "sweep":
            if args.repeat < 1:
                raise programs.MissingBinary("--repeat must be at least 1")
            return sweep.sweep(args)
        if args.command == "study":
            return whatif.whatif(args) if args.which == "whatif" else study.study(args)
        if args.command == "main":
            return main_job.main_job(args, main)
        if args.command == "explain":
            return explain.explain(args)
        if args.command == "apexmap":
            return apexmap.apexmap(args)
        if args.command == "probes":
            args.argv = argv
            return probes.probes(args)
        if args.command == "table2":
            if min(args.error_runs, args.rate_runs) < 1 or not 1 <= args.log2_table <= 40 or args.threads < 0:
                raise ValueError("--error-runs and --rate-runs must be at least 1, --log2-table 1 to 40, "
                                 "--threads at least 0")
            return table2.table2(args)
        if args.command == "plot":
            records = results.load_records(args.out)
            paths = plot.gups_plot(records, args.out, args.machine) + \
                plot.shares_plot(records, report.raw_documents(args.out), args.out)
            print("\n".join(paths))
            return 0
        return report.report(args)
    except (programs.MissingBinary, OSError, ValueError) as error:
        print(f"analysis: error: {error}", file=sys.stderr)
        return 2


def entry():
    """python3 -m analysis, and the installed torus-gups-analysis command."""
    try:
        status = main(sys.argv[1:])
    except BrokenPipeError:  # its reader left (| head): quiet, as a C program its SIGPIPE ends
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 141
    sys.exit(status)
