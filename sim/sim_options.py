"""gups-sim's command line: its options, the mechanisms and the probe's options it passes on, and the checks that
refuse a bad one (BadInput: one error line, exit 2)."""
import argparse
import os

from sim_convergence import SETTLED_TOLERANCE


class BadInput(Exception):
    pass




AUTO_LEVEL_HELP = "flow up to a size, queue above (gups-topology's rule: gups-topology --help)"


# A probe's options that gups-sim does not pass on: it writes the charges from the machine file itself, and
# --inject-errors is the probe's own testing aid. The others it does not have are passed on as given (the probe
# checks them), from the probes' own declarations (gups-topology --catalogue's program_options).
NOT_PASSED_ON = ("--charges", "--inject-errors")


class Catalogue:
    """What gups-topology --catalogue lists, asked once: the network levels (sim/levels/levels.def) and the program
    variants (kernel/core/variants.def), by family."""

    UPDATE, APEX_MAP, EXCHANGE = "update algorithm", "Apex-Map implementation", "global-exchange probe"
    # Each probe family's program, as program_options names it, and what the family is called in a sentence.
    PROBE_FAMILIES = {APEX_MAP: ("apex-map", "the Apex-Map probe"), EXCHANGE: ("exchange", "the global-exchange probes")}

    def __init__(self, document):
        self.levels = {level["name"]: level for level in document["network_levels"]}
        self.variants = document["variants"]
        self.default_updates_per_node = document["default_updates_per_node"]
        self.option_scopes = {row["option"]: row for row in document["option_scopes"]}
        self.renamed_options = document["renamed_options"]
        self.program_options = document["program_options"]
        # gups-sim --mechanisms: name -> {"help", "program", "option"} (kernel/core/operation_charges.cpp)
        self.mechanisms = {row["name"]: row for row in document["mechanisms"]}
        self.passed_on = {}  # option -> the probe families that take it, once parse_arguments has added them

    def names(self, *families):
        return tuple(v["name"] for v in self.variants if v["family"] in families)

    def variant(self, name):
        return next(v for v in self.variants if v["name"] == name)

    def names_with(self, trait):
        """The update algorithms with a trait of variants.def ("routes_over_torus", "specialised_cores")."""
        return tuple(v["name"] for v in self.variants if v["family"] == self.UPDATE and v[trait])

    def probes(self):
        """Every variant that is not an update algorithm."""
        return self.names(self.APEX_MAP, self.EXCHANGE)

    def exchange_probes(self):
        return self.names(self.EXCHANGE)

    def probe_options(self, family):
        """The rows of a probe family's own options ({"name", "help", ...}), in its parser's order."""
        return self.program_options[self.PROBE_FAMILIES[family][0]]

    def families_with(self, option):
        return [family for family in self.PROBE_FAMILIES if any(o["name"] == option for o in self.probe_options(family))]

    def gups_help(self, option):
        """gups's own help of an option gups-sim passes on under the same name (program_options.gups)."""
        return next(row["help"] for row in self.program_options["gups"] if row["name"] == option)

    def scope_help(self, gups_option):
        """"routed, multicore: " before the help of an option that becomes gups's `gups_option`."""
        return self.option_scopes[gups_option]["help"]

    def refuse_out_of_scope(self, gups_option, as_given, variant):
        """gups's refusal of `gups_option` (as this program's `as_given`) for a variant without its trait."""
        scope = self.option_scopes[gups_option]
        if not self.variant(variant)[scope["needs"]]:
            raise BadInput(scope["refusal"].format(option=as_given))

    def refuse_old_spellings(self, argv, parser):
        """The old names of options this parser has, and their old values, refused with a line naming the new
        (gups-topology's table: kernel/core/renamed_options.cpp): the parser's one-line error, exit status 2."""
        known = {option for action in parser._actions for option in action.option_strings}
        for row in self.renamed_options:
            if row["new_name"] not in known:
                continue
            old = row["old_name"]
            for i, argument in enumerate(argv):
                if argument != old and not argument.startswith(old + "="):
                    continue
                value = argument[len(old) + 1:] if argument != old else (argv[i + 1] if i + 1 < len(argv) else "")
                if not row["old_value"] or value == row["old_value"]:
                    parser.error(row["message"])


