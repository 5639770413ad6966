"""The validation report: system table, per-size rates (benchmarked, projected by
model and simulation, ratios, run-to-run variation), plots, and the commands."""
import datetime
import json
import os

from .. import results
from . import plot, stats


def raw_documents(out):
    documents = {}
    folder = results.raw_folder(out)
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                document = json.load(f)
            meta = document["sweep"]
            if meta.get("owner", "division") == "division":
                documents[(meta["source"], meta["algorithm"], meta["nodes"])] = document
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return documents


def fmt(value, digits=4):
    return "-" if value is None else f"{value:.{digits}g}"


def build_tables(records):
    summary = stats.by_point(records)
    points = sorted({(r["algorithm"], r["nodes"]) for r in records if r["algorithm"]})
    rows = []
    for algorithm, nodes in points:
        model = next((r for r in records if r["source"] == "model" and (r["algorithm"], r["nodes"]) == (algorithm, nodes)), None)
        sim, measured = summary.get(("sim", algorithm, nodes)), summary.get(("measured", algorithm, nodes))
        shape = next((r["shape"] for r in records if (r["algorithm"], r["nodes"]) == (algorithm, nodes) and r.get("shape")), "")
        ranks = next((r["ranks"] for r in records if (r["algorithm"], r["nodes"]) == (algorithm, nodes) and r.get("ranks")), None)
        bound = model["gups"] if model else None
        typical = model.get("gups_at_median_costs") if model else None
        rows.append({
            "algorithm": algorithm, "nodes": nodes, "ranks": ranks, "shape": shape,
            "measured": measured["mean"] if measured else None,
            "measured_cv": measured["cv"] if measured else None,
            "model": bound, "binds": model["binds"] if model else None, "model_at_median_costs": typical,
            "model_low": model.get("interval_low") if model else None,
            "model_high": model.get("interval_high") if model else None,
            "model_inputs": model.get("interval_inputs") if model else None,
            "sim": sim["mean"] if sim else None, "sim_cv": sim["cv"] if sim else None,
            "sim_over_model": sim["mean"] / bound if sim and bound else None,
            "measured_over_model": measured["mean"] / bound if measured and bound else None,
            "measured_over_model_at_median_costs": measured["mean"] / typical if measured and typical else None,
            "measured_over_sim": measured["mean"] / sim["mean"] if measured and sim else None,
            "host_busy": max((r["others_cpu_share"] for r in records if r["source"] == "measured" and
                              (r["algorithm"], r["nodes"]) == (algorithm, nodes) and
                              r.get("others_cpu_share") is not None and r["others_cpu_share"] > r["busy_above"]),
                             default=None),
        })
    return rows


def calibrated(machine):
    """A machine file gups-calibrate wrote for a host (it alone keeps its costs' spread)."""
    return "costs_cycles_spread" in machine


def system_table(machine):
    torus = machine.get("torus", {})
    if calibrated(machine):
        # One box: its ranks talk through shared memory, and the torus is only the one the algorithms lay on them.
        interconnect = (f"shared memory within this host (MPI between ranks, timed by gups-calibrate: "
                        f"{torus.get('link_bandwidth_bytes_per_s', 0) / 1e6:.0f} MB/s each way, "
                        f"{torus.get('link_latency_s', 0) * 1e6:.2f} us latency); the torus is virtual, laid on "
                        "the ranks")
    else:
        interconnect = (f"{torus.get('dimensions')}-D torus, {torus.get('link_bandwidth_bytes_per_s', 0) / 1e6:.0f} "
                        "MB/s per link each way")
    return ["| item | value |", "| --- | --- |", f"| machine | {machine.get('description')} |",
            f"| clock | {machine.get('clock_hz', 0) / 1e6:.0f} MHz |",
            f"| cores per node | {machine.get('cores_per_node')} |",
            f"| interconnect | {interconnect} |"]


def model_cell(row):
    typical = row.get("model_at_median_costs")
    cell = fmt(row["model"]) + (f" ({fmt(typical)})" if typical is not None else "")
    if row.get("model_low") is not None and row.get("model_high") is not None:
        cell += f" [{fmt(row['model_low'])} .. {fmt(row['model_high'])}]"
    return cell


