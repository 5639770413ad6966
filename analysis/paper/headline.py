"""The main job's report: its first screen says what was found (each sentence computed from the results below
it), then the Table 4 replica, the owner experiment, this host's validation, the plots and every command."""
import datetime
import json
import os
import platform
import statistics

from .. import report, results
from ..report import plot, stats
from ..run import hpcc
from . import study

TITLES = {("bgp", "multicore"): "Blue Gene/P, multi-core algorithm (4 specialised cores per node)",
          ("bgp", "routed"): "Blue Gene/P, single-core algorithm",
          ("bgl", "routed"): "Blue Gene/L, single-core algorithm"}
EQUATION = {"multicore": "Eq. 7", "routed": "Eq. 1"}
# A ratio this far from 1 or moving this much across sizes is worth a word; below it, it is noise of the run.
NOTABLE = 0.01


def g(value):
    return study.fmt(value)


def span(values, spec=".3f"):
    low, high = min(values), max(values)
    return format(low, spec) if format(low, spec) == format(high, spec) else f"{low:{spec}} to {high:{spec}}"


def equation_gups(row):
    """Eq. 1 or 7 with the buckets the simulation of this row used."""
    return row["sim_steady_gups"] / row["sim_over_eq"]


def series_finding(rows, key):
    simulated = [r for r in rows if (r["machine"], r["algorithm"]) == key and r.get("sim_over_eq")]
    if not simulated:
        return None
    eq = EQUATION[key[1]]
    ratios = [r["sim_over_eq"] for r in simulated]
    sizes = f"{simulated[0]['nodes']:,}" + (f" to {simulated[-1]['nodes']:,}" if len(simulated) > 1 else "")
    text = f"**{TITLES[key]}**, simulated at {sizes} nodes: the steady state is {span(ratios)} of {eq}"
    if ratios[0] - ratios[-1] > NOTABLE and all(b <= a + NOTABLE / 2 for a, b in zip(ratios, ratios[1:])):
        text += ", further below it as the machine grows"
    unsettled = [r for r in simulated if r.get("steady_settled") is False]
    if unsettled:
        sizes_unsettled = ", ".join(f"{r['nodes']:,}" for r in unsettled)
        text += (f" (not settled at {sizes_unsettled} nodes: those runs' verdicts give why and the length that "
                 "would settle them)")
    binds = sorted({r["binds"] for r in simulated})
    text += f"; {binds[0]} binds at every size" if len(binds) == 1 else f"; binding: {', '.join(binds)}"
    last = simulated[-1]
    text += (f". At {last['nodes']:,} nodes: {g(last['sim_steady_gups'])} GUPS simulated ({g(last['sim_gups'])} over "
             f"the whole run, start included), {g(equation_gups(last))} by {eq}")
    if last.get("paper_bound_gups"):
        text += f", {g(last['paper_bound_gups'])} in the paper's Bottleneck column"
    return text + "."


def table4_findings(rows):
    lines = [f for f in (series_finding(rows, key) for key in TITLES) if f]
    multi = {r["nodes"]: r for r in rows if (r["machine"], r["algorithm"]) == ("bgp", "multicore")}
    single = {r["nodes"]: r for r in rows if (r["machine"], r["algorithm"]) == ("bgp", "routed")}
    common = [n for n in multi if n in single and multi[n].get("sim_steady_gups") and single[n].get("sim_steady_gups")]
    if common:
        n = max(common)
        lines.append(f"**Four specialised cores against one** on Blue Gene/P at {n:,} nodes: "
                     f"{multi[n]['sim_steady_gups'] / single[n]['sim_steady_gups']:.2f}x simulated, "
                     f"{equation_gups(multi[n]) / equation_gups(single[n]):.2f}x by the equations.")
    skipped = [r for r in rows if r.get("not_simulated")]
    if skipped:
        first = {}
        for r in skipped:
            series = (r["machine"], r["algorithm"])
            first[series] = min(first.get(series, r["nodes"]), r["nodes"])
        top = max((r for r in rows if (r["machine"], r["algorithm"]) == ("bgp", "multicore")),
                  key=lambda r: r["nodes"], default=None)
        if len(set(first.values())) == 1:
            text = f"**Modelled only** from {min(first.values()):,} nodes up ({skipped[0]['not_simulated']})"
        else:
            text = "**Modelled only** above what the budget allowed: " + ", ".join(
                f"{TITLES.get(series, ' '.join(series)).split(' (')[0]} from {n:,} nodes"
                for series, n in sorted(first.items(), key=lambda item: item[1]))
        if top:
            text += (f"; Eq. 7 gives {g(top['eq_paper_gups'] or top['eq_rule_gups'])} GUPS at {top['nodes']:,} nodes"
                     + (f", the paper's Bottleneck column {g(top['paper_bound_gups'])}" if top.get("paper_bound_gups") else ""))
        lines.append(text + ".")
    network = sorted({r["nodes"] for r in rows if r.get("model_binds") == "network"})
    lines.append(f"The network bound (4B/b) binds from {network[0]:,} nodes." if network else
                 "The network bound (4B/b) binds at no size of the table: every bound is the CPU's.")
    return lines


