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
