"""What the evidence allows a verdict to say: whether the column departs from the machine as given at all (beyond
the noise), whether it departs all one way (a systematic offset), whether a candidate's own simulation refutes
the law fitted to it, and how candidates that fit equally well are ranked and told apart."""
import dataclasses
import math


@dataclasses.dataclass
class Departure:
    """A measured point against the machine as given at its size: the simulation where one ran, else the model."""
    nodes: int
    measured: float
    reference: float
    source: str  # "simulation" or "model"
    tolerance: float

    @property
    def relative(self):
        return self.measured / self.reference - 1

    @property
    def beyond(self):
        return abs(self.relative) > self.tolerance


def departures(measured, tolerance, model_gups, simulated, simulated_spread=None):
    """Each point against the machine as given: {nodes: Departure}. A point's tolerance is its own (the largest of
    the one asked for, its spread, its printed precision) widened by the simulation's own spread there."""
    result = {}
    for n, point in measured.items():
        if simulated.get(n):
            reference, source = simulated[n], "simulation"
            noise = (simulated_spread or {}).get(n) or 0.0
        else:
            reference, source, noise = model_gups[n], "model", 0.0
        result[n] = Departure(n, point.gups, reference, source, max(point.tolerance(tolerance), noise))
    return result


def nothing_measurable(found):
    """True when every point is the machine's own within its tolerance: no mechanism moved anything."""
    return bool(found) and not any(d.beyond for d in found.values())


def nothing_measurable_text(found):
    by = {}
    for d in found.values():
        by.setdefault(d.source, []).append(d.nodes)
    where = "; ".join(f"{source}: {', '.join(map(str, sizes))} nodes" for source, sizes in by.items())
    largest = max(found.values(), key=lambda d: abs(d.relative))
    return (f"nothing measurable: the column is the machine's within the noise (every point within its tolerance of "
            f"the machine as given, {where}; the largest departure {largest.relative:+.1%} at {largest.nodes} nodes, "
            f"within {largest.tolerance:.1%})")


def one_sided(found):
    """'below' or 'above' when at least two points depart beyond their tolerance and all of those the same way
    (the others within it); None otherwise."""
    beyond = [d for d in found.values() if d.beyond]
    if len(beyond) < 2:
        return None
    sides = {d.relative < 0 for d in beyond}
    if len(sides) != 1:
        return None
    return "below" if sides.pop() else "above"


def offset_text(found):
    """The line a one-sided departure gets before anything else is said of it."""
    side = one_sided(found)
    beyond = sorted((d for d in found.values() if d.beyond), key=lambda d: d.nodes)
    smallest = min(abs(d.relative) for d in beyond)
    largest = max(abs(d.relative) for d in beyond)
    every = len(beyond) == len(found)
    what = "a systematic offset: every point" if every else \
        f"a one-sided departure: {len(beyond)} of {len(found)} points ({', '.join(str(d.nodes) for d in beyond)})"
    return (f"{what} {side} the machine as given by {100 * smallest:.1f}% to {100 * largest:.1f}%, each beyond its "
            f"tolerance")


# ---- refutation -------------------------------------------------------------------------------------------

# A simulation tried this close to the law's value stands for the law's value itself. Nothing between tries is
# taken for a simulation: GUPS can turn sharply between two tries (where another core starts to bind).
NEAR = 0.005


def simulated_at(tried, value):
    """GUPS the simulation gave at `value`: a try within NEAR of it; None where none was run there."""
    close = [(abs(v - value), g) for v, g in tried if isinstance(v, (int, float))
             and math.isclose(v, value, rel_tol=NEAR, abs_tol=1e-12)]
    return min(close)[1] if close else None


def refutations(entry):
    """Sizes where the candidate's own simulation at the value its law needs there (a try within NEAR of it)
    misses the measured point by more than its tolerance: [(nodes, value, simulated GUPS, measured)]."""
    law = entry.get("law")
    if law is None or entry["mechanism"].categorical:
        return []
    found = []
    for n, point in entry["points"].items():
        value = law.values.get(n)
        gups = None if value is None else simulated_at(point.get("simulated", []), value)
        if gups is not None and abs(gups - point["measured"]) > point["tolerance"] * point["measured"]:
            found.append((n, value, gups, point["measured"]))
    return found


def refutation_text(name, found):
    n, v, g, m = found[0]
    more = f" (and at {len(found) - 1} more sizes)" if len(found) > 1 else ""
    return (f"refuted by its own simulation: at {n} nodes {name} = {v:.4g} gives {g:.4g} GUPS simulated against "
            f"{m:.4g} measured{more}")


# ---- ties -------------------------------------------------------------------------------------------------

TIE_RULE = ("ranked by the fewest sizes moved from the machine file's value, then the simplest law, then the "
            "smallest move against the input's prior range")


def prior_move(entry, machine):
    """How far the law moves the input, in units of its prior range where the machine file states one (1: to the
    end of the range), else as the factor it moves by, on a log scale (halving and doubling count the same, so a
    cut to a fifth is not ranked closer than a doubling): the smaller, the more plausible."""
    law, nominal = entry["law"], entry["nominal"]
    if law is None or not nominal:
        return math.inf
    low, high = prior_range(entry["mechanism"], machine, nominal)
    moves = []
    for value in law.values.values():
        if value >= nominal:
            moves.append((value - nominal) / (high - nominal) if high > nominal else log_factor(value, nominal))
        else:
            moves.append((nominal - value) / (nominal - low) if low < nominal else log_factor(value, nominal))
    return max(moves) if moves else math.inf


def log_factor(value, nominal):
    return abs(math.log(value / nominal)) if value > 0 and nominal > 0 else math.inf


def prior_range(mechanism, machine, nominal):
    """The input's range as its machine file states it (sources[field].range, the first field the mechanism
    moves; an element such as core_overhead[3] takes its list's entry when it has none of its own), else the
    nominal value itself (no range: the move counts as a factor)."""
    sources = machine.get("sources", {})
    for field in mechanism.fields(machine):
        source = sources.get(field, sources.get(field.split("[")[0]))
        if isinstance(source, dict) and isinstance(source.get("range"), list) and len(source["range"]) == 2:
            low, high = source["range"]
            if isinstance(low, (int, float)) and isinstance(high, (int, float)) and low <= nominal <= high:
                return float(low), float(high)
    return nominal, nominal


def tie_key(entry, machine):
    law = entry["law"]
    return (law.departures, law.parameters, prior_move(entry, machine))


def separation_text(ties, other_gups, other_algorithm, nodes, tolerance):
    """What would tell tied candidates apart: the other algorithm's GUPS at the largest size with each at its
    value (other_gups: {name: GUPS}), where they differ by more than twice the tolerance; else the per-core
    counts gups-sim's JSON records."""
    values = [g for g in other_gups.values() if g]
    if len(values) == len(other_gups) and max(values) > min(values) * (1 + 2 * tolerance):
        each = ", ".join(f"{name} gives {g:.4g}" for name, g in other_gups.items())
        return f"a {other_algorithm} run at {nodes} nodes would separate them ({each} GUPS in the model)"
    return ("no GUPS of this machine separates them: a per-core cycle count would (cores[].busy_share and the "
            "cycles per update each core spends, in gups-sim's JSON, against the same counts on the machine)")
