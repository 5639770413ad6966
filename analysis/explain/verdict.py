"""explain: which mechanism of the machine, at which value, accounts for a measured GUPS column.

For each candidate mechanism and each measured size, the value that reproduces the point is found first by
the model (Eq. 1, Eq. 6/7 and the network bound 4B/b are inverted where the mechanism enters them), then by
simulation at the sizes the wall budget allows (gups-sim as the study runs it: every mechanism of the machine,
the study's network level; a few secant steps from the model's value). Then one value, or one simple law of
the size, is fitted to each mechanism's needed values, and the mechanisms are ranked by how well it gives the
whole column."""
import csv
import json
import math
import os
import shlex
import sys
import time

from .. import results
from .. import study_tools
from ..run import launcher, programs
from . import evidence
from . import laws as explain_laws, mechanisms as explain_mechanisms, model as explain_model
from . import partition as explain_partition
from . import ranges as explain_ranges
from .measured import read_measured


class BadInput(ValueError):
    pass


def explain(args):
    started = time.monotonic()
    if args.tolerance <= 0 or args.tolerance >= 1:
        raise BadInput("--tolerance must be between 0 and 1")
    if args.sim_steps < 1 or args.wall_budget < 0 or args.updates_per_node < 0:
        raise BadInput("--sim-steps must be at least 1, --wall-budget and --updates-per-node zero or more")
    if args.converge and args.updates_per_node:
        raise BadInput("--converge sets each simulation's length itself: give no --updates-per-node")
    measured = read_measured(args.measured)
    machine = programs.load_machine(args.machine, args.build)
    try:
        # The mechanisms know the models' terms: an algorithm is asked for by the model it takes.
        args.algorithm_model = programs.variant(args.build, args.algorithm)["model"]
        mechanisms = explain_mechanisms.chosen(args.mechanisms, args.algorithm_model, machine, args.network,
                                               programs.routing_levels(args.build))
    except ValueError as error:
        raise BadInput(str(error)) from None
    model = programs.binary(args.build, "gups-model")
    nodes = list(measured)
    # One baseline with the simulation (study_tools.mechanisms_for): the machine's own bucket sizes where it lists
    # them for every measured size (the paper's, for the multi-core algorithm), else the sizing rule.
    listed = machine.get("reference_bucket_sizes", {})
    buckets = "reference" if args.algorithm_model == "multicore" and all(str(n) in listed for n in nodes) else "sizing"
    args.bucket_rule = buckets
    try:
        base = explain_model.model_rows(model, machine, args.algorithm, nodes, buckets, args.owner)
    except explain_model.ModelError as error:
        raise BadInput(f"the model cannot take these sizes: {error}") from None
    os.makedirs(args.out, exist_ok=True)
    print(f"explain: {args.algorithm} on {machine['name']}, {len(nodes)} measured sizes ({nodes[0]} to {nodes[-1]} "
          f"nodes), candidates: {', '.join(m.name for m in mechanisms)}", file=sys.stderr, flush=True)

    ranges = explain_ranges.against_ranges(measured, base, args.tolerance)
    simulated = Simulations(args, machine, measured, started)
    if not args.no_simulation:
        simulated.baselines()
    # Whether the column departs from the machine as given at all, and which way, decides what is searched.
    found = evidence.departures(measured, args.tolerance, {n: base[n]["gups"] for n in nodes}, simulated.nominal,
                                simulated.spread)
    inside = bool(ranges) and len(ranges) == len(measured) and all(v["inside"] for v in ranges.values())
    gate = {"departures": found, "quiet": evidence.nothing_measurable(found), "side": evidence.one_sided(found),
            "inside": inside}
    if not args.search and (gate["quiet"] or (inside and not gate["side"])):
        mechanisms = []  # nothing moved, or the machine's own ranges account for a two-way scatter
    entries = {}
    for mechanism in mechanisms:
        entries[mechanism.name] = by_model(args, model, machine, mechanism, measured, base, buckets)
    if not args.no_simulation:
        simulated.confirm(entries, mechanisms)
    for mechanism in mechanisms:
        finish(entries[mechanism.name], mechanism, base)
    ranked = sorted(entries.values(), key=lambda e: rank_key(e, machine))
    ties = tied(ranked, machine)
    gate["separation"] = separation(args, model, machine, ties, measured, buckets) if len(ties) > 1 else ""
    wall = time.monotonic() - started
    document = report_document(args, machine, measured, base, ranked, simulated, wall, ranges, gate)
    write_outputs(args, document)
    print(summary(document), flush=True)
    return 0


# ---- the model --------------------------------------------------------------------------------------------

def by_model(args, model, machine, mechanism, measured, base, buckets):
    nominal = mechanism.nominal(machine)
    entry = {"mechanism": mechanism, "nominal": nominal, "points": {}, "responses": {}}
    in_model = args.algorithm_model in mechanism.in_model
    responses = explain_model.responses(model, machine, args.algorithm, base, buckets, args.owner,
                                        mechanism) if in_model else {}
    for n, point in measured.items():
        tolerance = point.tolerance(args.tolerance)
        if not in_model:
            needed = explain_model.Needed(reason="no term of the model: simulation only")
        else:
            entry["responses"][n] = responses[n]
            needed = explain_model.needed_by_model(responses[n], point.gups, tolerance, nominal)
        entry["points"][n] = {"nodes": n, "measured": point.gups, "tolerance": tolerance, "model": needed,
                              "simulated": []}
    return entry


# ---- the simulation ---------------------------------------------------------------------------------------

