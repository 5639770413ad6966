"""A measured column for `explain`: CSV with a header, columns nodes and gups, optionally spread (the
run-to-run spread, in GUPS). Each point's tolerance is the largest of the one asked for, its spread and half
a unit of its last printed digit (0.21 is anything from 0.205 to 0.215)."""
import csv
import dataclasses
import decimal
import math


@dataclasses.dataclass(frozen=True)
class MeasuredPoint:
    nodes: int
    gups: float
    spread: float
    printed_half_unit: float

    def tolerance(self, asked):
        return max(asked, self.spread / self.gups, self.printed_half_unit / self.gups)


def read_measured(path):
    """The points of a measured CSV, by size. ValueError says what is wrong, with the line."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
    except OSError as error:
        raise ValueError(f"cannot read the measured column {path}: {error.strerror}") from error
    rows = [r for r in rows if r and not r[0].lstrip().startswith("#") and any(c.strip() for c in r)]
    if not rows:
        raise ValueError(f"{path}: no header and no points (want columns nodes,gups[,spread])")
    header = [c.strip().lower() for c in rows[0]]
    for needed in ("nodes", "gups"):
        if needed not in header:
            raise ValueError(f"{path}: no '{needed}' column in the header {rows[0]} (want nodes,gups[,spread])")
    at = {name: header.index(name) for name in header}
    points = {}
    for line, row in enumerate(rows[1:], start=2):
        def cell(name):
            if at[name] >= len(row) or not row[at[name]].strip():
                raise ValueError(f"{path}:{line}: no {name}")
            return row[at[name]].strip()
        nodes_text = cell("nodes")
        try:
            nodes = int(nodes_text)
        except ValueError:
            raise ValueError(f"{path}:{line}: nodes must be a whole number, not '{nodes_text}'") from None
        text = cell("gups")
        try:
            gups = float(text)
            exponent = decimal.Decimal(text).as_tuple().exponent
        except (ValueError, decimal.InvalidOperation):
            raise ValueError(f"{path}:{line}: gups must be a number, not '{text}'") from None
        spread = 0.0
        if "spread" in at and at["spread"] < len(row) and row[at["spread"]].strip():
            try:
                spread = float(row[at["spread"]])
            except ValueError:
                raise ValueError(f"{path}:{line}: spread must be a number, not '{row[at['spread']]}'") from None
        if nodes < 1:
            raise ValueError(f"{path}:{line}: nodes must be at least 1, not {nodes}")
        if not math.isfinite(gups) or gups <= 0:
            raise ValueError(f"{path}:{line}: gups must be a positive number, not {text}")
        if not math.isfinite(spread) or spread < 0:
            raise ValueError(f"{path}:{line}: spread must be zero or more, not {spread:g}")
        if nodes in points:
            raise ValueError(f"{path}:{line}: {nodes} nodes twice")
        half_unit = 0.5 * 10.0 ** exponent if isinstance(exponent, int) else 0.0
        points[nodes] = MeasuredPoint(nodes, gups, spread, half_unit)
    if not points:
        raise ValueError(f"{path}: no points under the header")
    return dict(sorted(points.items()))
