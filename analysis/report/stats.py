"""Run-to-run statistics of the records: mean, min, max, coefficient of variation."""
import statistics


def summarise(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    mean = statistics.fmean(values)
    cv = statistics.pstdev(values) / mean if len(values) > 1 and mean else 0.0
    return {"n": len(values), "mean": mean, "min": min(values), "max": max(values), "cv": cv}


def by_point(records, field="gups", owner="division"):
    """{(source, algorithm, nodes): summary of `field`} for one way of finding owners."""
    groups = {}
    for r in records:
        if r.get("owner", "division") != owner:
            continue
        groups.setdefault((r["source"], r["algorithm"], r["nodes"]), []).append(r.get(field))
    return {key: summarise(values) for key, values in groups.items() if summarise(values)}


def beyond_interval(value, low, high, slack=0.0):
    """How far `value` lies outside [low, high] as a signed fraction of the end it passed (+ above, - below), or 0
    inside it (each end widened by the fraction `slack`, for figures rounded as printed)."""
    if low * (1 - slack) <= value <= high * (1 + slack):
        return 0.0
    return value / (high if value > high else low) - 1


def leading_inputs(inputs, count):
    """gups-model's inputs of an interval as words, the `count` largest shares first: "update_streamed 87%, ..."."""
    ranked = sorted(inputs or [], key=lambda e: -e.get("share", 0))[:count]
    return ", ".join(f"{e['field'].removeprefix('costs_cycles.')} {e['share']:.0%}" for e in ranked
                     if e.get("share", 0) >= 0.005)