class Simulations:
    """gups-sim runs at the measured sizes, smallest first, while the wall budget lasts."""

    def __init__(self, args, machine, measured, started):
        self.args, self.machine, self.measured, self.started = args, machine, measured, started
        self.sim = None if args.no_simulation else \
            programs.binary(args.build, "gups-sim")
        self.runs, self.nominal, self.stopped_at, self.commands = 0, {}, None, []
        self.wall_by_nodes = {}
        # The machine as given: its simulations' own spread by size (their quarters apart).
        self.spread = {}
        # Runs whose steady state did not settle (their verdict), and the sizes whose machine as given did not.
        self.unsettled_runs, self.unsettled_nominal = 0, set()
        # Runs that failed: {"candidate", "nodes", "value", "status", "reason"} each, in the order they ran.
        self.failures = []

    def baselines(self):
        """The machine as given at each size, smallest first, while the budget lasts: what the column departs from."""
        for n in self.measured:
            if n > self.args.sim_max_nodes or not self.fits(n):
                self.stopped_at = n
                print(f"explain: {n} nodes and more not simulated ("
                      f"{'--sim-max-nodes' if n > self.args.sim_max_nodes else 'the wall budget'})",
                      file=sys.stderr, flush=True)
                return
            nominal = self.run(n, None, None)
            if nominal is not None:
                self.nominal[n] = nominal

    def confirm(self, entries, mechanisms):
        for n, nominal in self.nominal.items():
            for mechanism in mechanisms:
                if mechanism.categorical:
                    self.try_partitions(entries[mechanism.name], n, nominal)
                else:
                    self.search(entries[mechanism.name], mechanism, n, nominal)

    def fits(self, n):
        if not self.args.wall_budget:
            return True
        known = [(m, w) for m, w in self.wall_by_nodes.items() if m < n]
        if not known:
            return True
        m, wall = max(known)
        searches = 2 * len(explain_mechanisms.MECHANISMS) / 3
        estimate = wall * n / m * 1.3 * (1 + searches)
        # The candidates' searches at the sizes already run come after every baseline: count them as spent.
        pending = sum(w * searches for w in self.wall_by_nodes.values())
        return time.monotonic() - self.started + pending + estimate <= self.args.wall_budget

    def run(self, n, mechanism, value, partition=None):
        """Steady-state GUPS of one simulation (None if it failed): the machine as given, a mechanism at a
        value, or the machine on another partition (explain/partition.py)."""
        machine = self.machine if mechanism is None or partition else mechanism.applied(self.machine, value)
        name = (f"{n}-partition-{partition.shape}-{partition.wraps}" if partition else
                f"{n}-nominal" if mechanism is None else f"{n}-{mechanism.name}-{value:.6g}")
        folder = os.path.join(self.args.out, "raw")
        os.makedirs(folder, exist_ok=True)
        machine_path = programs.write_machine(machine, os.path.join(folder, f"machine-{name}.json"))
        path = os.path.join(folder, f"sim-{name}.json")
        command = simulation_command(self.sim, machine_path, programs.variant(self.args.build, self.args.algorithm),
                                     n, self.args.owner, self.args.network, self.machine, path, partition,
                                     self.args.updates_per_node, self.args.converge)
        if mechanism is not None and not partition:
            command += mechanism.sim_options(value)
        self.commands.append(" ".join(shlex.quote(c) for c in command))
        begun = time.monotonic()
        status, document, err = simulated(command, path)
        self.runs += 1
        self.wall_by_nodes[n] = max(self.wall_by_nodes.get(n, 0.0), time.monotonic() - begun)
        what = (f"partition {partition.label}" if partition else
                "the machine as given" if mechanism is None else f"{mechanism.name} = {value:.4g}")
        if document is None:
            reason = failure_reason(err)
            print(f"explain: {n} nodes, {what}: the simulation failed (status {status}): {reason}",
                  file=sys.stderr, flush=True)
            self.failures.append({"candidate": "partition" if partition else
                                  "the machine as given" if mechanism is None else mechanism.name,
                                  "nodes": n, "value": partition.label if partition else value,
                                  "status": status, "reason": reason})
            return None
        gups, settled = document["steady_gups"], steady_settled(document)
        if mechanism is None and not partition:
            self.spread[n] = document.get("steady_spread") or 0.0
        if settled is False:
            self.unsettled_runs += 1
            if mechanism is None and not partition:
                self.unsettled_nominal.add(n)
        print(f"explain: {n} nodes, {what}: {gups:.4g} GUPS simulated{'' if settled is not False else ' (not settled)'} "
              f"({time.monotonic() - self.started:.0f} s)", file=sys.stderr, flush=True)
        return gups

    def partitions(self, n):
        """The machine's partition of n nodes (its shape, its wraps) and the balanced shape with the machine's wraps
        at that size (gups-topology's plan: Machine::is_mesh)."""
        plans = [programs.plan(self.args.build, self.machine["path"], n, self.args.algorithm,
                               ("--shape-rule", rule, "--wrap", "machine")) for rule in ("machine", "balanced")]
        return [explain_partition.Partition(p["shape"], p["physical_network"]["wraps"]) for p in plans]

    def try_partitions(self, entry, n, nominal_gups):
        """Each partition a rule gives at this size, simulated once (the machine's own is the nominal run)."""
        given, balanced = self.partitions(n)
        point = entry["points"][n]
        point.update(given=given, balanced=balanced, tried={given.label: nominal_gups})
        for label, partition in explain_partition.partitions_at(given, balanced).items():
            if label not in point["tried"]:
                gups = self.run(n, entry["mechanism"], None, partition)
                if gups is not None:
                    point["tried"][label] = gups
                else:
                    point.setdefault("failed", []).append(self.failures[-1])
        point["simulated"] = sorted(point["tried"].items(), key=lambda t: t[1])

    def search(self, entry, mechanism, n, nominal_gups):
        """Secant steps towards the simulation's value, from the machine's value and the model's guess."""
        point = entry["points"][n]
        target, tolerance = point["measured"], point["tolerance"]
        tried = [(entry["nominal"], nominal_gups)]
        point["simulated"] = tried
        if abs(nominal_gups - target) <= tolerance * target:
            return
        response = entry["responses"].get(n)
        if response is not None and not point["model"].reached:
            return  # the model's term says no value reaches the point
        log_scale = response is None
        value = model_guess(response, entry["nominal"], nominal_gups, target) if response else None
        if value is None:
            value = first_guess(mechanism, entry["nominal"], nominal_gups, target)
        for _ in range(self.args.sim_steps):
            value = legal(mechanism, value)
            if any(math.isclose(value, v, rel_tol=1e-9) for v, _ in tried):
                break
            gups = self.run(n, mechanism, value)
            if gups is None:
                point.setdefault("failed", []).append(self.failures[-1])
                break
            tried.append((value, gups))
            if abs(gups - target) <= tolerance * target:
                break
            value = secant(tried, target, mechanism, log_scale)
            if value is None:
                break


