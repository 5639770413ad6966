"""What a simulation's result says binds (a core or the network's links), whether its steady state is settled,
and where it lies against the model's interval."""
import math


def what_binds(result):
    """The busiest core role and, when measured, the busiest dimension's links: whichever was busy the larger
    share of the update phase is the resource that binds. An algorithm that keeps no busy clock (direct: its
    cores' shares are null) names no core: only links can be said to bind, when measured."""
    timed = [c for c in result["cores"] if c.get("busy_share") is not None]
    if timed:
        busiest = max(timed, key=lambda c: c["busy_share"])
        binds = {"core": busiest["core"], "role": busiest["role"], "core_busy_share": busiest["busy_share"],
                 "resource": f"core {busiest['core']} ({busiest['role']})"}
    else:
        binds = {"core": None, "role": None, "core_busy_share": None,
                 "resource": "not measured (this algorithm keeps no busy clock)"}
    if result.get("link_load"):
        links = max(result["link_load"], key=lambda d: d["mean_utilisation"])
        binds.update({"dimension": links["dimension"], "link_mean_utilisation": links["mean_utilisation"],
                      "link_max_utilisation": links["max_utilisation"]})
        if "class" in links:  # off the torus: a fat-tree level, a dragonfly colour
            binds["link_class"] = links["class"]
        if links["mean_utilisation"] > (binds["core_busy_share"] or 0.0):
            binds["resource"] = f"network ({link_name(binds)} links)"
    return binds


def link_name(binds):
    return binds.get("link_class") or f"dimension {binds['dimension']}"


def binds_line(binds):
    line = f"Binds: {binds['resource']}"
    if binds["core_busy_share"] is not None:
        line += f"; core {binds['core']} busy {binds['core_busy_share']:.0%} of the update phase"
    if "dimension" in binds:
        line += (f", {link_name(binds)} links {binds['link_mean_utilisation']:.0%} on average "
                 f"(busiest link {binds['link_max_utilisation']:.0%})")
    return line


# How close a steady state must be to the one a longer run gives, unless the caller says otherwise.
SETTLED_TOLERANCE = 0.005


def length_to_settle(ran, climbing, noise, tolerance):
    """Updates per node that should settle the run, a first guess that --converge checks: twice as long while its
    quarters climb (a pipeline still filling), and long enough for the standard error to fall to the tolerance.
    The error is mostly the pipelines' breathing (a dip every few hundred microseconds at flow), which a longer
    window averages away as 1/length rather than as 1/sqrt(length) (512 nodes, bgp multicore, flow: the bins'
    scatter halved from 16,384 to 32,768 updates a node)."""
    factor = 2 if climbing else 1
    if noise is not None and noise > tolerance:
        factor = max(factor, noise / tolerance)
    return ran * (1 << math.ceil(math.log2(factor))) if ran else None


def steady_verdict(result, tolerance=SETTLED_TOLERANCE, convergence=None):
    """One verdict on the run's steady state. Settled when the middle half's standard error (gups's batch means,
    `steady_standard_error`) is within the tolerance (the figure is not one draw of a noisy rate) and its two
    quarters within twice it (no climb left from filling the pipeline; within the tolerance itself when the run is
    too short for an error); with --converge, when besides the run stopped once settled (its rate agreeing with
    that of a run of half the length). Otherwise why not and the run length that should settle it. The binding
    core's wait for input is said beside it: a core that binds yet waits is a pipeline still filling."""
    spread = result.get("steady_spread")
    if not result.get("steady_gups") or spread is None:
        return None
    ran = result.get("simulation", {}).get("updates_per_node")
    binds = result.get("binds", {})
    core = next((c for c in result.get("cores", []) if c.get("core") == binds.get("core")), None)
    waiting = None if core is None or core.get("busy_share") is None else \
        max(0.0, 1 - core["busy_share"] - (core.get("stalled_share") or 0.0))
    noise = result.get("steady_standard_error")
    # With the error at the tolerance, the quarters' difference scatters by twice it: only a wider gap is a climb.
    quarters_limit = tolerance if noise is None else 2 * tolerance
    measured = f"quarters {spread:.2%} apart" + (f", standard error {noise:.2%}" if noise is not None else "")
    steady = spread <= quarters_limit and (noise is None or noise <= tolerance)
    # Each limit as it was applied: the quarters' is twice the tolerance where the error is known.
    criteria = (f"standard error within {tolerance:.1%} and quarters within {quarters_limit:.1%}" if noise is not None
                else f"its quarters within {tolerance:.1%}")
    if convergence is not None:
        settled = steady and convergence["converged"]
        basis = f"the run stopped once settled, {criteria}, and a run of half the length agrees"
    else:
        settled = steady
        basis = criteria
    verdict = {"settled": settled, "tolerance": tolerance, "quarters_apart": spread, "standard_error": noise,
               "quarters_limit": quarters_limit, "basis": basis, "binding_core_waiting_share": waiting,
               "updates_per_node": ran}
    if settled:
        verdict["text"] = (f"settled: {basis} ({measured})" +
                           ("" if convergence else "; --converge confirms it against a run of half the length"))
        return verdict
    why = []
    if spread > quarters_limit:
        quarters = result.get("steady_quarters_gups") or [0, 0]
        climbing = quarters[1] > quarters[0]
        why.append(f"quarters {spread:.2%} apart" + (", the later one higher" if climbing else ", the later one lower") +
                   (f", the binding core waiting for input {waiting:.0%} of the time" if waiting else "") +
                   (": the figure may be low" if climbing else ""))
    if noise is not None and noise > tolerance:
        why.append(f"standard error {noise:.2%}: the figure is one draw of a rate that varies that much")
    if convergence is not None and not why:
        why.append(f"not settled by {convergence['longest_updates_per_node']} updates per node "
                   "(--converge-max-updates)")
    longer = length_to_settle(ran, spread > quarters_limit, noise, tolerance)
    verdict["settling_updates_per_node"] = longer
    verdict["text"] = (f"NOT settled within {tolerance:.1%}: " + "; ".join(why) +
                       ("; a longer --converge-max-updates" if convergence is not None else "; run --converge") +
                       (f" (or --updates-per-node {longer})" if longer else ""))
    return verdict


