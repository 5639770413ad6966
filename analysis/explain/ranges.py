"""Before any candidate: does the measured column lie within what the machine file's input ranges already allow?
A point inside the model's interval (widened by its tolerance) needs no mechanism; the inputs that carry that
interval are the ones a user would have to pin down to tell."""
from ..report import stats


def against_ranges(measured, base, tolerance):
    """Each measured point against gups-model's interval at its size, each end widened by the point's tolerance
    (at least `tolerance`): {nodes: {low, high, inside, beyond, inputs}}; empty where the model gave no interval."""
    verdicts = {}
    for n, point in measured.items():
        interval = base[n].get("interval")
        if not isinstance(interval, dict):
            continue
        low, high = interval["low"]["gups"], interval["high"]["gups"]
        beyond = stats.beyond_interval(point.gups, low, high, slack=point.tolerance(tolerance))
        verdicts[n] = {"low": low, "high": high, "inside": beyond == 0, "beyond": beyond,
                       "inputs": [e["field"] for e in sorted(interval.get("inputs", []), key=lambda e: -e["share"])
                                  if e["share"] >= 0.005]}
    return verdicts


def leading_inputs(verdicts, count=2):
    """The inputs that lead the intervals of the points, most often first, at most `count`."""
    ranked = {}
    for v in verdicts.values():
        for place, field in enumerate(v["inputs"]):
            ranked[field] = min(ranked.get(field, place), place)
    return [f.removeprefix("costs_cycles.") for f in sorted(ranked, key=lambda f: ranked[f])[:count]]


def ranges_text(verdicts, sizes, concluding=True):
    """The verdict's first words: the whole column within the ranges, or which sizes are and which are not. A column
    wholly inside needs no mechanism only where the verdict concludes so (concluding); where the column departs
    from the machine one way, or candidates were searched, the ranges are context, not the answer."""
    if not verdicts:
        return ""
    inside = [n for n in sizes if verdicts.get(n, {}).get("inside")]
    inputs = " and ".join(leading_inputs(verdicts)) or "its inputs"
    if len(inside) == len(sizes):
        if not concluding:
            return (f"within the ranges of {inputs} at every size (the model's interval over the machine file's "
                    "input ranges allows the column)")
        return (f"no mechanism needed: within the ranges of {inputs} (every size inside the model's interval over "
                "the machine file's input ranges)")
    outside = [f"{n} ({'above' if verdicts[n]['beyond'] > 0 else 'below'} by {abs(verdicts[n]['beyond']):.1%})"
               for n in sizes if n in verdicts and not verdicts[n]["inside"]]
    text = f"outside the model's interval over the machine file's input ranges at {', '.join(outside)}"
    if inside:
        text += f"; within the ranges of {inputs} at {', '.join(map(str, inside))}"
    return text