def simulation_command(sim, machine_path, variant, nodes, owner, network, machine, json_path, partition=None,
                       updates_per_node=0, converge=False):
    """gups-sim as the study runs it: every mechanism of the machine, the default run length unless
    updates_per_node is given, or until settled with converge; on another partition (its shape and wraps instead
    of the machine's, so without the mesh mechanism) when given."""
    algorithm = variant["name"]
    chosen = study_tools.mechanisms_for(variant, nodes, machine).split(",")
    if partition:
        chosen = [m for m in chosen if m and m != "mesh"]
    command = programs.sim_command(sim, machine_path, algorithm, nodes, "--verify", "none", "--owner", owner,
                                   "--mechanisms", ",".join(m for m in chosen if m) or "none", "--network", network,
                                   "--json", json_path)
    if partition:
        at = command.index("--nodes")
        command[at:at + 2] = explain_partition.sim_options(partition)
    if updates_per_node:
        command += ["--updates-per-node", str(updates_per_node)]
    if converge:
        command += ["--converge"]
    return command


def failure_reason(err):
    """What a failed gups-sim said last (its error line), shortened for a table."""
    lines = [line.strip() for line in (err or "").splitlines() if line.strip()]
    reason = lines[-1] if lines else "no message"
    return reason if len(reason) <= 240 else reason[:237] + "..."


def rank_key(entry, machine=None):
    """The laws' ranking, with every candidate whose evidence rests on a failed simulation after those whose
    evidence is whole (a failed run is missing evidence, not evidence), and one its own simulation refutes after
    those it does not; among those that explain the column, the tie rule (evidence.TIE_RULE)."""
    key = explain_laws.ranking_key(entry)
    if key[0] == 0 and machine is not None:
        key = (0, *evidence.tie_key(entry, machine))
    return (1 if entry.get("failed") else 0, 1 if entry.get("refuted") else 0, *key)


def explains(entry):
    return not entry.get("failed") and not entry.get("refuted") and explain_laws.ranking_key(entry)[0] == 0


def tied(ranked, machine):
    """The candidates that explain the column equally well (as few sizes moved, as simple a law), ranked by the
    stated rule (evidence.TIE_RULE): the first is the verdict's."""
    explaining = [e for e in ranked if explains(e)]
    if not explaining:
        return []
    first = min(explaining, key=lambda e: evidence.tie_key(e, machine))
    same = [e for e in explaining if evidence.tie_key(e, machine)[:2] == evidence.tie_key(first, machine)[:2]]
    return sorted(same, key=lambda e: evidence.tie_key(e, machine))


OTHER_ALGORITHM = {"multicore": "routed", "routed": "multicore"}


def separation(args, model, machine, ties, measured, buckets):
    """What would tell tied candidates apart: each at its law's value at the largest size, the other algorithm's
    GUPS in the model."""
    other = OTHER_ALGORITHM.get(args.algorithm_model)
    largest = max(measured)
    gups = {}
    for entry in ties:
        value = entry["law"].values.get(largest)
        if other is None or value is None or entry["mechanism"].setter is None:
            gups[entry["mechanism"].name] = None
            continue
        try:
            rows = explain_model.model_rows(model, entry["mechanism"].applied(machine, value), other, [largest],
                                            buckets if other == "multicore" else "sizing", args.owner)
            gups[entry["mechanism"].name] = rows[largest]["gups"]
        except explain_model.ModelError:
            gups[entry["mechanism"].name] = None
    return evidence.separation_text(ties, gups, other, largest, args.tolerance)


# gups-sim's status for a --converge run that ran to its end without settling: a result, marked not settled.
NOT_SETTLED = 5


def simulated(command, json_path):
    """(status, result document or None, stderr) of one gups-sim run: None unless it ran with a steady state (a
    --converge run that did not settle is a result all the same, its verdict saying so)."""
    status, _, err = launcher.run(command)
    try:
        with open(json_path, encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, ValueError):
        document = None
    ran = status == 0 or (status == NOT_SETTLED and document and (document.get("convergence") or {}).get(
        "converged") is False)
    return status, document if ran and document and document.get("steady_gups") else None, err