def against_the_interval(result, plan):
    """gups-model's exact interval for this run over the machine file's input ranges (the plan's) and where the
    simulated steady state lies against it: inside (the model's ranges already give it) or outside by how much
    (what the simulation adds beyond the model, or a difference "Against the model" names). None without one."""
    interval = plan.get("model_interval")
    steady = result.get("steady_gups") or result.get("gups")
    if not interval or not steady:
        return None
    # The direct algorithm measures no steady state: its whole run's rate stands in, and is named as such.
    figure = "the steady state" if result.get("steady_gups") else "the whole run's rate (no steady state measured)"
    low, high = interval["low"]["gups"], interval["high"]["gups"]
    beyond = 0.0 if low <= steady <= high else steady / (high if steady > high else low) - 1
    error = result.get("steady_standard_error") or 0.0
    leading = [{"field": e["field"], "share": e["share"]} for e in interval["inputs"][:3] if e["share"] >= 0.005]
    # A steady state is one draw of a rate that varies by its standard error: within twice it of an end is inside.
    return {"model_gups": interval["gups"], "low": low, "high": high, "low_binds": interval["low"]["binding_resource"],
            "high_binds": interval["high"]["binding_resource"], "inputs": leading, "steady_gups": steady,
            "figure": figure, "standard_error": error, "inside": abs(beyond) <= 2 * error, "beyond": beyond}


def interval_line(verdict, inputs):
    """The person's line for against_the_interval's verdict."""
    leading = ", ".join(f"{e['field'].removeprefix('costs_cycles.')} {e['share']:.0%}" for e in verdict["inputs"])
    side = "above" if verdict["beyond"] > 0 else "below"
    edge = (f", {side} its end by {abs(verdict['beyond']):.2%}, within twice its standard error "
            f"({2 * verdict['standard_error']:.2%})" if verdict["beyond"] else "")
    where = (f"lies inside the model's interval {verdict['low']:.4g} .. {verdict['high']:.4g} GUP/s over the machine "
             f"file's input ranges{edge} (the model's ranges already give it)" if verdict["inside"] else
             f"lies OUTSIDE the model's interval {verdict['low']:.4g} .. {verdict['high']:.4g} GUP/s over the machine "
             f"file's input ranges, {side} by {abs(verdict['beyond']):.1%}, "
             f"{'more than twice its standard error' if verdict['standard_error'] else 'with no standard error to allow'}"
             ": what the simulation adds beyond the model, or what 'Against the model' names")
    figure = verdict.get("figure", "the steady state")
    return (f"Against the interval: {figure} {verdict['steady_gups']:.4g} GUP/s {where}; the model "
            f"{verdict['model_gups']:.4g} at the file's values" + (f"; leading inputs: {leading}" if leading else "") +
            ("; gups-sim --inputs low|high simulates its ends" if inputs == "file" else ""))