def table3_finding(rows):
    division = [r for r in rows if r["owner"] == "division" and not r["power_of_two"] and r.get("sim_steady_gups")]
    predict = {r["nodes"]: r for r in rows if r["owner"] == "predict" and r.get("sim_steady_gups")}
    found = []
    for d in division:
        p = predict.get(d["nodes"])
        if p:
            found.append(f"**Owners on {d['nodes']} nodes** (the paper's Table 3, multi-core Blue Gene/P): prediction "
                         f"(Theorem 4.1) gives {p['sim_steady_gups'] / d['sim_steady_gups']:.2f}x the simulated GUPS "
                         f"of division at {d['divide_cycles']:g} cycles ({p['eq_gups'] / d['eq_gups']:.2f}x by Eq. 7); "
                         f"binding with division: {d['binds']}; with prediction: {p['binds']}.")
    return found


def hpcc_finding(folder, rows):
    """HPCC's MPIRandomAccess beside gups direct on the same ranks, or how to get it."""
    try:
        with open(os.path.join(folder, "hpcc.json"), encoding="utf-8") as f:
            done = json.load(f)
    except (OSError, ValueError):
        return f"HPCC's MPIRandomAccess not run ({hpcc.INSTALL_HINT} adds it here)"
    rate = statistics.median(r["GUPs"] for r in done["runs"])
    text = (f"HPCC's MPIRandomAccess on {done['ranks']} ranks: measured {g(rate)} GUPS "
            f"({'verified' if done['verified'] else 'its verification FAILED'})")
    direct = [r for r in rows if r["algorithm"] == "direct" and r["ranks"] == done["ranks"] and r["measured"]]
    if direct and rate > 0:
        text += f", direct {direct[0]['measured'] / rate:.2f}x it"
    if done.get("hypercube_runs"):
        hypercube = statistics.median(r["GUPs"] for r in done["hypercube_runs"])
        text += (f"; HPCC's hypercube (RA_SANDIA_OPT2) on the same ranks: {g(hypercube)} GUPS "
                 f"({'verified' if done['hypercube_verified'] else 'its verification FAILED'})")
    elif done.get("hypercube_not_run"):
        text += f"; {done['hypercube_not_run']}"
    return text


# Runs of one case that vary by more than this, run to run, are marked: their ratios to the model hold no better.
NOISY = 0.05

