"""Apex-Map's surfaces as its authors draw them: bandwidth per process over temporal locality alpha and spatial
locality L, both on log scales, and the ratio of two implementations' surfaces."""
import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.colors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402


def grid(rows, algorithm, alphas, blocks, key="mb_per_second_per_process"):
    """values[alpha index][block index], None where the point failed."""
    cell = {(r["alpha"], r["block_words"]): r.get(key) for r in rows
            if r["algorithm"] == algorithm and not r["failed"]}
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


def surfaces(rows, algorithms, alphas, blocks, out, ranks):
    """One surface per implementation and, with two, their ratio; returns the files written."""
    paths = []
    values = {a: grid(rows, a, alphas, blocks) for a in algorithms}
    present = [v for a in algorithms for row in values[a] for v in row if v]
    if present:
        norm = matplotlib.colors.LogNorm(vmin=min(present), vmax=max(present))
        fig, axes = plt.subplots(1, len(algorithms), figsize=(7 * len(algorithms), 5.2), squeeze=False)
        for ax, algorithm in zip(axes[0], algorithms):
            mesh = draw(ax, values[algorithm], alphas, blocks, norm, "viridis", ".3g")
            ax.set_title(f"{algorithm}: MB/s per process, {ranks} ranks")
        fig.colorbar(mesh, ax=axes[0].tolist(), label="MB/s per process (log scale)")
        paths.append(save(fig, out, "apexmap-surfaces.png"))
    if len(algorithms) == 2:
        first, second = algorithms
        ratio = [[b / a if a and b else None for a, b in zip(row_a, row_b)]
                 for row_a, row_b in zip(values[first], values[second])]
        finite = [v for row in ratio for v in row if v]
        if finite:
            span = max(max(finite), 1 / min(finite), 1.01)
            fig, ax = plt.subplots(figsize=(8, 5.2))
            mesh = draw(ax, ratio, alphas, blocks, matplotlib.colors.LogNorm(vmin=1 / span, vmax=span), "RdBu", ".2f")
            fig.colorbar(mesh, ax=ax, label="ratio (log scale; above 1: the first named faster)")
            ax.set_title(f"{second} over {first}: bandwidth ratio, {ranks} ranks")
            paths.append(save(fig, out, "apexmap-ratio.png"))
    return paths


def save(fig, out, name):
    path = os.path.join(out, name)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path
