"""The what-if study's plot: GUPS against the varied field (one line per size; the model, its two bounds and the
simulation, each point marked by what binds there), bars per machine when whole machines are compared, and a
heat map when two fields are varied."""
from ..report import plot
from ..report.lazy_matplotlib import pyplot as plt, ticker


def label_of(value):
    """A value as a table or axis shows it: 0.25, 2e+09, [1 16 16]."""
    if isinstance(value, list):
        return "[" + " ".join(label_of(v) for v in value) + "]"
    return f"{value:g}" if isinstance(value, float) else str(value)


def kind(binds):
    """A binding resource in a few words: "network: blue (groups)" and "network (dimension 0 links)" -> "network",
    "core 4: receive UV, route V" and "core 4 (receive UV, route V)" -> "core 4"."""
    return (binds or "-").split(":")[0].split(" (")[0]


def draw(args, rows, out):
    if args.field == "machine":
        fig = machines(rows, "What if: the same node on other networks")
    elif any(isinstance(r["value"], str) for r in rows):  # named choices (role_plan): a bar each
        fig = machines(rows, f"What if: {args.field} ({args.algorithm})")
    elif args.field2 and any(isinstance(r["value2"], str) for r in rows):
        fig = choices(args, rows)
    elif args.field2:
        fig = grid(args, rows)
    else:
        fig = lines(args, rows)
    return plot.save(fig, out, "whatif")[0]


def numeric(value):
    return value[0] if isinstance(value, list) else value


def lines(args, rows):
    fig, ax = plt.subplots(figsize=(8, 5))
    markers = {}
    for n_index, nodes in enumerate(sorted({r["nodes"] for r in rows})):
        series = [r for r in rows if r["nodes"] == nodes]
        x = [numeric(r["value"]) for r in series]
        colour = f"C{n_index}"
        ax.plot(x, [r["model_gups"] for r in series], "-", color=colour, label=f"{nodes} nodes: model")
        plot.band(ax, list(zip(x, series)), "model_low", "model_high", colour,
                  f"{nodes} nodes: the model's interval over the other inputs' ranges")
        ax.plot(x, [r["cpu_gups"] for r in series], ":", color=colour, alpha=0.6, label=f"{nodes} nodes: CPU bound")
        ax.plot(x, [r["network_gups"] for r in series], "--", color=colour, alpha=0.6,
                label=f"{nodes} nodes: network bound")
        simulated = [(v, r["sim_steady_gups"], r.get("binds")) for v, r in zip(x, series) if r.get("sim_steady_gups")]
        for v, gups, binds in simulated:
            marker = markers.setdefault(kind(binds), "osD^vP*X"[len(markers) % 8])
            ax.plot([v], [gups], marker, color=colour, markersize=8, markerfacecolor="none")
        for a, b in zip(series, series[1:]):  # name the binding resource where it changes
            if kind(a["model_binds"]) != kind(b["model_binds"]) or a["model_binds"] != b["model_binds"]:
                ax.annotate(kind(b["model_binds"]), (numeric(b["value"]), b["model_gups"]), fontsize=8,
                            textcoords="offset points", xytext=(4, -12), color=colour)
        if series:
            ax.annotate(kind(series[0]["model_binds"]), (x[0], series[0]["model_gups"]), fontsize=8,
                        textcoords="offset points", xytext=(4, 6), color=colour)
    for name, marker in markers.items():
        ax.plot([], [], marker, color="grey", markerfacecolor="none", label=f"simulated, binds: {name}")
    values = [numeric(r["value"]) for r in rows]
    if min(values) > 0 and max(values) / min(values) >= 8:
        ax.set_xscale("log", base=2)
        # The values themselves on the axis (as the table prints them), not powers of two.
        ax.set_xticks(sorted(set(values)))
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    ax.set_yscale("log")
    ax.set_xlabel(args.field)
    ax.set_ylabel("GUPS")
    ax.set_title(f"What if: {args.field} ({args.algorithm})")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def machines(rows, title):
    fig, ax = plt.subplots(figsize=(8, 5))
    sizes = sorted({r["nodes"] for r in rows})
    names = list(dict.fromkeys(r["machine"] for r in rows))
    width = 0.8 / (2 * len(sizes))
    for s_index, nodes in enumerate(sizes):
        for m_index, name in enumerate(names):
            row = next((r for r in rows if r["nodes"] == nodes and r["machine"] == name), None)
            if row is None:
                continue
            x = m_index + (2 * s_index - len(sizes)) * width + width / 2
            ax.bar(x, row["model_gups"], width, color=f"C{s_index}", alpha=0.5,
                   label=f"{nodes} nodes: model" if m_index == 0 else None)
            ax.text(x, row["model_gups"], kind(row["model_binds"]), rotation=90, fontsize=7, ha="center",
                    va="bottom")
            if row.get("sim_steady_gups"):
                ax.bar(x + width, row["sim_steady_gups"], width, color=f"C{s_index}",
                       label=f"{nodes} nodes: simulated" if m_index == 0 else None)
                ax.text(x + width, row["sim_steady_gups"], kind(row.get("binds")), rotation=90, fontsize=7,
                        ha="center", va="bottom")
    ax.set_xticks(range(len(names)), names)
    ax.set_ylabel("GUPS")
    ax.set_title(title)
    ax.legend(fontsize=7)
    ax.margins(y=0.25)
    fig.tight_layout()
    return fig