def binding_name(row):
    """What binds in a gups-model row, as its table says it: the core (core 3) where the CPU binds."""
    resource = row.get("binding_resource")
    return resource.split(":")[0] if row.get("binds") == "cpu" and resource else row["binds"]


def steady_settled(document):
    """A gups-sim result's steady-state verdict: True, False, or None where it gave none."""
    return (document.get("steady_verdict") or {}).get("settled")


def model_guess(response, nominal, simulated, target):
    """The value at which the model moves as far from its own GUPS as the target is from the simulation's (the
    simulation and the model may differ at the machine's value)."""
    scaled = target * response.gups(nominal) / simulated
    needed = explain_model.needed_by_model(response, scaled, 1e-9, nominal)
    return needed.value if needed.reached else None


def first_guess(mechanism, nominal, gups, target):
    """A simulation-only mechanism's first step: a factor of 4 the way the point lies."""
    lower = (target < gups) == (mechanism.direction > 0)
    return nominal / 4 if lower else nominal * 4


def legal(mechanism, value):
    value = max(value, 1 if mechanism.integer else 0.0)
    if mechanism.kind == "factor":
        value = max(value, 1e-6)
    return float(round(value)) if mechanism.integer else value


def secant(tried, target, mechanism, log_scale):
    """The next value from two tries, around the target if some are, else nearest it: 1/GUPS is a straight line
    in a cost when the CPU binds, GUPS in a bandwidth factor when the network does; mechanisms the model has no
    term for step in log(value)."""
    above = [t for t in tried if t[1] >= target]
    below = [t for t in tried if t[1] < target]
    if above and below:  # the tries around the target, nearest on each side
        (v0, g0), (v1, g1) = min(above, key=lambda t: t[1] - target), min(below, key=lambda t: target - t[1])
    else:
        (v0, g0), (v1, g1) = sorted(tried, key=lambda t: abs(t[1] - target))[:2]
    def y(g):
        return g if mechanism.kind == "factor" else 1 / g
    def x(v):
        return math.log(max(v, 1e-300)) if log_scale else v
    if math.isclose(g0, g1, rel_tol=1e-3) or x(v0) == x(v1):
        return None  # the simulation does not move with it here (beyond its own noise)
    slope = (x(v1) - x(v0)) / (y(g1) - y(g0))
    step = x(v0) + (y(target) - y(g0)) * slope
    # At most a factor of 16 (log scale) or 16 times the largest value tried past the nearest try.
    if log_scale:
        return math.exp(min(max(step, x(v0) - math.log(16)), x(v0) + math.log(16)))
    reach = 16 * max(abs(v0), abs(v1), 1e-12)
    return min(max(step, v0 - reach), v0 + reach)


# ---- fitting and ranking ----------------------------------------------------------------------------------

def finish_partition(entry):
    """The partition's rules as its laws, at the sizes the simulation reached."""
    reached = {n: p for n, p in entry["points"].items() if p.get("tried")}
    for point in entry["points"].values():
        tried = point.get("tried", {})
        good = [label for label, gups in tried.items()
                if abs(gups - point["measured"]) <= point["tolerance"] * point["measured"]]
        point.update(value=None, low=None, high=None, sim_value=None, good=good,
                     source="simulation" if good else None)
    laws = explain_partition.fit(reached, {n: p["given"] for n, p in reached.items()},
                                 {n: p["balanced"] for n, p in reached.items()}) if reached else []
    entry.update(laws=laws, law=explain_laws.best_law(laws), unreached=len(entry["points"]) - len(reached))


def finish(entry, mechanism, base):
    """Each size's needed value (the simulation's where it found one, else the model's) and the laws."""
    entry["failed"] = [f for point in entry["points"].values() for f in point.get("failed", [])]
    if mechanism.categorical:
        finish_partition(entry)
        return
    laws_points = []
    calibration = simulation_calibration(entry)
    for n, point in entry["points"].items():
        model = point["model"]
        sim_value = simulated_value(point)
        point["sim_value"] = sim_value
        response = entry["responses"].get(n)
        value, low, high, gups_at, source = None, None, None, None, None
        if sim_value is not None and response is not None and model.reached:
            # The simulation's response taken as the model's, moved to pass through the simulation's value:
            # by a number of cycles for a cost, by a ratio for a capacity.
            if mechanism.kind == "factor":
                ratio = model.value / sim_value
                low, high = model.low / ratio, model.high / ratio
                gups_at = (lambda v, r=response, k=ratio: r.gups(v * k))
            else:
                shift = sim_value - model.value
                low, high = model.low + shift, model.high + shift
                gups_at = (lambda v, r=response, s=shift: r.gups(v - s))
            value, source = sim_value, "simulation"
        elif sim_value is not None:
            gups_at = interpolation(point["simulated"])
            needed = explain_model.invert(gups_at, point["measured"], point["tolerance"], entry["nominal"],
                                          mechanism.direction > 0, *domain(mechanism, point["simulated"]))
            if needed.reached:
                value, low, high, source = sim_value, needed.low, needed.high, "simulation"
        elif model.reached and len(point["simulated"]) > 1:
            # The simulation tried values and none gave the point: the model's value stands only where the
            # simulations, read through the model's shape, still reach the point.
            gups_at = through_simulations(point["simulated"], response, mechanism)
            needed = explain_model.invert(gups_at, point["measured"], point["tolerance"], entry["nominal"],
                                          mechanism.direction > 0, *domain(mechanism, point["simulated"]))
            if needed.reached:
                value, low, high, source = needed.value, needed.low, needed.high, "model, through its simulations"
            else:
                point["refuted_by_simulation"] = True
        elif model.reached and calibration and not point["simulated"]:
            # Not simulated here: the model, scaled as the simulations at the largest simulated size found it
            # off (a core's kink where the simulation puts it, the level the simulation gives).
            m, ratio_at = calibration
            gups_at = (lambda v, r=response, k=ratio_at: r.gups(v) * k(v))
            needed = explain_model.invert(gups_at, point["measured"], point["tolerance"], entry["nominal"],
                                          mechanism.direction > 0, *domain(mechanism, entries_tried(entry)))
            if needed.reached:
                value, low, high = needed.value, needed.low, needed.high
                source = f"model, scaled by the simulations at {m} nodes"
        elif model.reached:
            value, low, high, source = model.value, model.low, model.high, "model"
            if point.get("failed"):
                source = "model; its simulation failed"
            gups_at = response.gups
        point.update(value=value, low=low, high=high, source=source)
        if value is None:
            continue
        laws_points.append(explain_laws.Point(n, point["measured"], point["tolerance"], value, low, high,
                                              base[n]["expected_hops"], base[n]["bucket_size"], gups_at))
    # An efficiency cannot pass 1: links do not deliver more than the machine file's bandwidth.
    laws = explain_laws.fit_laws(laws_points, mechanism.unit, 1e-9 if mechanism.kind == "factor" else 0.0,
                                 entry["nominal"], 1.0 if mechanism.kind == "factor" else math.inf)
    entry.update(laws=laws, law=explain_laws.best_law(laws), unreached=len(entry["points"]) - len(laws_points))
    entry["refuted"] = evidence.refutations(entry)