HOW_TO_READ = [
    "## How to read this", "",
    "- **Steady state**: GUPS over the middle half of the update phase (updates applied from 25% to 75% of the time "
    "every node generates), once the pipeline is full. Its standard error and two quarters are read: a figure is settled when "
    "the error is within 0.5% and the quarters within 1% (twice it: with the error at 0.5% their difference scatters "
    "that much; gups-sim prints its verdict; `--converge` runs until it is settled and agrees with a run of "
    "half the length).",
    "- **Whole run**: every update over the whole update phase, the start (the pipeline filling) and the end "
    "(draining) included: HPCC's GUP/s line. \"Real time used\" in a simulation's output is simulated time.",
    "- **Eq. 1, Eq. 7**: the paper's CPU bounds of the single-core and the multi-core algorithm, from gups-model at "
    "the bucket sizes the simulation used; **4B/b** the network bound.",
    "- **The paper's Bottleneck column**: the bound the paper printed for each size, copied into the machine file "
    "(`reference_gups`) and never used as an input.",
    "- **Network levels**: flow (SimGrid's links shared fairly: exact, slow at scale), queue (each link serves one "
    "message at a time), latency (no contention), packet (packets through finite buffers); docs/simulator.md.",
    f"- **Noisy**: this host's measured rows whose runs varied by more than {NOISY:.0%}; their ratios to the "
    "model and the simulation move by as much.",
    "- **Above the model's bound**: a measured rate higher than the bound by more than twice its runs' variation. "
    "A bound is the most its inputs allow, so this says the inputs are off, not that the run was lucky.",
    "- **Outside the model's interval**: a measured rate beyond the bound's interval over the calibration's ranges "
    "(each timed cost from its least to its median repeat) by more than twice its runs' variation, with the input "
    "that alone would have to move to give it; inside it, the inputs' ranges account for the figure.",
    "- **Busy host**: other processes kept this host's cores busy while a measured case ran, past the share at which "
    "gups says so itself (its host_load: /proc/stat less its ranks' own CPU time over the update phase); its figure "
    "may be low for that.", "",
]


def beyond_the_bound(row, repeats):
    """The words for a measurement above its model's bound by more than its runs vary: a bound is the most the inputs
    allow, so passing it says the inputs (the calibrated costs) overstate what the host spends: a finding."""
    ratio = row.get("measured_over_model")
    varies = 2 * (row.get("measured_cv") or 0) if repeats > 1 else 0
    if not ratio or ratio <= 1 + max(varies, NOTABLE):
        return ""
    return ("; **above the model's bound** by more than its runs vary: the bound is the most its calibrated costs "
            "allow, so they overstate what this host spends per update (a finding about the inputs, not noise)")


def needed_alone(row):
    """The input that, alone with the others at their values, would give the measured figure, and its value: on the
    straight line of 1/GUPS through its range's ends (a cost in cycles adds to the binding core's, so the line is
    exact while one core binds). None when no ranged input moves the model."""
    for effect in sorted(row.get("model_inputs") or [], key=lambda e: -e.get("share", 0)):
        if "values" in effect:  # a structural unknown takes its values, not a line between them
            continue
        span = effect["high"] - effect["low"]
        slope = (1 / effect["gups_at_high"] - 1 / effect["gups_at_low"]) / span if span > 0 else 0
        if slope == 0:
            continue
        needed = effect["value"] + (1 / row["measured"] - 1 / row["model"]) / slope
        return effect["field"], effect["value"], needed
    return None


def against_the_interval(row, repeats):
    """The measured figure against the model's interval over the calibration's spreads: inside, or outside with the
    input that would have to move and by how much; the runs' variation beside it, kept apart from the verdict."""
    low, high, measured = row.get("model_low"), row.get("model_high"), row["measured"]
    if low is None or high is None:
        return beyond_the_bound(row, repeats)
    interval = f"{g(low)} .. {g(high)} GUPS over the calibration's ranges"
    beyond = stats.beyond_interval(measured, low, high)
    if beyond == 0:
        return f"; inside the model's interval ({interval})"
    varies = 2 * (row.get("measured_cv") or 0) if repeats > 1 else 0
    text = f"; **outside the model's interval** ({interval}), {'above' if beyond > 0 else 'below'} by {abs(beyond):.0%}"
    if abs(beyond) <= varies:
        return text + f", within twice its runs' variation ({varies:.0%}): noise may account for it"
    text += f", more than its runs vary ({varies:.0%}): a finding about the inputs, not noise"
    needed = needed_alone(row)
    if needed:
        field, value, at = needed
        text += (f"; alone, {field.removeprefix('costs_cycles.')} would have to be {at:.4g} "
                 f"({at / value - 1:+.0%} of its {value:.4g})" if at > 0 else
                 f"; no value of {field.removeprefix('costs_cycles.')} alone reaches it")
    return text


