"""The partition as a candidate of `explain`: which shape a run of N nodes had, and which of its dimensions wrap.
Unlike the numeric mechanisms it has no value to invert: at each measured size the simulation tries the
partitions a few rules give (the machine's own, the balanced shape, a mesh in one dimension, in the longest, in
all), and a rule explains the column when its partition gives every point. A rule that keeps the machine's
partition counts no departure; any other is one choice among RULES, counted as one parameter, as a constant
value is for a numeric mechanism."""
import dataclasses
import typing

from . import laws as explain_laws


@dataclasses.dataclass(frozen=True)
class Partition:
    shape: str  # such as 4x4x8
    wraps: str  # one letter a dimension: t wraps, m does not

    @property
    def label(self):
        return f"{self.shape} {self.wraps}"


@dataclasses.dataclass(frozen=True)
class Rule:
    name: str
    describe: str
    # (the machine's partition, the balanced shape) -> the rule's partition
    partition: typing.Callable


def sides(shape):
    return [int(side) for side in shape.split("x")]


def meshed(wraps, dimension):
    return wraps[:dimension] + "m" + wraps[dimension + 1:]


def longest_meshed(partition):
    """The longest side a mesh (the last of them where several are longest); a cube keeps its wraps."""
    lengths = sides(partition.shape)
    if len(set(lengths)) == 1:
        return partition
    longest = max(range(len(lengths)), key=lambda d: (lengths[d], d))
    return Partition(partition.shape, meshed(partition.wraps, longest))


def rules(dimensions):
    listed = [
        Rule("as given", "the machine's partition, its wraps as the machine file gives them",
             lambda given, balanced: given),
        Rule("balanced shape", "the most balanced shape, the machine's wraps", lambda given, balanced: balanced),
        Rule("every dimension wraps", "the machine's shape, a torus in every dimension",
             lambda given, balanced: Partition(given.shape, "t" * dimensions)),
        Rule("a mesh", "the machine's shape, no wrap-around link at all",
             lambda given, balanced: Partition(given.shape, "m" * dimensions)),
        Rule("the longest side a mesh", "the machine's shape, its longest side without wrap-around links (a cube "
             "wraps in every dimension)", lambda given, balanced: longest_meshed(given)),
    ]
    listed += [Rule(f"dimension {d} a mesh", f"the machine's shape, dimension {d} without wrap-around links",
                    lambda given, balanced, d=d: Partition(given.shape, meshed(given.wraps, d)))
               for d in range(dimensions)]
    return listed


def partitions_at(given, balanced):
    """The distinct partitions the rules give at one size, the machine's first: {label: Partition}."""
    found = {given.label: given}
    for rule in rules(len(sides(given.shape))):
        partition = rule.partition(given, balanced)
        found.setdefault(partition.label, partition)
    return found


def sim_options(partition):
    return ["--shape", partition.shape, "--wrap", partition.wraps]


def fit(points, given, balanced):
    """The rules as laws: each size's partition under the rule, its simulated GUPS against the point.
    `points`: {nodes: {"measured", "tolerance", "tried": {label: GUPS}}}; given, balanced: {nodes: Partition}."""
    found = []
    dimensions = len(sides(next(iter(given.values())).shape))
    for rule in rules(dimensions):
        values, errors = {}, {}
        for n, point in points.items():
            partition = rule.partition(given[n], balanced[n])
            values[n] = partition.label
            gups = point["tried"].get(partition.label)
            errors[n] = float("inf") if gups is None else abs(gups - point["measured"]) / point["measured"]
        departures = sum(1 for n in points if values[n] != given[n].label)
        explains = all(errors[n] <= points[n]["tolerance"] * (1 + 1e-9) for n in points)
        found.append(explain_laws.Law(rule.name, 0 if departures == 0 else 1, rule.describe, values, errors,
                                      explains, departures))
    return found