def add_probe_options(parser, catalogue):
    """The probes' options gups-sim does not have itself, one group per probe family, each option once (an option
    two families share in the first's group, its other help named in the second's title)."""
    own = {option for action in parser._actions for option in action.option_strings}
    added = {}
    for family, (_, label) in Catalogue.PROBE_FAMILIES.items():
        rows = [r for r in catalogue.probe_options(family) if r["name"] not in own and r["name"] not in NOT_PASSED_ON]
        shared = [r for r in rows if r["name"] in added]
        also = "; also " + "; ".join(f"{r['name']}: {r['help']}" for r in shared) if shared else ""
        group = parser.add_argument_group(f"{label} (--algo {or_list(catalogue.names(family))}){also}")
        for row in rows:
            if row["name"] not in added:
                group.add_argument(row["name"], help=row["help"])
            added.setdefault(row["name"], []).append(family)
    catalogue.passed_on = added


def or_list(names):
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


def given(args, option):
    """The value of an option such as --block-words in the parsed arguments."""
    return getattr(args, option[2:].replace("-", "_"))


DEFAULT_STREAM_OFFSET = 123456789012345  # a generic point: the stream's start is sparse


class OneLineArgumentParser(argparse.ArgumentParser):
    """An error in the command line is one line, as in the project's other programs (argparse prints the usage
    first)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def parse_arguments(argv, catalogue):
    """`catalogue`: what gups-topology lists (Catalogue); the network level's name is checked by gups-topology
    alone, when it plans the run."""
    p = OneLineArgumentParser(prog="gups-sim", description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--machine", "-m", default="bgp", help="machine name or path (default bgp)")
    p.add_argument("--algo", default="multicore",
                   help=f"{or_list(catalogue.names(Catalogue.UPDATE))} (default multicore); "
                        f"{or_list(catalogue.names(Catalogue.APEX_MAP))} (the Apex-Map probe); "
                        f"{or_list(catalogue.names(Catalogue.EXCHANGE))} (the global-exchange probes, docs/networks.md)")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--shape", help="torus of nodes, such as 4x4x4")
    size.add_argument("--nodes", type=int, help="node count, mapped by the machine's shape rule")
    p.add_argument("--shape-rule", choices=("machine", "balanced"), default="machine",
                   help="with --nodes: machine (its listed partitions, torus.partitions, else the balanced shape; "
                        "default) or balanced (the most balanced shape always)")
    p.add_argument("--cores-per-node", type=int,
                   help=f"{catalogue.scope_help('--role-plan')}ranks per node (default: the machine's); direct: processes "
                        "per node (default 1)")
    p.add_argument("--processes-per-node", type=int,
                   help="HPCC's mode 1: processes a node, each with its own look-ahead; routed and multicore (groups "
                        "of whole cores, each its own role plan) route over a torus of processes, the node's "
                        "processes one more dimension (default 1; direct, hypercube: --cores-per-node's)")
    p.add_argument("--role-plan",
                   help=f"{catalogue.scope_help('--role-plan')}what each core of a node does: paper (min(d, k-1) routing cores, the rest "
                        "updating), best (the planner's, from the machine's costs) or a plan such as 2xX/YZ+3 "
                        "(2 pipelines routing X then YZ, 3 updaters); default: the machine file's role_plan, else "
                        "paper, as gups runs")
    updates = p.add_mutually_exclusive_group()
    updates.add_argument("--updates-per-node", type=int,
                         help=f"updates each node generates (default: {catalogue.default_updates_per_node})")
    updates.add_argument("--updates-per-word", type=int, help="updates per table word instead (HPCC: 4)")
    p.add_argument("--min-updates-per-node", type=int, default=0,
                   help="with the default run length: at least this many updates per node (runs with the dma "
                        "mechanism fill their pipeline for longer)")
    p.add_argument("--words-per-node", type=int, default=1024,
                   help="table words per node, at least (default 1024: the table need not be Blue Gene size)")
    p.add_argument("--log2-table", type=int, help="table size 2^N (overrides --words-per-node)")
    p.add_argument("--lookahead", type=int, default=1024,
                   help=f"{catalogue.gups_help('--lookahead')} (default 1024)")
    p.add_argument("--nodes-per-host", default="1",
                   help="torus nodes on one of the machine's nodes, sharing its cores (tu follows how many of them "
                        "update at once); 'fill': as many as its cores hold, as mpirun places ranks (default 1)")
    p.add_argument("--owner", default="division", choices=["division", "predict"],
                   help=f"{catalogue.gups_help('--owner')} (default division)")
    p.add_argument("--inputs", default="file", choices=["file", "low", "high"],
                   help="the machine's inputs: file (its values), or the input set of the model's low or high end of "
                        "its interval at this size (every ranged input at the side that lowers, or raises, the "
                        "bound; a structural unknown such as the wrap-around too): the simulated range of a figure")
    p.add_argument("--costs", default="machine", choices=["machine", "zero", "measured"],
                   help="machine: charge the machine file's cycles; zero: no CPU cost at all (network only); "
                        "measured: SMPI times the real code on this host")
    p.add_argument("--wrap",
                   help="the partition's wrap-around links: torus (default), mesh, or one letter per dimension, t "
                        "where it wraps and m where not, such as ttm (at the levels that route messages themselves: "
                        "queue, latency, packet); the mesh mechanism instead takes the machine's rule")
    p.add_argument("--bandwidth-scale", type=float, default=1.0,
                   help="multiply link bandwidth (a very fast network: 1000)")
    p.add_argument("--zero-latency", action="store_true", help="links without latency")
    levels = {name: level["help"] for name, level in catalogue.levels.items()}
    levels["auto"] = AUTO_LEVEL_HELP
    p.add_argument("--network", default="flow",
                   help="network level: " + "; ".join(f"{name}: {what}" for name, what in levels.items()) +
                        " (default flow)")
    p.add_argument("--stream-offset", type=int, default=DEFAULT_STREAM_OFFSET,
                   help=f"stream steps skipped first (default {DEFAULT_STREAM_OFFSET}; 0 = HPCC, checksums as gups)")
    p.add_argument("--verify", default="auto", choices=["auto", "full", "checksum", "none"],
                   help="full: every word, by the simulated ranks (their all-to-all costs O(ranks^2) to simulate); "
                        "checksum: the final table's checksums against a serial pass over the same stream; "
                        "auto (default): full up to 1,024 ranks, checksum above")
    p.add_argument("--max-wall", type=float, default=0, help="stop after this many wall seconds (0: no limit)")
    p.add_argument("--json", help="write the result as JSON here")
    p.add_argument("--workdir", help="where platform, hostfile and raw result go (default: a temporary folder)")
    p.add_argument("--message-layer", default="s4u", choices=["s4u", "s4u-comms", "mpi"],
                   help="what carries the messages of direct, routed, multicore and apex-map-mpi: s4u (default: "
                        "SimGrid communications through mailboxes at flow, none at the levels that time messages "
                        "themselves), s4u-comms (SimGrid "
                        "communications at every level, for comparison) or mpi (SMPI calls: the same messages with "
                        "SMPI's per-call overhead)")
    p.add_argument("--mechanisms", default="none",
                   help=f"{catalogue.scope_help('--dma-injection')}mechanisms of the machine modelled beyond Eq. 7: "
                        "none (default), "
                        "all, or a comma list of " + ", ".join(f"{name} ({row['help']})"
                                                             for name, row in catalogue.mechanisms.items()))
    p.add_argument("--reception-fifo", type=int, default=0,
                   help="with the dma mechanism: messages a receiving core's channel holds that no receive has "
                        "taken yet, before sends to it wait (default 0: unbounded)")
    p.add_argument("--link-load", action="store_true",
                   help=f"{catalogue.scope_help('--link-load')}measure how busy each dimension's torus links were (each message's bytes on "
                        "the links of its route), and name the resource that binds")
    p.add_argument("--no-run-ahead", dest="run_ahead", action="store_false",
                   help=f"{', '.join(catalogue.names_with('routes_over_torus'))}, at the levels that time messages "
                        "themselves: each core waits out its "
                        "work before every send and post, rather than handing them to the clock as events at the "
                        "end of that work (for comparison: the same results where no two events share a time)")
    p.add_argument("--no-early-looks", dest="early_looks", action="store_false",
                   help="with cores that run ahead: a look at its messages always waits for the core's own time, "
                        "even where nothing before then can change what it sees (for comparison: the same results, "
                        "more wake-ups)")
    p.add_argument("--extra-cfg", action="append", default=[], help="more SimGrid --cfg options (name:value)")
    p.add_argument("--converge", action="store_true",
                   help=f"{catalogue.scope_help('--settle-to')}one run that stops generating once its steady state is "
                        "settled within --settle-to (standard error, quarters, and a run of half the length agree), every "
                        "generator at the same count (exit status 5 if --converge-max-updates is reached first)")
    p.add_argument("--settle-to", type=float, default=SETTLED_TOLERANCE,
                   help=f"default {SETTLED_TOLERANCE} ({SETTLED_TOLERANCE * 100:g}%%, as the steady-state verdict)")
    p.add_argument("--converge-max-updates", type=int, default=65536,
                   help="most updates per node --converge runs (default 65536)")
    # gups-topology plans the Apex-Map probe's array (its default is a simulation's, not the probe's).
    p.add_argument("--memory-words", help="the Apex-Map probe's M, the global array in words (default: 65536 per "
                                          "process in a simulation)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("--explain", action="store_true",
                   help="first print how gups-model predicts this run (gups-model --explain): the role plan (the "
                        "planner's general one where the paper's does not fit), the virtual torus on its network, "
                        "each core's load, the network bound's derivation")
    p.add_argument("--plan-only", action="store_true",
                   help="print gups-topology's plan of this run as JSON (ranks, memory estimate, network level) and "
                        "stop: what a launcher needs to ask a scheduler for")
    add_probe_options(p, catalogue)
    catalogue.refuse_old_spellings(argv, p)
    args = p.parse_args(argv)
    args.catalogue = catalogue
    return args


def chosen_mechanisms(args):
    """The mechanisms asked for, in a fixed order; raises BadInput."""
    mechanisms = args.catalogue.mechanisms
    asked = [m.strip() for m in args.mechanisms.split(",") if m.strip()]
    if asked == ["all"]:
        return list(mechanisms)
    if asked == ["none"]:
        return []
    unknown = [m for m in asked if m not in mechanisms]
    if unknown or not asked:
        raise BadInput(f"--mechanisms: unknown {', '.join(unknown) or 'empty list'}; "
                       f"give none, all, or a comma list of {', '.join(mechanisms)}")
    if "mesh" in asked and args.wrap is not None:
        raise BadInput("--wrap sets the wrap-around links itself: leave the mesh mechanism out")
    for name in ("wire", "dma"):
        if name in asked and args.message_layer == "mpi":
            raise BadInput(f"--mechanisms {name} needs --message-layer s4u (SMPI's calls send payloads only, "
                           "rendezvous)")
    return [m for m in mechanisms if m in asked]


def mechanism_options(args):
    """gups-smpi's options for the chosen mechanisms (the paper's buckets come with the plan); raises BadInput."""
    if args.reception_fifo < 0:
        raise BadInput("--reception-fifo must be 0 (unbounded) or more")
    rows = args.catalogue.mechanisms
    options = [rows[m]["option"] for m in args.chosen_mechanisms if rows[m]["program"] == "gups"]
    if "dma" in args.chosen_mechanisms:
        if args.reception_fifo:
            options += ["--reception-fifo", str(args.reception_fifo)]
    elif args.reception_fifo:
        raise BadInput("--reception-fifo bounds what DMA injection sends: it needs --mechanisms dma (or all)")
    if (options or "paper-buckets" in args.chosen_mechanisms) and args.costs != "machine":
        raise BadInput("--mechanisms models the machine file's costs: it needs --costs machine")
    return options


def check_writable(path, option):
    """Checked before the run, so that a long run does not end unable to write its result."""
    if os.path.isdir(path):
        raise BadInput(f"{option} {path} is a folder: name a file in it")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise BadInput(f"{option} {path}: no such folder {folder}")
    if not os.access(folder, os.W_OK):
        raise BadInput(f"{option} {path}: cannot write in {folder}")


def check_applies(args, plan):
    """What only routing algorithms have (the plan says whether this one routes), and what only the probe has;
    raises BadInput."""
    catalogue = args.catalogue
    family = catalogue.variant(args.algo)["family"]
    for option in ["--memory-words"] + list(catalogue.passed_on):
        families = catalogue.families_with(option)
        if given(args, option) is not None and family not in families:
            takes = " and ".join(Catalogue.PROBE_FAMILIES[f][1] for f in families)
            raise BadInput(f"{option} applies to {takes} (--algo {or_list(catalogue.names(*families))})")
    if "probe" in plan:
        update_options = [o for o, default in (("--link-load", False), ("--converge", False),
                                               ("--stream-offset", DEFAULT_STREAM_OFFSET), ("--updates-per-node", None),
                                               ("--updates-per-word", None), ("--log2-table", None))
                          if given(args, o) != default]
        if args.chosen_mechanisms:
            update_options.insert(0, "--mechanisms")
        if update_options:
            raise BadInput(f"{update_options[0]} applies to the update algorithms, not to the probes")
        return
    # gups-sim's options that become gups's, refused in gups's words for what they become.
    if args.chosen_mechanisms:
        catalogue.refuse_out_of_scope("--dma-injection", "--mechanisms", args.algo)
    if args.link_load:
        catalogue.refuse_out_of_scope("--link-load", "--link-load", args.algo)
    if args.converge:
        catalogue.refuse_out_of_scope("--settle-to", "--converge", args.algo)
