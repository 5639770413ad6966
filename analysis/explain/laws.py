"""Whether one value, or one simple law of the size, gives every measured point: the laws, their fit, and the
ranking of mechanisms by how well they explain a column."""
import dataclasses
import math
import statistics


@dataclasses.dataclass
class Point:
    """One size: the value a mechanism needs there (None: none gives the point), the range within the point's
    tolerance, the size's features, and the GUPS any value gives (gups_at)."""
    nodes: int
    measured: float
    tolerance: float
    value: float
    low: float
    high: float
    hops: float
    bucket: float
    gups_at: object

    def error(self, value):
        return abs(self.gups_at(value) - self.measured) / self.measured


@dataclasses.dataclass
class Law:
    name: str
    parameters: int
    describe: str
    values: dict  # nodes -> the law's value
    errors: dict  # nodes -> relative GUPS error with it
    explains: bool
    # Sizes at which the law moves the mechanism from the machine file's value: the fewer, the less the
    # explanation changes (a law free to move where the mechanism does not bind fits anything there).
    departures: int = 0
    # Why the law cannot be: it needs a cost below 0, or an efficiency below 0 or above 1 (empty: it can be).
    unphysical: str = ""

    @property
    def max_error(self):
        return max(self.errors.values()) if self.errors else math.inf


FEATURES = {
    "nodes": lambda p: float(p.nodes),
    "log2(nodes)": lambda p: math.log2(p.nodes),
    "hops": lambda p: p.hops,
    "1/bucket": lambda p: 1 / p.bucket if p.bucket else None,
}


def weight(point):
    width = point.high - point.low
    return 0.0 if not math.isfinite(width) else 1 / max(width, 1e-12 * max(1.0, abs(point.value)))


def weighted_line(xs, ys, ws):
    """(a, b) of y = a + b x by least squares with weights; None when x does not vary among weighted points."""
    total = sum(ws)
    if total <= 0:
        return None
    mx = sum(w * x for x, w in zip(xs, ws)) / total
    my = sum(w * y for y, w in zip(ys, ws)) / total
    sxx = sum(w * (x - mx) ** 2 for x, w in zip(xs, ws))
    if sxx <= 1e-12 * max(1.0, mx * mx) * total:
        return None
    b = sum(w * (x - mx) * (y - my) for x, y, w in zip(xs, ys, ws)) / sxx
    return my - b * mx, b


def best_constant(points, lower_bound, nominal=None):
    """The constant with the smallest largest error among a few candidates: the weighted mean, the median, the
    middle of the range every point allows, if there is one; the machine's own value first if it gives every
    point."""
    if nominal is not None and all(p.error(nominal) <= p.tolerance for p in points):
        return nominal
    candidates = [statistics.median(p.value for p in points)]
    ws = [weight(p) for p in points]
    if sum(ws) > 0:
        candidates.append(sum(w * p.value for p, w in zip(points, ws)) / sum(ws))
    low, high = max(p.low for p in points), min(p.high for p in points)
    if low <= high:
        candidates.append(low if math.isinf(high) else (low + high) / 2)
        candidates.append(min(max(candidates[0], low), high))
    candidates = [max(c, lower_bound) for c in candidates]
    return min(candidates, key=lambda c: max(p.error(c) for p in points))


def law_of(name, parameters, describe, points, value_of, nominal=None, bounds=(0.0, math.inf), raw_of=None):
    values = {p.nodes: value_of(p) for p in points}
    errors = {p.nodes: p.error(values[p.nodes]) for p in points}
    unphysical = why_unphysical({p.nodes: (raw_of or value_of)(p) for p in points}, bounds)
    explains = not unphysical and all(errors[p.nodes] <= p.tolerance * (1 + 1e-9) for p in points)
    departures = sum(1 for v in values.values() if nominal is None or not math.isclose(v, nominal, rel_tol=1e-9))
    return Law(name, parameters, describe, values, errors, explains, departures, unphysical)


def why_unphysical(raw, bounds):
    """Where a law's own values leave what the input can be: a cost below 0 (clipped, it would be another law),
    an efficiency below 0 or above 1."""
    low, high = bounds
    under = {n: v for n, v in raw.items() if v < low - 1e-9 * max(1.0, abs(low))}
    over = {n: v for n, v in raw.items() if v > high * (1 + 1e-9)}
    if under:
        n = min(under, key=under.get)
        return f"unphysical: it needs {under[n]:.4g} at {n} nodes, below {low:g}"
    if over:
        n = max(over, key=over.get)
        return f"unphysical: it needs {over[n]:.4g} at {n} nodes, above {high:g}"
    return ""


def fit_laws(points, unit, lower_bound=0.0, nominal=None, upper_bound=math.inf):
    """Every law that can be fitted to these points (each needs more points than parameters). A law whose values
    leave [lower_bound, upper_bound] anywhere is kept, marked unphysical, and never explains."""
    bounds = (0.0 if lower_bound > 0 else lower_bound, upper_bound)
    points = [p for p in points if p.value is not None]
    laws = []
    if not points:
        return laws
    c = best_constant(points, lower_bound, nominal)
    laws.append(law_of("constant", 1, f"{c:.4g} {unit} at every size", points, lambda p: c, nominal, bounds))
    if len(points) >= 3:
        for feature, x_of in FEATURES.items():
            xs = [x_of(p) for p in points]
            if any(x is None for x in xs):
                continue
            line = weighted_line(xs, [p.value for p in points], [weight(p) or 1e-9 for p in points])
            if line is None:
                continue
            a, b = line
            laws.append(law_of(f"linear in {feature}", 2, f"{a:.4g} {b:+.4g} x {feature} {unit}", points,
                               lambda p, a=a, b=b, x_of=x_of: max(lower_bound, a + b * x_of(p)), nominal, bounds,
                               raw_of=lambda p, a=a, b=b, x_of=x_of: a + b * x_of(p)))
    ordered = sorted(points, key=lambda p: p.nodes)
    for split in range(2, len(ordered) - 1):
        below, above = ordered[:split], ordered[split:]
        c1, c2 = best_constant(below, lower_bound, nominal), best_constant(above, lower_bound, nominal)
        threshold = below[-1].nodes
        laws.append(law_of(f"step above {threshold} nodes", 3,
                           f"{c1:.4g} {unit} up to {threshold} nodes, {c2:.4g} above", points,
                           lambda p, c1=c1, c2=c2, t=threshold: c1 if p.nodes <= t else c2, nominal, bounds))
    return laws


def best_law(laws):
    """Of the laws that give every point within its tolerance, the one that moves the mechanism from the
    machine's value at the fewest sizes, then the simplest; else the one nearest to giving every point."""
    explaining = [law for law in laws if law.explains]
    if explaining:
        return min(explaining, key=lambda law: (law.departures, law.parameters, law.max_error))
    return min(laws, key=lambda law: (bool(law.unphysical), law.max_error)) if laws else None


def ranking_key(entry):
    """Mechanisms that explain the column first: the law that moves the machine's value at the fewest sizes,
    then the simplest, then the smallest error; then those that reach every point, by error; then the rest, by
    the points they cannot reach and then error."""
    law = entry["law"]
    if law is None:
        return (3, 0, 0, math.inf)
    if law.explains and entry["unreached"] == 0:
        return (0, law.departures, law.parameters, law.max_error)
    return (1 if entry["unreached"] == 0 else 2, entry["unreached"], 0, law.max_error)
