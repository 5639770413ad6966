"""explain's plot: per mechanism, the value each measured size needs against nodes, with its range, the best
law and the machine file's value."""
import math

from ..report.lazy_matplotlib import pyplot as plt


def partition_panel(ax, m, document):
    """The partition has no value to plot: the GUPS of each partition tried against the measured column, the
    best rule's partitions joined."""
    measured = document["measured"]
    ax.plot([r["nodes"] for r in measured], [r["gups"] for r in measured], "k-o", label="measured")
    for p in m["points"]:
        tried = p["simulated"]
        ax.plot([p["nodes"]] * len(tried), [t["steady_gups"] for t in tried], "o", color="tab:gray", alpha=0.5,
                markersize=4)
    law = m["law"]
    if law:
        by_nodes = {p["nodes"]: {t["value"]: t["steady_gups"] for t in p["simulated"]} for p in m["points"]}
        xs = sorted(int(n) for n in law["values"] if law["values"][n] in by_nodes.get(int(n), {}))
        ax.plot(xs, [by_nodes[n][law["values"][str(n)]] for n in xs], "-s", color="tab:red", alpha=0.7,
                label=law["name"])
    ax.set_title(f"{m['rank']}. {m['mechanism']} (each grey dot: a partition tried)", fontsize=9)
    ax.set_xscale("log", base=2)
    ax.set_ylabel("GUPS", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=6)


def needed_values_plot(document, path):
    mechanisms = document["mechanisms"]
    columns = min(3, len(mechanisms))
    rows = math.ceil(len(mechanisms) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.2 * rows), squeeze=False)
    for ax, m in zip(axes.flat, mechanisms):
        if any("giving" in p for p in m["points"]):
            partition_panel(ax, m, document)
            continue
        reached = [p for p in m["points"] if p["value"] is not None]
        for source, marker, colour in (("model", "o", "tab:blue"), ("simulation", "s", "tab:orange")):
            shown = [p for p in reached if p["source"] == source]
            if not shown:
                continue
            xs = [p["nodes"] for p in shown]
            ys = [p["value"] for p in shown]
            below = [max(0.0, p["value"] - p["low"]) for p in shown]
            above = [(p["high"] - p["value"]) if p["high"] is not None else 0.0 for p in shown]
            ax.errorbar(xs, ys, yerr=[below, above], fmt=marker, color=colour, capsize=3, label=f"needed ({source})")
        unbounded = [p for p in reached if p["unbounded_above"]]
        if unbounded:
            ax.plot([p["nodes"] for p in unbounded], [p["value"] for p in unbounded], "^", color="tab:gray",
                    label="any larger value too")
        law = m["law"]
        if law:
            xs = sorted(int(n) for n in law["values"])
            ax.plot(xs, [law["values"][str(n)] for n in xs], "-", color="tab:red", alpha=0.7, label=law["name"],
                    drawstyle="steps-mid" if law["name"].startswith("step") else "default")
        ax.axhline(m["nominal"], linestyle="--", color="tab:green", alpha=0.7, label="machine file")
        out_of_reach = len(m["points"]) - len(reached)
        ax.set_title(f"{m['rank']}. {m['mechanism']}" + (f" ({out_of_reach} out of reach)" if out_of_reach else ""),
                     fontsize=9)
        ax.set_xscale("log", base=2)
        sizes = [row["nodes"] for row in document["measured"]]
        ax.set_xlim(min(sizes) / 1.5, max(sizes) * 1.5)
        ax.set_ylabel(m["unit"], fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[len(mechanisms):]:
        ax.set_visible(False)
    fig.suptitle(f"Needed value by size: {document['algorithm']} on {document['machine']}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