def host_findings(rows, measured_records, cores, machine, folder=None):
    measured = [r for r in rows if r["measured"] is not None]
    lines = []
    for algorithm in sorted({r["algorithm"] for r in measured}):
        r = max((r for r in measured if r["algorithm"] == algorithm), key=lambda r: r["ranks"] or 0)
        repeats = sum(1 for m in measured_records if (m["algorithm"], m["nodes"]) == (algorithm, r["nodes"]))
        spread = f"{100 * r['measured_cv']:.1f}% run to run over {repeats} runs" if repeats > 1 else "one run"
        if repeats > 1 and r["measured_cv"] > NOISY:
            spread += ", **noisy**: the ratios that follow move by as much"
        text = f"{algorithm} on {r['ranks']} ranks: measured {g(r['measured'])} GUPS ({spread})"
        if r["measured_over_model"]:
            text += f", {r['measured_over_model']:.2f}x the model"
            if r.get("measured_over_model_at_median_costs"):
                text += f" ({r['measured_over_model_at_median_costs']:.2f}x at its costs' medians)"
        if r["measured_over_sim"]:
            text += f", {r['measured_over_sim']:.2f}x the simulation"
        text += against_the_interval(r, repeats)
        if r.get("host_busy"):
            text += (f"; the host was busy: other processes used {r['host_busy']:.0%} of its cores during these runs' "
                     "update phases, so the figure may be low for that")
        lines.append(text)
    if folder is not None:
        lines.append(hpcc_finding(folder, rows))
    unmeasured = [f"{r['algorithm']} on {r['nodes']} nodes ({r['ranks']} ranks)" for r in rows
                  if r["measured"] is None and (r["ranks"] or 0) > cores]
    text = (f"**This host** ({cores} cores, {machine.get('clock_hz', 0) / 1e9:.2f} GHz, costs calibrated by "
            f"gups-calibrate): " + ("; ".join(lines) if lines else "nothing was measured"))
    if unmeasured:
        text += f". Not measured, as they need more ranks than cores: {', '.join(unmeasured)}"
    return [text + "."]


def message_layer_lines(host):
    """This host's message layer as gups-calibrate fitted it (LogGP), and each message size's calls as the layer
    prices them beside the same calls timed in that run; nothing for a file without it."""
    notes = host.get("notes", {}).get("message_layer") if isinstance(host.get("notes"), dict) else None
    if not notes:
        return []
    f, spread = notes["figures"], notes["spread"]
    units = {"L": (1e6, "us"), "o_send": (1e6, "us"), "o_recv": (1e6, "us"), "g": (1e6, "us"),
             "G": (1e9, "ns/B"), "O": (1e9, "ns/B")}
    figures = ", ".join(f"{name} {scale * f.get(name, 0):.3g} {unit} (+{100 * spread[name]:.1f}%)"
                        for name, (scale, unit) in units.items())
    lines = ["### Message layer (LogGP)", "",
             f"Fitted by gups-calibrate ({notes['method']}); each figure at the least of the repeats, its spread to "
             f"their medians: {figures}. A message's send and receive calls as the layer prices them "
             "(o_send + o_recv + O x bytes) and as timed in the same run:", "",
             "| updates a message | layer, ns | timed, ns | layer/timed |", "| ---: | ---: | ---: | ---: |"]
    for row in notes["calls_priced"]:
        note = "" if row["in_fit"] else " (below the kernel's sizes)"
        lines.append(f"| {row['updates']}{note} | {row['layer_ns']:.1f} | {row['timed_ns']:.1f} | "
                     f"{row['layer_ns'] / row['timed_ns']:.2f} |")
    return lines + [""]


def read_rows(folder, name):
    try:
        with open(os.path.join(folder, f"{name}.json"), encoding="utf-8") as f:
            return json.load(f)["rows"]
    except (OSError, ValueError, KeyError):
        return []


TABLE4_COLUMNS = [
    ("machine", False, lambda r: r["machine"]), ("algorithm", False, lambda r: r["algorithm"]),
    ("nodes", True, lambda r: r["nodes"]), ("shape", False, lambda r: r["shape"]),
    ("Eq. 1/7", True, lambda r: g(r["eq_paper_gups"] or r["eq_rule_gups"])),
    ("paper's Bottleneck", True, lambda r: g(r["paper_bound_gups"])),
    ("simulated steady", True, lambda r: study.steady_cell(r, g)),
    ("simulated whole run", True, lambda r: g(r.get("sim_gups"))),
    ("steady/Eq.", True, lambda r: study.fmt(r.get("sim_over_eq"), ".3f")),
    ("binds", False, lambda r: short_binds(r.get("binds")) or f"{r['model_binds']} (model)"),
    ("network level", False, lambda r: r.get("network_level") or "-"),
    ("wall s", True, lambda r: study.fmt(r.get("wall_seconds"), ".0f")),
]