def choices(args, rows):
    """A numeric field against a named choice (role_plan: paper, best): a line per choice, model and simulated,
    each point labelled with what binds (and the plan the cores followed)."""
    nodes = max(r["nodes"] for r in rows)
    rows = [r for r in rows if r["nodes"] == nodes]
    fig, ax = plt.subplots(figsize=(8, 5))
    for index, choice in enumerate(dict.fromkeys(r["value2"] for r in rows)):
        series = [r for r in rows if r["value2"] == choice]
        x = [numeric(r["value"]) for r in series]
        colour = f"C{index}"
        ax.plot(x, [r["model_gups"] for r in series], "-", color=colour, label=f"{args.field2} {choice}: model")
        simulated = [(v, r["sim_steady_gups"]) for v, r in zip(x, series) if r.get("sim_steady_gups")]
        if simulated:
            ax.plot(*zip(*simulated), "o", color=colour, markerfacecolor="none", markersize=8,
                    label=f"{args.field2} {choice}: simulated")
        for v, r in zip(x, series):
            text = kind(r["model_binds"]) + (f"\n{r['role_plan']}" if r.get("role_plan") else "")
            ax.annotate(text, (v, r["model_gups"]), fontsize=6, color=colour, textcoords="offset points",
                        xytext=(3, 5 if index == 0 else -16))
    ax.set_xticks(sorted({numeric(r["value"]) for r in rows}))
    ax.set_ylim(bottom=0)
    ax.set_xlabel(args.field)
    ax.set_ylabel("GUPS")
    ax.set_title(f"What if: {args.field} and {args.field2}, {nodes} nodes ({args.algorithm})")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def grid(args, rows):
    nodes = max(r["nodes"] for r in rows)
    rows = [r for r in rows if r["nodes"] == nodes]
    first = list(dict.fromkeys(label_of(r["value"]) for r in rows))
    second = list(dict.fromkeys(label_of(r["value2"]) for r in rows))
    key = "sim_steady_gups" if any(r.get("sim_steady_gups") for r in rows) else "model_gups"
    values = [[None] * len(first) for _ in second]
    for r in rows:
        value = r.get(key)
        values[second.index(label_of(r["value2"]))][first.index(label_of(r["value"]))] = value
    fig, ax = plt.subplots(figsize=(8, 5.5))
    image = ax.imshow([[v if v is not None else float("nan") for v in line] for line in values], origin="lower",
                      aspect="auto", cmap="viridis")
    fig.colorbar(image, label=("simulated steady" if key == "sim_steady_gups" else "model") + " GUPS")
    for r in rows:
        i, j = second.index(label_of(r["value2"])), first.index(label_of(r["value"]))
        binds = r.get("binds") if key == "sim_steady_gups" else r["model_binds"]
        ax.text(j, i, f"{r.get(key) or 0:.3g}\n{kind(binds)}", ha="center", va="center", fontsize=7, color="white")
    ax.set_xticks(range(len(first)), first)
    ax.set_yticks(range(len(second)), second)
    ax.set_xlabel(args.field)
    ax.set_ylabel(args.field2)
    ax.set_title(f"What if: {args.field} and {args.field2}, {nodes} nodes ({args.algorithm})")
    fig.tight_layout()
    return fig
