"""GUPS against node count (bounds as lines, simulated and measured points) and
per-core busy shares (model against simulation and measurement)."""
import os

from . import stats
from .lazy_matplotlib import pyplot as plt, ticker

COLOURS = {"direct": "tab:blue", "routed": "tab:orange", "multicore": "tab:green"}


def gups_plot(records, out, title, by_ranks=False, cores=None):
    """GUPS against nodes, or (by_ranks) against MPI ranks, so that algorithms with different ranks per node
    stand at the cores they use; cores draws where this host's cores end."""
    summary = stats.by_point(records)
    ranks_of = {(r["algorithm"], r["nodes"]): r["ranks"] for r in records if r.get("ranks")}
    x_of = (lambda algorithm, nodes: ranks_of.get((algorithm, nodes), nodes)) if by_ranks else (lambda _, nodes: nodes)
    fig, ax = plt.subplots(figsize=(11, 5.5))
    algorithms = sorted({r["algorithm"] for r in records if r["algorithm"]})
    network_drawn = False
    for algorithm in algorithms:
        colour = COLOURS.get(algorithm, "black")
        model = sorted((r for r in records if r["source"] == "model" and r["algorithm"] == algorithm),
                       key=lambda r: r["nodes"])
        if model:
            xs = [x_of(algorithm, r["nodes"]) for r in model]
            ax.plot(xs, [r["cpu_gups"] for r in model], "-", color=colour, label=f"{algorithm}: CPU bound (model)")
            band(ax, [(x, r) for x, r in zip(xs, model)], "interval_low", "interval_high", colour,
                 f"{algorithm}: the model's interval over its inputs' ranges")
            network = [(x_of(algorithm, r["nodes"]), r["network_gups"]) for r in model if r.get("network_gups")]
            if network and not network_drawn and not by_ranks:
                ax.plot(*zip(*network), "--", color="grey", label="network bound 4B/b")
                network_drawn = True
            crossover = next((r["nodes"] for r in model if r.get("binds") == "network"), None)
            if crossover:
                ax.axvline(x_of(algorithm, crossover), color=colour, linestyle=":",
                           label=f"{algorithm}: network binds from here")
        for source, marker in (("sim", "o"), ("measured", "s")):
            points = sorted((x_of(algorithm, key[2]), value) for key, value in summary.items()
                            if key[0] == source and key[1] == algorithm)
            if points:
                xs = [p[0] for p in points]
                means = [p[1]["mean"] for p in points]
                errors = [[max(0.0, p[1]["mean"] - p[1]["min"]) for p in points],
                          [max(0.0, p[1]["max"] - p[1]["mean"]) for p in points]]
                ax.errorbar(xs, means, yerr=errors, fmt=marker, color=colour, mfc="white" if source == "sim" else colour,
                            capsize=3, label=f"{algorithm}: {'simulated' if source == 'sim' else 'measured'}")
    if cores and max(x_of(r["algorithm"], r["nodes"]) for r in records if r["algorithm"]) > cores:
        low, high = ax.get_xlim()
        ax.axvspan(cores * 1.05, high, color="grey", alpha=0.12,
                   label=f"more ranks than this host's {cores} cores: model and simulation only")
        ax.set_xlim(low, high)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    xs = sorted({x_of(r["algorithm"], r["nodes"]) for r in records if r["algorithm"] and r.get("nodes")})
    if xs and len(xs) <= 12:
        ax.set_xticks(xs, [str(x) for x in xs])
        ax.xaxis.set_minor_locator(ticker.NullLocator())
    ax.set_xlabel("MPI ranks (one core each): direct and routed 1 per node, multicore its cores per node"
                  if by_ranks else "nodes")
    ax.set_ylabel("GUPS (10^9 updates per second)")
    ax.set_title(f"{title}\n(points: mean of the repeats; bars: fastest and slowest)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0))  # beside the axes, never over a point
    fig.subplots_adjust(left=0.08, right=0.62, bottom=0.12, top=0.93)
    return save(fig, out, "gups")


def shares_plot(records, raw_documents, out):
    """Busy share per core for multicore: model (cycles / slowest) beside simulated and measured."""
    rows = []
    for (source, algorithm, nodes), document in raw_documents.items():
        if algorithm != "multicore":
            continue
        if source == "model":
            shares = [c["share"] for c in document["row"]["cores"]]
        else:
            shares = [c.get("busy_share") for c in document.get("cores", [])]
        if shares and None not in shares:  # a run that kept no busy clock has nothing to plot
            rows.append((source, nodes, shares))
    if not rows:
        return []
    largest = max(n for _, n, _ in rows)
    chosen = [(s, sh) for s, n, sh in rows if n == largest]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    width = 0.8 / len(chosen)
    for i, (source, shares) in enumerate(sorted(chosen)):
        xs = [c + i * width for c in range(len(shares))]
        ax.bar(xs, shares, width, label={"model": "model: T_c / max T", "sim": "simulated: busy share",
                                          "measured": "measured: busy share"}[source])
    ax.set_xticks([c + 0.4 - width / 2 for c in range(len(chosen[0][1]))])
    ax.set_xticklabels([f"core {c}" for c in range(len(chosen[0][1]))])
    ax.set_ylabel("share of the run (model: of the slowest core)")
    ax.set_ylim(0, 1.1)
    ax.set_title(f"multicore per-core load, {largest} nodes")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return save(fig, out, "core-shares")


def owner_plot(records, out):
    """Division against prediction (Theorem 4.1) where both were measured: Table 3 of the paper."""
    division = stats.by_point(records, owner="division")
    predict = stats.by_point(records, owner="predict")
    keys = sorted(k for k in predict if k in division)
    if not keys:
        return []
    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs = range(len(keys))
    ax.bar([x - 0.2 for x in xs], [division[k]["mean"] for k in keys], 0.4, label="owner by division")
    ax.bar([x + 0.2 for x in xs], [predict[k]["mean"] for k in keys], 0.4, label="owner by prediction")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([f"{k[1]}\n{k[2]} nodes ({k[0]})" for k in keys], fontsize=8)
    ax.set_ylabel("GUPS (10^9 updates per second)")
    ax.set_title("finding the owner: division against prediction")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return save(fig, out, "owner")


def save(fig, out, name):
    paths = [os.path.join(out, f"{name}.png"), os.path.join(out, f"{name}.svg")]
    for path in paths:
        fig.savefig(path, dpi=110)
    plt.close(fig)
    return paths


def study_plot(which, rows, out):
    """Table 4: GUPS against nodes per series (Eq. with both bucket rules, simulated whole run and steady state)
    and the simulated steady state over Eq.; Table 3: GUPS by owner lookup, Eq. 7 beside the simulation."""
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 8), sharex=True, gridspec_kw={"height_ratios": [3, 1.3]})
    if which == "table4":
        colours = {("bgp", "multicore"): "tab:green", ("bgp", "routed"): "tab:orange", ("bgl", "routed"): "tab:purple"}
        for key in sorted({(r["machine"], r["algorithm"]) for r in rows}, key=lambda k: (k[1] != "multicore", k)):
            colour = colours.get(key, "black")
            series = sorted((r for r in rows if (r["machine"], r["algorithm"]) == key), key=lambda r: r["nodes"])
            label = f"{key[1]} on {key[0]}"
            xs = [r["nodes"] for r in series]
            top.plot(xs, [r["eq_rule_gups"] for r in series], "-", color=colour, label=f"{label}: Eq., rule's buckets")
            band(top, [(r["nodes"], r) for r in series], "model_low", "model_high", colour,
                 f"{label}: the model's interval over its inputs' ranges")
            ends = [r for r in series if r.get("sim_low_gups") and r.get("sim_high_gups")]
            if ends:
                top.vlines([r["nodes"] for r in ends], [r["sim_low_gups"] for r in ends],
                           [r["sim_high_gups"] for r in ends], color=colour, linewidth=3, alpha=0.6,
                           label=f"{label}: simulated at the model's low and high ends")
            paper = [(r["nodes"], r["eq_paper_gups"]) for r in series if r["paper_bucket"]]
            if paper:
                top.plot(*zip(*paper), "--", color=colour, label=f"{label}: Eq., paper's buckets")
            drawn(top, series, "sim_steady_gups", "o", colour, f"{label}: simulated, steady")
            drawn(top, series, "sim_gups", "x", colour, f"{label}: simulated, whole run")
            drawn(top, series, "sim_mesh_gups", "v", colour, f"{label}: simulated, steady, no wrap-around link")
            drawn(top, series, "paper_bound_gups", "+", colour, f"{label}: the paper's printed Bottleneck", size=9)
            drawn(bottom, series, "sim_over_eq", "o-", colour, label)
        bottom.set_ylabel("simulated steady /\nEq. 7 (multicore), Eq. 1 (routed)", fontsize=9)
        top.set_title("Table 4, predicted: GUPS by node count")
    else:
        division_colours = iter(("tab:red", "tab:brown", "tab:pink", "tab:olive", "tab:gray"))
        for owner in ("division", "predict"):
            for cycles in sorted({r["divide_cycles"] for r in rows if r["owner"] == owner}, key=lambda c: c or 0):
                colour = next(division_colours, "black") if owner == "division" else "tab:blue"
                series = sorted((r for r in rows if r["owner"] == owner and r["divide_cycles"] == cycles),
                                key=lambda r: r["nodes"])
                label = "prediction (powers of two: shift)" if owner == "predict" else f"division, {cycles:g} cycles"
                top.plot([r["nodes"] for r in series], [r["eq_gups"] for r in series], "--", color=colour, alpha=0.6,
                         label=f"{label}: Eq. 7")
                drawn(top, series, "sim_steady_gups", "o-", colour, f"{label}: simulated, steady")
                drawn(bottom, series, "sim_over_eq", "o-", colour, label)
        bottom.set_ylabel("simulated steady / Eq. 7")
        top.set_title("Table 3, predicted: owners by division or prediction (multi-core, Blue Gene/P)")
    top.set_xscale("log", base=2)
    top.set_yscale("log")
    top.set_ylabel("GUPS (10^9 updates per second)")
    bottom.set_xlabel("nodes")
    nodes = sorted({r["nodes"] for r in rows})
    bottom.set_xticks(nodes, [str(n) for n in nodes], rotation=45 if len(nodes) > 8 else 0)
    bottom.minorticks_off()
    for ax in (top, bottom):
        ax.grid(True, which="both", alpha=0.3)
    top.legend(fontsize=7, loc="best")
    fig.tight_layout()
    return save(fig, out, which)[0]


def band(ax, points, low_key, high_key, colour, label):
    """A shaded band between each point's low and high (an interval, not a line); nothing where no point has one."""
    points = [(x, r[low_key], r[high_key]) for x, r in points
              if r.get(low_key) is not None and r.get(high_key) is not None]
    if points:
        xs, lows, highs = zip(*points)
        ax.fill_between(xs, lows, highs, color=colour, alpha=0.15, linewidth=0, label=label)


def drawn(ax, rows, key, style, colour, label, size=None):
    points = [(r["nodes"], r[key]) for r in rows if r.get(key)]
    if points:
        ax.plot(*zip(*points), style, color=colour, mfc="white", label=label, markersize=size)