def through_simulations(tried, response, mechanism):
    """GUPS at any value from a size's simulations, in the model's shape: the model's GUPS times the ratio of the
    simulation's to the model's, that ratio a straight line between the values tried and flat beyond them. The
    model has the kink where another core starts to bind, which a straight line between two tries on either side
    of it would cut across; the simulations set the level."""
    ratio_at = simulated_over_modelled(tried, response)
    def gups_at(v):
        return response.gups(v) * ratio_at(v)
    return gups_at


def simulation_calibration(entry):
    """(nodes, ratio of simulated to modelled GUPS as a function of the value) at the largest size where the
    candidate was simulated at more than the machine's value; None where it was not."""
    sizes = [n for n, p in entry["points"].items() if len(p.get("simulated", [])) > 1 and entry["responses"].get(n)]
    if not sizes:
        return None
    m = max(sizes)
    return m, simulated_over_modelled(entry["points"][m]["simulated"], entry["responses"][m])


def simulated_over_modelled(tried, response):
    """The ratio of a size's simulated GUPS to the model's, as a function of the value: straight lines between
    the values tried, flat beyond them."""
    return interpolation([(v, g / response.gups(v) if response.gups(v) > 0 else 1.0) for v, g in sorted(tried)])


def entries_tried(entry):
    """Every value the candidate's simulations tried, at any size (the domain a needed value is sought in)."""
    return [t for p in entry["points"].values() for t in p.get("simulated", [])] or [(entry["nominal"], 0.0)]


def simulated_value(point):
    """The value whose simulation gives the point: between the two tries around it (by a straight line), or the
    try that gave it within its tolerance; None if no try did."""
    target = point["measured"]
    good = [(abs(g - target), v) for v, g in point["simulated"] if abs(g - target) <= point["tolerance"] * target]
    if not good:
        return None
    ordered = sorted(point["simulated"])
    for (v0, g0), (v1, g1) in zip(ordered, ordered[1:]):
        if min(g0, g1) <= target <= max(g0, g1) and g0 != g1:
            return v0 + (v1 - v0) * (target - g0) / (g1 - g0)
    return min(good)[1]


def interpolation(tried):
    """GUPS between simulated values, straight lines between them and flat beyond."""
    ordered = sorted(tried)
    def gups_at(v):
        if v <= ordered[0][0]:
            return ordered[0][1]
        for (v0, g0), (v1, g1) in zip(ordered, ordered[1:]):
            if v <= v1:
                return g0 + (g1 - g0) * (v - v0) / (v1 - v0)
        return ordered[-1][1]
    return gups_at


def domain(mechanism, tried):
    values = [v for v, _ in tried]
    return min(values) / 1e3 if mechanism.kind == "factor" else 0.0, math.inf


# ---- what it says -----------------------------------------------------------------------------------------

def growth(entry):
    refuted = entry.get("refuted")
    return (law_text(entry) + (f"; {evidence.refutation_text(entry['mechanism'].name, refuted)}" if refuted else "")
            + failed_text(entry.get("failed", [])))


def failed_text(failed):
    if not failed:
        return ""
    sizes = sorted({f["nodes"] for f in failed})
    return (f" [{len(failed)} of its simulations failed, at {', '.join(map(str, sizes))} nodes: "
            f"{failed[0]['reason']}]")


def law_text(entry):
    law = entry["law"]
    if law is None:
        return "no size reached"
    unreached = entry["unreached"]
    if law.explains and not unreached:
        return f"{law.name}: {law.describe} (gives every point within its tolerance)"
    verdict = f"largest error {100 * law.max_error:.1f}%" + (f", {unreached} sizes out of reach" if unreached else "")
    if law.unphysical:
        verdict += f"; {law.unphysical}"
    return f"{law.name}: {law.describe} ({verdict}); {the_machines_value(entry)}"


