"""What a simulation's result says binds (a core or the network's links), and when --converge's doublings of the
run length have reached the steady state."""

def what_binds(result):
    """The busiest core role and, when measured, the busiest dimension's links: whichever was busy the larger
    share of the update phase is the resource that binds."""
    busiest = max(result["cores"], key=lambda c: c["busy_share"])
    binds = {"core": busiest["core"], "role": busiest["role"], "core_busy_share": busiest["busy_share"],
             "resource": f"core {busiest['core']} ({busiest['role']})"}
    if result.get("link_load"):
        links = max(result["link_load"], key=lambda d: d["mean_utilisation"])
        binds.update({"dimension": links["dimension"], "link_mean_utilisation": links["mean_utilisation"],
                      "link_max_utilisation": links["max_utilisation"]})
        if "class" in links:  # off the torus: a fat-tree level, a dragonfly colour
            binds["link_class"] = links["class"]
        if links["mean_utilisation"] > busiest["busy_share"]:
            binds["resource"] = f"network ({link_name(binds)} links)"
    return binds


def link_name(binds):
    return binds.get("link_class") or f"dimension {binds['dimension']}"


def binds_line(binds):
    line = f"Binds: {binds['resource']}; core {binds['core']} busy {binds['core_busy_share']:.0%} of the update phase"
    if "dimension" in binds:
        line += (f", {link_name(binds)} links {binds['link_mean_utilisation']:.0%} on average "
                 f"(busiest link {binds['link_max_utilisation']:.0%})")
    return line


def converged(result, previous, tolerance):
    """Steady: its two quarters agree, and so does the run of half the length before it (a short run's
    buffers still absorb the imbalance of random traffic, so its quarters can agree on too high a rate)."""
    if result["partial"] or result.get("steady_gups", 0) <= 0 or result["steady_spread"] > tolerance:
        return False
    return previous is not None and abs(result["steady_gups"] - previous) <= tolerance * result["steady_gups"]


# How close a steady state must be to the one a longer run gives, unless the caller says otherwise.
SETTLED_TOLERANCE = 0.005


def steady_verdict(result, tolerance=SETTLED_TOLERANCE, convergence=None):
    """One verdict on the run's steady state: settled when its two quarters agree within the tolerance (and, with
    --converge, when the run of half the length agrees too); otherwise why not and what would settle it. The
    binding core's wait for input is said beside it: a core that binds yet waits is a pipeline still filling."""
    spread = result.get("steady_spread")
    if not result.get("steady_gups") or spread is None:
        return None
    ran = result.get("simulation", {}).get("updates_per_node")
    binds = result.get("binds", {})
    core = next((c for c in result.get("cores", []) if c.get("core") == binds.get("core")), None)
    waiting = None if core is None else max(0.0, 1 - core["busy_share"] - core.get("stalled_share", 0.0))
    if convergence is not None:
        settled, basis = convergence["converged"], "two runs of doubling length agree and each one's quarters"
    else:
        settled, basis = spread <= tolerance, "its quarters"
    verdict = {"settled": settled, "tolerance": tolerance, "quarters_apart": spread, "basis": basis,
               "binding_core_waiting_share": waiting, "updates_per_node": ran}
    if settled:
        verdict["text"] = (f"settled: {basis} within {tolerance:.1%} ({spread:.2%} apart)" +
                           ("" if convergence else "; --converge confirms it against a run of twice the length"))
    else:
        longer = f"--updates-per-node {2 * ran}" if ran else "a longer run"
        verdict["text"] = (f"NOT settled: {basis} {spread:.2%} apart, more than {tolerance:.1%}" +
                           (f", the binding core waiting for input {waiting:.0%} of the time" if waiting else "") +
                           f": the figure may be low; run --converge (or {longer})")
    return verdict