def interval_verdict(row):
    """Where the measured figure lies against the model's interval (beside, not instead of, its runs' CV)."""
    low, high, measured = row.get("model_low"), row.get("model_high"), row.get("measured")
    if measured is None or low is None or high is None:
        return "-"
    beyond = stats.beyond_interval(measured, low, high)
    return "inside" if beyond == 0 else f"{'above' if beyond > 0 else 'below'} by {abs(beyond):.0%}"


def rates_table(rows):
    """The measured, modelled and simulated rates of each point, with their ratios."""
    cv = lambda v: "-" if v is None else f"{100 * v:.1f}%"
    lines = ["Benchmarked: `gups` on this machine (mean of the repeats); projected: `gups-model` (the bound that "
             "binds; in round brackets, with each calibrated cost at the median of its repeats rather than their "
             "least; in square brackets, its interval: every input at the end of its range that lowers, or raises, "
             "the bound, exact since the bounds are monotone in each input; the leading inputs by their share of "
             "that spread, one at a time) and `gups-sim` (mean); CV: run-to-run coefficient of variation, kept "
             "apart from the verdict against the interval.", "",
             "| algorithm | nodes | ranks | shape | benchmarked | CV | model [interval] | binds | leading inputs | "
             "bench vs interval | simulated | CV | sim/model | bench/model | bench/sim |",
             "| --- | ---: | ---: | --- | ---: | ---: | ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        lines.append(f"| {r['algorithm']} | {r['nodes']} | {r['ranks'] or '-'} | {r['shape']} | {fmt(r['measured'])} | "
                     f"{cv(r['measured_cv'])} | {model_cell(r)} | {r['binds'] or '-'} | "
                     f"{stats.leading_inputs(r.get('model_inputs'), 2) or '-'} | "
                     f"{interval_verdict(r)} | {fmt(r['sim'])} | "
                     f"{cv(r['sim_cv'])} | {fmt(r['sim_over_model'], 3)} | {fmt(r['measured_over_model'], 3)} | "
                     f"{fmt(r['measured_over_sim'], 3)} |")
    return lines


def markdown(machine, rows, plots, commands, out):
    lines = [f"# torus-gups validation: {machine.get('name')}", "",
             f"Written {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC} from `{out}`.", "",
             "## System", ""] + system_table(machine) + ["", "## Rates (GUP/s)", ""] + rates_table(rows)
    lines += ["", "## Plots", ""] + [f"![{os.path.basename(p)}]({os.path.basename(p)})" for p in plots if p.endswith(".png")]
    lines += ["", "## Audit trail", "", "Every number above comes from a raw JSON file in `raw/`, made by:", ""]
    lines += [f"    {c}" for c in commands]
    return "\n".join(lines) + "\n"


def to_html(text):
    """The report's Markdown as a page (Python-Markdown, Debian's python3-markdown: tables, emphasis, images,
    code blocks)."""
    try:
        import markdown
    except ModuleNotFoundError as error:
        raise ValueError("the HTML report needs Python-Markdown (Debian: apt install python3-markdown)") from error
    body = markdown.markdown(text, extensions=["tables", "fenced_code"], output_format="html")
    style = ("body{font-family:sans-serif;max-width:70em;margin:auto}table{border-collapse:collapse}"
             "td,th{border:1px solid #999;padding:2px 6px;text-align:right}td{white-space:nowrap}")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>torus-gups report</title><style>{style}</style>"
            f"</head><body>{body}</body></html>\n")


def report(args):
    all_records = results.load_records(args.out)
    records = [r for r in all_records if r.get("owner", "division") == "division"]
    if not records:
        raise ValueError(f"report: no results in {args.out}/raw (python3 -m analysis sweep --out {args.out} makes "
                         "them)")
    results.write_csv(all_records, os.path.join(args.out, "results.csv"))
    from ..run.programs import load_machine
    machine = load_machine(args.machine, args.build)
    title = f"{machine.get('name')}: GUPS against nodes"
    plots = plot.gups_plot(records, args.out, title) + plot.shares_plot(records, raw_documents(args.out), args.out) + \
        plot.owner_plot(all_records, args.out)
    rows = build_tables(records)
    commands = sorted({r["command"] for r in all_records if r.get("command")})
    text = markdown(machine, rows, plots, commands, args.out)
    with open(os.path.join(args.out, "report.md"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(args.out, "report.html"), "w", encoding="utf-8") as f:
        f.write(to_html(text))
    print(f"report: {args.out}/report.md, report.html, {len(plots)} plot files")
    return 0
