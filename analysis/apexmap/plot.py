"""Apex-Map's surfaces as its authors draw them: bandwidth per process over temporal locality alpha and spatial
locality L, both on log scales, and the ratio of two surfaces: two implementations, the model and the simulation,
the simulated machine and this host."""
import math
import os

from ..report.lazy_matplotlib import colors, pyplot as plt


def grid(rows, source, algorithm, alphas, blocks, key="mb_per_second_per_process"):
    """values[alpha index][block index], None where the point failed."""
    cell = {(r["alpha"], r["block_words"]): r.get(key) for r in rows
            if r["source"] == source and r["algorithm"] == algorithm and not r["failed"]}
    return [[cell.get((alpha, block)) for block in blocks] for alpha in alphas]


def draw(ax, values, alphas, blocks, norm, cmap, fmt):
    masked = [[math.nan if v is None else v for v in row] for row in values]
    mesh = ax.pcolormesh(range(len(blocks) + 1), range(len(alphas) + 1), masked, norm=norm, cmap=cmap,
                         shading="flat")
    for i, row in enumerate(values):
        for j, value in enumerate(row):
            ax.text(j + 0.5, i + 0.5, "failed" if value is None else format(value, fmt), ha="center", va="center",
                    fontsize=7)
    ax.set_xticks([j + 0.5 for j in range(len(blocks))], [str(b) for b in blocks])
    ax.set_yticks([i + 0.5 for i in range(len(alphas))], [f"{a:g}" for a in alphas])
    ax.set_xlabel("L: words per access (spatial locality; log scale)")
    ax.set_ylabel("alpha (temporal locality: 1 uniform; log scale)")
    return mesh


SUFFIX = {"measured": "", "sim": "-sim", "model": "-model"}


def all_surfaces(rows, args):
    """Each source's surfaces and implementation ratio, and the ratios across sources; returns the files written."""
    paths = []
    where = {"measured": f"this host, {args.ranks} ranks", "sim": f"{args.machine} simulated, {args.nodes} nodes",
             "model": f"{args.machine} model, {args.nodes} nodes"}
    for source in args.sources:
        values = {a: grid(rows, source, a, args.alphas, args.blocks) for a in args.algorithms}
        paths += surfaces(values, args, where[source], SUFFIX[source])
        if len(args.algorithms) == 2:
            first, second = args.algorithms
            paths += ratio(values[first], values[second], args, f"{second} over {first}, {where[source]}",
                           f"apexmap-ratio{SUFFIX[source]}.png")
    for top, bottom, name in (("model", "sim", "apexmap-model-vs-sim.png"), ("sim", "measured", "apexmap-sim-vs-measured.png")):
        if top in args.sources and bottom in args.sources:
            for algorithm in args.algorithms:
                paths += ratio(grid(rows, bottom, algorithm, args.alphas, args.blocks),
                               grid(rows, top, algorithm, args.alphas, args.blocks), args,
                               f"{algorithm}: {where[top]} over {where[bottom]}", name.replace(".png", f"-{algorithm}.png"))
    return paths


def against_surfaces(ratios, args, other_what):
    """This run over another (--against), one figure per source and implementation."""
    paths = []
    for source in args.sources:
        for algorithm in args.algorithms:
            mine = {(r["alpha"], r["block_words"]): r["ratio"] for r in ratios
                    if (r["source"], r["algorithm"]) == (source, algorithm)}
            if mine:
                values = [[mine.get((a, b)) for b in args.blocks] for a in args.alphas]
                paths += ratio_surface(values, args, f"{algorithm} ({source}): this run over {other_what}",
                                       f"apexmap-against-{source}-{algorithm}.png")
    return paths


def surfaces(values, args, where, suffix):
    algorithms = list(values)
    present = [v for a in algorithms for row in values[a] for v in row if v]
    if not present:
        return []
    norm = colors.LogNorm(vmin=min(present), vmax=max(present))
    fig, axes = plt.subplots(1, len(algorithms), figsize=(7 * len(algorithms), 5.2), squeeze=False)
    for ax, algorithm in zip(axes[0], algorithms):
        mesh = draw(ax, values[algorithm], args.alphas, args.blocks, norm, "viridis", ".3g")
        ax.set_title(f"{algorithm}: MB/s per process\n{where}")
    fig.colorbar(mesh, ax=axes[0].tolist(), label="MB/s per process (log scale)")
    return [save(fig, args.out, f"apexmap-surfaces{suffix}.png")]


def ratio(below, above, args, title, name):
    """The surface `above` over the surface `below`, point by point."""
    return ratio_surface([[b / a if a and b else None for a, b in zip(row_a, row_b)]
                          for row_a, row_b in zip(below, above)], args, title, name)


def ratio_surface(values, args, title, name):
    """A surface of ratios on a scale centred on 1."""
    finite = [v for row in values for v in row if v]
    if not finite:
        return []
    span = max(max(finite), 1 / min(finite), 1.01)
    fig, ax = plt.subplots(figsize=(8, 5.2))
    mesh = draw(ax, values, args.alphas, args.blocks, colors.LogNorm(vmin=1 / span, vmax=span), "RdBu", ".2f")
    fig.colorbar(mesh, ax=ax, label="bandwidth ratio (log scale; above 1: the first named faster)")
    ax.set_title(title)
    return [save(fig, args.out, name)]


def save(fig, out, name):
    path = os.path.join(out, name)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path