def the_machines_value(entry):
    """Which sizes the machine file's value gives, and what the others need."""
    if entry["mechanism"].categorical:
        points = list(entry["points"].values())
        given = [p for p in points if p.get("given") and p["given"].label in p.get("good", [])]
        return f"the machine's partition gives {len(given)} of {len(points)} sizes"
    nominal, unit = entry["nominal"], entry["mechanism"].unit
    points = list(entry["points"].values())
    given = [p for p in points if p["value"] is not None and p["low"] <= nominal <= p["high"]]
    others = [p for p in points if p not in given]
    text = f"{nominal:.4g} {unit} gives {len(given)} of {len(points)} sizes"
    if others:
        needs = ", ".join(f"{p['nodes']}: {p['value']:.4g}" if p["value"] is not None else f"{p['nodes']}: none"
                          for p in others)
        text += f"; the others need {needs}"
    return text


# Model and simulation of the machine as given agree this closely where nothing the model leaves out binds; further
# apart, a candidate's value found by the model and the one found by the simulation differ by as much.
BASELINE_AGREEMENT = 0.01


def binding_moves(entry):
    """What the winning value does to the model's bottleneck: the core that binds at the machine's value and at the
    one found, at each size where the model has per-core loads."""
    moves = []
    for n, point in entry["points"].items():
        response = entry["responses"].get(n)
        if response is None or point.get("value") is None:
            continue
        before, after = response.binding_core(entry["nominal"]), response.binding_core(point["value"])
        if before is not None:
            moves.append((n, before, after))
    if not moves:
        return ""
    changed = [(n, b, a) for n, b, a in moves if b != a]
    if not changed:
        return f"; core {moves[0][1]} binds in the model before and after" if len({b for _, b, _ in moves}) == 1 \
            else "; the model's binding core is the same before and after at every size"
    return "; in the model this moves the bottleneck " + ", ".join(
        f"from core {b} to core {a} at {n} nodes" for n, b, a in changed)


def report_document(args, machine, measured, base, ranked, simulated, wall, ranges=None, gate=None):
    gate = gate or {}
    ties = tied(ranked, machine)
    first = ties[0] if ties and not gate.get("quiet") else None
    equivalent = [e["mechanism"].name for e in ties[1:]] if first else []
    mechanisms = []
    for rank, entry in enumerate(ranked, start=1):
        m = entry["mechanism"]
        mechanisms.append({
            "rank": rank, "mechanism": m.name, "meaning": m.meaning, "unit": m.unit, "nominal": entry["nominal"],
            "nominal_text": m.nominal_text(machine, entry["nominal"]), "fields": m.fields(machine),
            "refuted": [{"nodes": n, "value": v, "simulated_gups": g, "measured": g0}
                        for n, v, g, g0 in entry.get("refuted", [])],
            "unphysical": entry["law"].unphysical if entry["law"] else "",
            "in_model": args.algorithm_model in m.in_model, "explains": explains(entry),
            "growth": growth(entry), "failed_simulations": entry.get("failed", []),
            "law": None if entry["law"] is None else law_json(entry["law"]),
            "laws": [law_json(law) for law in entry["laws"]],
            "points": [point_json(p) for p in entry["points"].values()]})
    if gate.get("quiet"):
        verdict = evidence.nothing_measurable_text(gate["departures"])
    elif not ranked:
        verdict = "no candidate searched (--search searches them all the same)"
    elif first:
        verdict = f"{first['mechanism'].name} explains the column: {growth(first)}" + binding_moves(first)
        if equivalent:
            verdict += (f"; so do {', '.join(equivalent)}, moving the machine at as few sizes with as simple a law "
                        f"({evidence.TIE_RULE}; {gate.get('separation') or 'the column cannot tell them apart'})")
    else:
        best = ranked[0] if ranked else None
        verdict = "no candidate explains the column" + (
            f": the nearest is {best['mechanism'].name}, {growth(best)}" if best and best["law"] else "")
    # What the verdict rests on, in its own first words: a verdict from fewer simulated sizes than the column has
    # can change when the wall budget reaches further.
    simulated_sizes = [n for n in measured if simulated.nominal.get(n) is not None]
    if len(simulated_sizes) < len(measured):
        rest = [n for n in measured if n not in simulated_sizes]
        verdict = (f"from {len(simulated_sizes)} of {len(measured)} sizes simulated "
                   f"({', '.join(map(str, simulated_sizes)) or 'none'}; {', '.join(map(str, rest))} by the model "
                   f"alone, which may change the verdict): " + verdict)
    # Before anything searched: whether the machine's own input ranges already allow the column.
    within = explain_ranges.ranges_text(ranges or {}, list(measured), concluding=not ranked and not gate.get("quiet")
                                        and not gate.get("side"))
    if within and not gate.get("quiet"):
        verdict = within + "; " + verdict
    # A departure all one way is named before anything is concluded of it.
    if gate.get("side") and not gate.get("quiet"):
        verdict = evidence.offset_text(gate["departures"]) + "; " + verdict
    # Failed simulations come first of all: what they would have shown is missing from everything after.
    if simulated.failures:
        verdict = failures_text(simulated.failures, simulated.runs) + ": " + verdict
    baseline = [f"at {n} nodes the machine as given simulates to {simulated.nominal[n]:.4g} GUPS and models to "
                f"{base[n]['gups']:.4g} ({simulated.nominal[n] / base[n]['gups'] - 1:+.1%}) before any candidate "
                "moves" for n in simulated_sizes
                if base[n]["gups"] and abs(simulated.nominal[n] / base[n]["gups"] - 1) > BASELINE_AGREEMENT]
    return {
        "schema": "torus-gups/explain/1", "machine": machine["name"], "machine_file": machine.get("path"),
        "algorithm": args.algorithm, "owner": args.owner, "network": args.network,
        "bucket_rule": getattr(args, "bucket_rule", None),
        "measured_file": args.measured, "tolerance": args.tolerance,
        "measured": [{"nodes": n, "gups": p.gups, "spread": p.spread, "tolerance": p.tolerance(args.tolerance),
                      "model_gups": base[n]["gups"], "model_binds": binding_name(base[n]),
                      "model_low": (ranges or {}).get(n, {}).get("low"),
                      "model_high": (ranges or {}).get(n, {}).get("high"),
                      "inside_the_interval": (ranges or {}).get(n, {}).get("inside"),
                      "simulated_gups": simulated.nominal.get(n), "simulated": simulated.nominal.get(n) is not None,
                      "simulated_settled": None if n not in simulated.nominal else n not in simulated.unsettled_nominal}
                     for n, p in measured.items()],
        "verdict": verdict, "explained_by": [first["mechanism"].name] + equivalent if first else [],
        "tie_rule": evidence.TIE_RULE if equivalent else None, "separation": gate.get("separation") or None,
        "nothing_measurable": bool(gate.get("quiet")), "one_sided": gate.get("side"),
        "baseline_disagreements": baseline,
        "mechanisms": mechanisms,
        "simulation": {"runs": simulated.runs, "not_settled_runs": simulated.unsettled_runs,
                       "failed_runs": len(simulated.failures), "failures": simulated.failures,
                       "not_simulated_from": simulated.stopped_at,
                       "wall_budget": args.wall_budget, "updates_per_node": args.updates_per_node or None,
                       "converge": args.converge,
                       "commands": simulated.commands},
        "wall_seconds": round(wall, 1), "command": "python3 -m analysis " + " ".join(
            shlex.quote(a) for a in sys.argv[1:]),
    }


