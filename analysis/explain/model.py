"""What the model needs: for one mechanism at one size, GUPS as a function of its value (from gups-model), and
the value, or the range of values, that gives a measured point."""
import dataclasses
import json
import math
import os
import tempfile

from ..run import launcher, programs


class ModelError(ValueError):
    pass


def model_rows(binary, machine, algorithm, nodes, buckets, owner):
    """gups-model's rows for a machine file (a dict), by node count."""
    with tempfile.TemporaryDirectory(prefix="gups-explain-") as folder:
        machine_path = programs.write_machine(machine, os.path.join(folder, "machine.json"))
        out = os.path.join(folder, "model.json")
        status, _, err = launcher.run(programs.model_command(binary, machine_path, algorithm,
                                                             ",".join(str(n) for n in nodes), "--buckets", buckets,
                                                             "--owner", owner, "--json", out))
        if status != 0:
            raise ModelError(err.strip().splitlines()[-1] if err.strip() else f"gups-model failed ({status})")
        with open(out, encoding="utf-8") as f:
            rows = json.load(f)["results"][0]["rows"]
    return {row["nodes"]: row for row in rows}


@dataclasses.dataclass
class Response:
    """GUPS of one size as a function of one mechanism's value, exactly as the model computes it: each core's
    cycles per update are linear in a cost (a + b x value), the network bound linear in a bandwidth factor."""
    nodes: int
    # gups-model's CPU bound times the slowest core's cycles per update (its cpu_gups x cpu_cycles_per_update):
    # the bound at any cycles is this over them, with the nodes, processes and clock as the model counts them.
    gups_cycles: float
    kind: str
    cores: list  # (a, b) per core, cycles = a + b * value
    network_gups: float  # at the machine file's bandwidth (factor 1); inf: no network bound
    cpu_gups: float  # at the nominal value

    def gups(self, value):
        if self.kind == "factor":
            return min(self.cpu_gups, value * self.network_gups)
        cycles = max(a + b * value for a, b in self.cores)
        cpu = math.inf if cycles <= 0 else self.gups_cycles / cycles
        return min(cpu, self.network_gups)

    def binding_core(self, value):
        """The core whose cycles per update are the most at this value (the model's per-core loads), or None for a
        capacity."""
        if self.kind != "cost" or not self.cores:
            return None
        return max(range(len(self.cores)), key=lambda c: self.cores[c][0] + self.cores[c][1] * value)

    def moves(self):
        return self.kind == "factor" or any(b != 0 for _, b in self.cores)


def responses(binary, machine, algorithm, base, buckets, owner, mechanism):
    """Response of every size to a mechanism the model has a term for, from the model's rows of the machine as
    given (`base`, by node count) and a run with the mechanism moved (a third run checks the straight lines)."""
    nominal = mechanism.nominal(machine)
    nodes = list(base)

    def scale(row):
        return row["cpu_gups"] * row["cpu_cycles_per_update"]

    if mechanism.kind == "factor":
        return {n: Response(n, scale(row), "factor", [], row.get("network_gups") or math.inf, row["cpu_gups"])
                for n, row in base.items()}
    step = max(1.0, abs(nominal))
    moved = model_rows(binary, mechanism.applied(machine, nominal + step), algorithm, nodes, buckets, owner)
    result = {}
    for n, row in base.items():
        lines = []
        for core, other in zip(row["cores"], moved[n]["cores"]):
            b = (other["cycles"] - core["cycles"]) / step
            lines.append((core["cycles"] - b * nominal, b))
        result[n] = Response(n, scale(row), "cost", lines, row.get("network_gups") or math.inf, row["cpu_gups"])
    check = model_rows(binary, mechanism.applied(machine, nominal + 3 * step), algorithm, nodes, buckets, owner)
    for n, response in result.items():
        if not math.isclose(response.gups(nominal + 3 * step), check[n]["gups"], rel_tol=1e-6):
            raise ModelError(f"the model is not linear in {mechanism.name} at {n} nodes: explain cannot invert it")
    return result


@dataclasses.dataclass
class Needed:
    """The value that gives a measured point: `value` (the one nearest the machine's where a range does),
    the range [low, high] within the point's tolerance, or why none does."""
    value: float = None
    low: float = None
    high: float = None
    reason: str = ""

    @property
    def reached(self):
        return self.value is not None


def invert(gups_of, measured, tolerance, nominal, increasing, lowest, highest):
    """Values of a monotone gups_of(value) on [lowest, highest] (highest may be inf) that give `measured` within
    `tolerance` (relative): the range [low, high], and the value that gives it exactly (the machine's own
    when that is in the range)."""
    def g(v):  # decreasing in v in both cases, by reading a growing function backwards
        return gups_of(v) if not increasing else gups_of(flip(v))

    def flip(v):  # increasing functions are searched over 1/value
        return math.inf if v == 0 else (0.0 if math.isinf(v) else 1 / v)

    lo, hi = (lowest, highest) if not increasing else (flip(highest), flip(lowest))
    top, bottom = g(lo), g(hi)
    if measured > top * (1 + tolerance):
        return Needed(reason=f"out of reach: at most {top:.4g} GUPS at any value")
    if measured < bottom * (1 - tolerance):
        return Needed(reason=f"out of reach: at least {bottom:.4g} GUPS at any value")

    def last_at_least(target):  # sup {v: g(v) >= target}, g decreasing
        if g(hi) >= target:
            return hi
        if g(lo) < target:
            return lo
        a, b = lo, hi
        for _ in range(200):
            mid = between(a, b)
            a, b = (mid, b) if g(mid) >= target else (a, mid)
            if relative_gap(a, b) < 1e-12:
                break
        return a

    low, high = last_at_least(measured * (1 + tolerance)), last_at_least(measured * (1 - tolerance))
    if g(lo) <= measured * (1 + tolerance):
        low = lo
    exact = last_at_least(measured)
    value = exact if g(lo) >= measured else lo
    if increasing:
        low, high, value = flip(high), flip(low), flip(value)
    if low <= nominal <= high:
        value = nominal  # the machine's own value gives the point within its tolerance
    return Needed(value=value, low=low, high=high)


def between(a, b):
    if math.isinf(b):
        return max(2 * a, 1.0)
    if a > 0 and b / a > 4:
        return math.sqrt(a * b)
    return (a + b) / 2


def relative_gap(a, b):
    if math.isinf(b):
        return math.inf
    return abs(a - b) / max(abs(a), abs(b), 1e-300)


def needed_by_model(response, measured, tolerance, nominal):
    """What the model needs of this mechanism at this size."""
    if not response.moves():
        return Needed(reason="no term of the model: it does not move this size")
    if response.kind == "factor":
        needed = invert(response.gups, measured, tolerance, nominal, True, 1e-9, math.inf)
        busy = measured / response.network_gups
        if not needed.reached:
            needed.reason = (f"out of reach: the CPU bound ({response.cpu_gups:.4g} GUPS) is under the point "
                             f"whatever the network")
        elif math.isinf(needed.high):
            needed.reason = (f"the network does not bind: the point keeps the links {busy:.0%} busy, any "
                             f"efficiency from {needed.low:.3g} gives it")
        else:
            needed.reason = f"binding only if the links deliver {busy:.0%} of their bandwidth"
        return needed
    needed = invert(response.gups, measured, tolerance, nominal, False, 0.0, math.inf)
    if not needed.reached and measured > response.gups(0.0):
        needed.reason = f"out of reach: {response.gups(0.0):.4g} GUPS at 0 cycles (another core or the network binds)"
    return needed
