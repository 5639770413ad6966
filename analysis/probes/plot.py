"""The probes drawn as the Cray X1 evaluation draws its exchange tests: bandwidth against message size (log-log),
aggregate and per pair, one line per place (this host, each simulated shape and level); and the all-to-all's share
of its peak by shape and level."""
import os

from ..report.lazy_matplotlib import pyplot as plt


def place(row):
    return "this host" if row["source"] == "measured" else f"{row['shape']} {row['level']}"


def series(rows, probe):
    lines = {}
    for row in rows:
        if row["probe"] == probe and not row["failed"]:
            lines.setdefault(place(row), []).append(row)
    return {name: sorted(points, key=lambda r: r["bytes"]) for name, points in lines.items()}


def bandwidth_plot(rows, probe, out):
    lines = series(rows, probe)
    if not lines or all(len(points) < 2 for points in lines.values()):
        return None
    pair_word = "per process" if probe == "all-to-all" else "per pair"
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for name, points in lines.items():
        sizes = [r["bytes"] for r in points]
        axes[0].plot(sizes, [r["aggregate_mb_per_s"] for r in points], marker="o", label=name)
        axes[1].plot(sizes, [r["per_pair_mb_per_s"] for r in points], marker="o", label=name)
    for ax, what in zip(axes, ("aggregate", pair_word)):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel(f"{what} bandwidth (MB/s)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.suptitle(f"{probe}: bandwidth against message size")
    fig.tight_layout()
    path = os.path.join(out, f"probes-{probe}.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def efficiency_plot(rows, out):
    best = {}
    for row in rows:
        if row["probe"] == "all-to-all" and not row["failed"] and "all_to_all_efficiency" in row:
            key = (row["shape"], row["level"])
            if key not in best or row["bytes"] > best[key]["bytes"]:
                best[key] = row
    if not best:
        return None
    shapes = sorted({shape for shape, _ in best}, key=lambda s: [int(x) for x in s.split("x")])
    levels = sorted({level for _, level in best})
    fig, ax = plt.subplots(figsize=(6.5, 4))
    width = 0.8 / len(levels)
    for i, level in enumerate(levels):
        values = [100 * best[(s, level)]["all_to_all_efficiency"] if (s, level) in best else 0 for s in shapes]
        ax.bar([j + i * width for j in range(len(shapes))], values, width, label=level)
    ax.set_xticks([j + width * (len(levels) - 1) / 2 for j in range(len(shapes))], shapes)
    ax.set_ylabel("all-to-all: % of the peak per node")
    ax.set_ylim(0, 100)
    ax.legend(title="level")
    ax.set_title("All-to-all efficiency by shape (largest size)")
    fig.tight_layout()
    path = os.path.join(out, "probes-all-to-all-efficiency.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def all_plots(rows, out):
    paths = [bandwidth_plot(rows, probe, out) for probe in ("exchange", "all-to-all", "bisection")]
    paths.append(efficiency_plot(rows, out))
    return [p for p in paths if p]