def short_binds(binds):
    """A binding core by its number alone ("core 3"), so that the table's rows stay one line; binds_legend says what
    each core does."""
    return binds.split(" (", 1)[0] if binds else binds


def binds_legend(rows):
    roles = sorted({r["binds"] for r in rows if r.get("binds") and " (" in r["binds"]})
    return ["Binding cores: " + "; ".join(roles) + "."] if roles else []


def write(out, folders, host_file, cores, step):
    table4 = read_rows(folders["table4"], "table4")
    table3 = read_rows(folders["table3"], "table3")
    records = [r for r in results.load_records(folders["host"]) if r.get("owner", "division") == "division"]
    with open(host_file, encoding="utf-8") as f:
        host = json.load(f)
    host_rows = report.build_tables(records)
    plots = []
    if records:
        plots += plot.gups_plot(records, folders["host"], "this host: GUPS by cores in use", by_ranks=True, cores=cores)
        plots += plot.shares_plot(records, report.raw_documents(folders["host"]), folders["host"])
    found = table4_findings(table4) + table3_finding(table3) + host_findings(host_rows, [r for r in records if r["source"] == "measured"], cores, host, folders["host"])
    wall = step.elapsed()
    lines = [
        "# torus-gups: what the main job found", "",
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}, {wall:.0f} s after the builds "
        f"(budget {step_budget(step, wall)}) on {platform.node()}, {cores} cores. Every figure comes from a raw "
        "JSON result kept under this folder; the sections below hold the tables, the plots and the commands.", "",
    ] + [f"{i}. {text}" for i, text in enumerate(found, 1)]
    if step.failed:
        lines += ["", f"**{len(step.failed)} step(s) reported failures**: " + "; ".join(f"`{c}`" for c in step.failed)]
    lines += [""] + HOW_TO_READ
    lines += ["## Table 4, predicted (Blue Gene/P and Blue Gene/L)", "",
              "Eq. 1 (single-core) and Eq. 7 (multi-core) with the buckets the simulation used; the paper's "
              "Bottleneck column as printed; simulated with every modelled mechanism (wire bytes, receive batches, "
              "DMA, mesh below the torus size). Full table: `table4/table4.md`.", ""]
    lines += study.table_lines(TABLE4_COLUMNS, table4)
    lines += [""] + binds_legend(table4)
    lines += ["", "![table4](table4/table4.png)", "", "## Owners, predicted (the paper's Table 3)", "",
              "Full table: `table3/table3.md`.", ""]
    lines += study.table_lines(TABLE3_COLUMNS, table3)
    lines += [""] + binds_legend(table3)
    lines += ["", "## This host", ""] + report.system_table(host) + [""] + report.rates_table(host_rows) + [""]
    lines += message_layer_lines(host)
    lines += [f"![{os.path.basename(p)}](host/{os.path.basename(p)})" for p in plots if p.endswith(".png")]
    lines += ["", "## Commands", "", "The main job ran these (each folder's own report lists the runs inside):", ""]
    lines += [f"    {c}" for c in step.commands]
    text = "\n".join(lines) + "\n"
    first_screen = text[:text.index("\n## ")]
    path = os.path.join(out, "report.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(out, "report.html"), "w", encoding="utf-8") as f:
        f.write(report.to_html(text))
    return path, first_screen


TABLE3_COLUMNS = [
    ("nodes", True, lambda r: r["nodes"]), ("shape", False, lambda r: r["shape"]),
    ("owners", False, lambda r: "shift" if r["power_of_two"] else r["owner"]),
    ("divide cycles", True, lambda r: study.fmt(r["divide_cycles"], "g")),
    ("Eq. 7", True, lambda r: g(r["eq_gups"])), ("simulated steady", True, lambda r: study.steady_cell(r, g)),
    ("steady/Eq. 7", True, lambda r: study.fmt(r.get("sim_over_eq"), ".3f")),
    ("binds", False, lambda r: short_binds(r.get("binds")) or "-"),
]


def step_budget(step, wall):
    return f"{step.budget:.0f} s" + (", overrun" if wall > step.budget else "")