def failures_text(failures, runs):
    """The verdict's first words where simulations failed: how many, which candidate at which size, and why."""
    shown = [f"{f['candidate']}" + ("" if f["value"] is None else f" = {fmt(f['value'])}") + f" at {f['nodes']} nodes"
             for f in failures[:3]]
    more = f" and {len(failures) - 3} more" if len(failures) > 3 else ""
    return (f"{len(failures)} of {runs} simulations FAILED ({'; '.join(shown)}{more}: {failures[0]['reason']}), "
            "so the candidates they would have tested rest on the model alone there")


def law_json(law):
    def finite(x):  # a partition a rule gives that no simulation tried has no error
        return x if math.isfinite(x) else None
    return {"name": law.name, "parameters": law.parameters, "describe": law.describe, "explains": law.explains,
            "max_error": finite(law.max_error), "values": {str(k): v for k, v in law.values.items()},
            "errors": {str(k): finite(v) for k, v in law.errors.items()}}


def point_json(point):
    model = point["model"]
    def number(x):
        return None if x is None or not math.isfinite(x) else x
    if "tried" in point:  # the partition: each partition tried, and those that give the point
        return {"nodes": point["nodes"], "measured": point["measured"], "tolerance": point["tolerance"],
                "value": None, "low": None, "high": None, "unbounded_above": False, "source": point["source"],
                "model_value": None, "model_low": None, "model_high": None, "model_says": None,
                "simulated": [{"value": label, "steady_gups": g} for label, g in point["simulated"]],
                "simulated_value": None, "machine_partition": point["given"].label, "giving": point["good"],
                "failed": point.get("failed", [])}
    return {"nodes": point["nodes"], "measured": point["measured"], "tolerance": point["tolerance"],
            "value": number(point["value"]), "low": number(point["low"]), "high": number(point["high"]),
            "unbounded_above": point["high"] is not None and math.isinf(point["high"]), "source": point["source"],
            "model_value": number(model.value), "model_low": number(model.low), "model_high": number(model.high),
            "model_says": model.reason or None,
            "simulated": [{"value": v, "steady_gups": g} for v, g in point["simulated"]],
            "simulated_value": point["sim_value"], "failed": point.get("failed", [])}


def summary(document):
    lines = [f"explain: {document['algorithm']} on {document['machine']}: {document['verdict']}"]
    lines += [f"explain: note: {note}" for note in document.get("baseline_disagreements", [])]
    lines += ["", "Ranking:"]
    for m in document["mechanisms"]:
        lines.append(f"  {m['rank']}. {m['mechanism']} ({m['meaning']}, {m['nominal_text']} in the "
                     f"machine file): {m['growth']}")
    sim = document["simulation"]
    failed = f" ({sim['failed_runs']} failed)" if sim.get("failed_runs") else ""
    lines += ["", f"{sim['runs']} simulations{failed}, {document['wall_seconds']:.0f} s of wall time"]
    return "\n".join(lines)


def fmt(x, spec=".4g"):
    if isinstance(x, str):
        return x
    return "-" if x is None else ("inf" if isinstance(x, float) and math.isinf(x) else format(x, spec))


def needed_cell(p):
    if "giving" in p:
        return partition_cell(p).replace("|", "/")
    if p["value"] is None:
        failed = "; its simulation failed" if p.get("failed") else ""
        return ((p["model_says"] or "out of reach") + failed).replace("|", "/")
    high = "inf" if p["unbounded_above"] else fmt(p["high"])
    note = f"; {p['model_says']}" if p["model_says"] else ""
    return f"{fmt(p['value'])} [{fmt(p['low'])}, {high}] ({p['source']}{note})".replace("|", "/")


def partition_cell(p):
    """The partitions that give the point, else the nearest tried and its error, else why none was."""
    if p["giving"]:
        return ", ".join(p["giving"]) + " (simulation)"
    tried = p["simulated"]
    failed = f"; {len(p['failed'])} failed" if p.get("failed") else ""
    if not tried:
        return "no partition simulated" + failed
    nearest = min(tried, key=lambda t: abs(t["steady_gups"] - p["measured"]))
    error = nearest["steady_gups"] / p["measured"] - 1
    return (f"none of {len(tried)} tried within {100 * p['tolerance']:.1f}%: nearest {nearest['value']} "
            f"({fmt(nearest['steady_gups'])} GUPS, {100 * error:+.1f}%){failed}")


def needed_sections(document):
    """The candidates' ranking and the value each needs by size; none where no candidate was searched."""
    if not document["mechanisms"]:
        return []
    lines = ["", "## Ranking", ""]
    lines += study_tools.table_lines([
        ("rank", True, lambda m: m["rank"]), ("mechanism", False, lambda m: m["mechanism"]),
        ("in the machine file", True, lambda m: m["nominal_text"]),
        ("best law", False, lambda m: m["growth"].replace("|", "/"))], document["mechanisms"])
    lines += ["", "## Needed value by size", "",
              "Each cell: the value that gives the measured point, the range within its tolerance, and who "
              "found it (the model, or the simulation from the model's value).", ""]
    sizes = [row["nodes"] for row in document["measured"]]
    header = [("mechanism", False, lambda m: m["mechanism"])] + [
        (str(n), False, lambda m, i=i: needed_cell(m["points"][i])) for i, n in enumerate(sizes)]
    lines += study_tools.table_lines(header, document["mechanisms"])
    return lines


def markdown(document):
    lines = ["# What explains the measured column", "", results.provenance(document["command"]), "",
             f"{document['algorithm']} on {document['machine']}; bucket sizes: {document.get('bucket_rule')} "
             f"(model and simulation alike); measured: `{document['measured_file']}`; "
             f"tolerance {100 * document['tolerance']:.1f}% at least (or the point's spread or printed precision).",
             "", f"**{document['verdict']}.**", ""]
    lines += [f"Note: {note}." for note in document.get("baseline_disagreements", [])]
    lines += needed_sections(document) + ["", "## Measured, modelled, simulated", ""]
    lines += study_tools.table_lines([
        ("nodes", True, lambda r: r["nodes"]), ("measured GUPS", True, lambda r: fmt(r["gups"])),
        ("tolerance", True, lambda r: f"{100 * r['tolerance']:.1f}%"),
        ("model (machine file)", True, lambda r: fmt(r["model_gups"])),
        ("model's interval", True, lambda r: "-" if r.get("model_low") is None else
         f"{fmt(r['model_low'])} .. {fmt(r['model_high'])}" + ("" if r.get("inside_the_interval") else " (outside)")),
        ("binds", False, lambda r: r["model_binds"]),
        ("simulated (machine file)", True,
         lambda r: (fmt(r["simulated_gups"]) + (study_tools.UNSETTLED_MARK if r.get("simulated_settled") is False
                                                 else "")) if r.get("simulated", True) else
         "not simulated (model only)")],
        document["measured"])
    sim = document["simulation"]
    unsettled = sim.get("not_settled_runs")
    lines += ["", f"{sim['runs']} simulations" +
              (f" ({sim['failed_runs']} of them failed: the table below lists each)" if sim.get("failed_runs")
               else "") +
              (f" ({unsettled} of them not settled: their steady states may be off by more than 0.5%)"
               if unsettled else "") + f", {document['wall_seconds']:.0f} s of wall time" +
              (f"; not simulated from {sim['not_simulated_from']} nodes" if sim["not_simulated_from"] else "") + ".",
              ""]
    if sim.get("failures"):
        lines += ["## Failed simulations", ""]
        lines += study_tools.table_lines([
            ("candidate", False, lambda f: f["candidate"]), ("value", False, lambda f: fmt(f["value"])),
            ("nodes", True, lambda f: f["nodes"]), ("status", True, lambda f: f["status"]),
            ("why", False, lambda f: f["reason"].replace("|", "/"))], sim["failures"])
        lines += [""]
    lines += ["Command:", "", f"    {document['command']}", ""]
    return "\n".join(lines)


def write_outputs(args, document):
    with open(os.path.join(args.out, "explain.json"), "w", encoding="utf-8") as f:
        json.dump(document, f, indent=1)
        f.write("\n")
    with open(os.path.join(args.out, "explain.md"), "w", encoding="utf-8") as f:
        f.write(markdown(document))
    fields = ["mechanism", "rank", "nodes", "measured", "tolerance", "value", "low", "high", "source",
              "model_value", "simulated_value", "law_value", "law_error"]
    with open(os.path.join(args.out, "explain.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        for m in document["mechanisms"]:
            law = m["law"] or {"values": {}, "errors": {}}
            for p in m["points"]:
                writer.writerow({"mechanism": m["mechanism"], "rank": m["rank"], "law_value":
                                 law["values"].get(str(p["nodes"])), "law_error": law["errors"].get(str(p["nodes"])),
                                 **{k: p[k] for k in fields if k in p}})
    png = os.path.join(args.out, "explain.png")
    if not document["mechanisms"]:  # nothing searched: no needed values to draw (nor an older run's picture)
        if os.path.exists(png):
            os.remove(png)
        return
    from . import plot as explain_plot  # matplotlib only when writing
    explain_plot.needed_values_plot(document, png)
