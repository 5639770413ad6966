"""Tests of the analysis package on small results written here."""
import argparse
import csv
import io
import json
import math
import re
import os
import struct
import subprocess

import pytest

from analysis import report, results
from analysis.paper import sweep
from analysis.report import plot, stats
from analysis.run import launcher, programs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("TORUS_GUPS_BUILD", os.path.join(ROOT, "build"))
TOPOLOGY = os.path.join(BUILD, programs.PATHS["gups-topology"])
needs_build = pytest.mark.skipif(not os.path.exists(TOPOLOGY),
                                 reason="needs the build's gups-topology (TORUS_GUPS_BUILD)")


def write(folder, name, document):
    os.makedirs(folder / "raw", exist_ok=True)
    (folder / "raw" / f"{name}.json").write_text(json.dumps(document))


def model_doc(nodes, cpu, network, algorithm="multicore"):
    return {"sweep": {"source": "model", "machine": "bgp", "algorithm": algorithm, "nodes": nodes,
                      "command": f"gups-model --nodes {nodes}"},
            "row": {"shape": "2x2x2", "processes": nodes * 4, "gups": min(cpu, network), "cpu_gups": cpu,
                    "network_gups": network, "binds": "cpu" if cpu <= network else "network",
                    "cores": [{"share": s} for s in (0.6, 0.8, 0.8, 1.0)]}}


def run_doc(source, nodes, gups, repeat, algorithm="multicore"):
    return {"sweep": {"source": source, "machine": "bgp", "algorithm": algorithm, "nodes": nodes, "repeat": repeat,
                      "command": f"gups-sim --nodes {nodes} # {repeat}"},
            "schema": "torus-gups/result/1", "shape": "2x2x2", "ranks": nodes * 4, "gups": gups,
            "window_gups": gups * 1.1, "seconds": 0.01, "errors": 0,
            "cores": [{"busy_share": s} for s in (0.5, 0.6, 0.6, 0.9)],
            "simulation": {"wall_seconds": 1.5, "peak_memory_bytes": 1 << 20}}


@pytest.fixture
def folder(tmp_path):
    write(tmp_path, "model-8", model_doc(8, 0.05, 0.6))
    write(tmp_path, "model-16", model_doc(16, 0.10, 1.2))
    for repeat, gups in ((1, 0.040), (2, 0.044)):
        write(tmp_path, f"sim-8-{repeat}", run_doc("sim", 8, gups, repeat))
    write(tmp_path, "sim-16-1", run_doc("sim", 16, 0.09, 1))
    return tmp_path


def test_csv_joins_every_result(folder):
    records = results.load_records(folder)
    assert len(records) == 5
    results.write_csv(records, folder / "results.csv")
    rows = list(csv.DictReader(open(folder / "results.csv")))
    assert [r["source"] for r in rows] == ["model", "model", "sim", "sim", "sim"]
    assert rows[0]["cpu_gups"] == "0.05" and rows[0]["binds"] == "cpu"
    assert {r["file"] for r in rows if r["source"] == "sim"} == {"sim-8-1.json", "sim-8-2.json", "sim-16-1.json"}


def test_statistics_of_repeats(folder):
    summary = stats.by_point(results.load_records(folder))
    s = summary[("sim", "multicore", 8)]
    assert s["n"] == 2 and s["min"] == 0.040 and s["max"] == 0.044
    assert s["mean"] == pytest.approx(0.042)
    assert s["cv"] == pytest.approx(0.002 / 0.042)
    assert summary[("sim", "multicore", 16)]["cv"] == 0.0


def test_broken_and_foreign_files_are_named_and_skipped(folder):
    (folder / "raw" / "broken.json").write_text("{\"sweep\": ")
    (folder / "raw" / "foreign.json").write_text(json.dumps({"hello": 1}))
    warnings = io.StringIO()
    records = results.load_records(folder, warn=warnings)
    assert len(records) == 5
    assert "broken.json: not a readable result" in warnings.getvalue()
    assert "foreign.json: not a torus-gups sweep result" in warnings.getvalue()


def png_size(path):
    data = open(path, "rb").read(24)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def report_args(folder):
    return argparse.Namespace(out=str(folder), machine="bgp", build=BUILD)


@needs_build
def test_report_has_rates_ratios_plots_and_commands(folder, tmp_path):
    assert report.report(report_args(folder)) == 0
    text = (folder / "report.md").read_text()
    assert "| multicore | 8 | 32 | 2x2x2 | - | - | 0.05 | cpu | - | - | 0.042 | 4.8% | 0.84 |" in text
    assert "| multicore | 16 | 64 | 2x2x2 | - | - | 0.1 | cpu | - | - | 0.09 | 0.0% | 0.9 |" in text
    assert "    gups-sim --nodes 8 # 2" in text and "    gups-model --nodes 16" in text
    assert "IBM Blue Gene/P" in text and "850 MHz" in text
    assert png_size(folder / "gups.png") == (1210, 605)
    assert png_size(folder / "core-shares.png") == (770, 495)
    assert (folder / "gups.svg").stat().st_size > 1000
    html = (folder / "report.html").read_text()
    assert "<table>" in html and 'src="gups.png"' in html and "**" not in html


@needs_build
def test_the_reports_projection_carries_its_interval_and_judges_the_measured_figure(folder, tmp_path):
    interval = {"low": {"gups": 0.08}, "high": {"gups": 0.12},
                "inputs": [{"field": "costs_cycles.update_streamed", "share": 0.7},
                           {"field": "costs_cycles.core_overhead", "share": 0.3}]}
    document = model_doc(16, 0.10, 1.2)
    document["row"]["interval"] = interval
    write(folder, "model-16", document)
    for repeat, gups in ((1, 0.13), (2, 0.14)):
        write(folder, f"measured-16-{repeat}", run_doc("measured", 16, gups, repeat))
    assert report.report(report_args(folder)) == 0
    text = (folder / "report.md").read_text()
    # 0.135 measured against 0.08 .. 0.12: above the interval's high end by 12.5% (13%); the CV stays in its own column.
    assert ("| multicore | 16 | 64 | 2x2x2 | 0.135 | 3.7% | 0.1 [0.08 .. 0.12] | cpu | update_streamed 70%, "
            "core_overhead 30% | above by 13% |") in text
    assert "in square brackets, its interval" in text
    write(folder, "measured-16-1", run_doc("measured", 16, 0.09, 1))
    write(folder, "measured-16-2", run_doc("measured", 16, 0.11, 2))
    assert report.report(report_args(folder)) == 0
    assert "| 0.1 | 10.0% | 0.1 [0.08 .. 0.12] | cpu | update_streamed 70%, core_overhead 30% | inside |" in \
        (folder / "report.md").read_text()


def test_an_interval_is_drawn_as_a_band_and_nothing_without_one():
    figure, axes = plot.plt.subplots()
    points = [(8, {"low": 1.0, "high": 2.0}), (16, {"low": 2.0, "high": 3.5}), (32, {"low": None, "high": 4.0})]
    plot.band(axes, points, "low", "high", "tab:green", "the model's interval")
    bands = [c for c in axes.collections if c.get_label() == "the model's interval"]
    assert len(bands) == 1
    vertices = bands[0].get_paths()[0].vertices
    assert vertices[:, 0].min() == 8 and vertices[:, 0].max() == 16
    assert vertices[:, 1].min() == 1.0 and vertices[:, 1].max() == 3.5
    plot.band(axes, [(8, {"low": None, "high": None})], "low", "high", "tab:blue", "none")
    assert not [c for c in axes.collections if c.get_label() == "none"]
    plot.plt.close(figure)


def test_html_report_renders_markdown_as_a_person_reads_it():
    page = report.to_html("# Title\n\n1. **Blue Gene/P**, `gups`\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n"
                          "![gups](gups.png)\n\n    gups-sim --nodes 8\n")
    assert "<strong>Blue Gene/P</strong>" in page and "**" not in page
    assert "<table>" in page and "<td>1</td>" in page and '<img alt="gups" src="gups.png"' in page
    assert "<code>gups-sim --nodes 8" in page and "<h1>Title</h1>" in page


def test_missing_binary_says_which_build_step(tmp_path):
    with pytest.raises(programs.MissingBinary, match="cmake --build build"):
        programs.binary(str(tmp_path), "gups-model")


def cxx_plan(*arguments):
    done = subprocess.run([TOPOLOGY, *arguments], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


@pytest.fixture
def started(monkeypatch):
    """The mpirun commands the sweep starts; they are recorded, not run (other commands run)."""
    launched = []
    real_run = launcher.run

    def run(command, env=None):
        if command[0] != "mpirun":
            return real_run(command, env)
        launched.append(command)
        return 1, "", "not run in this test"

    monkeypatch.setattr(launcher, "run", run)
    return launched


@needs_build
@pytest.mark.parametrize("algorithm,nodes", [("direct", 12), ("routed", 96), ("multicore", 96), ("multicore", 8)])
def test_measured_runs_are_what_the_cxx_plan_says(tmp_path, started, algorithm, nodes):
    """The sweep's real runs take their rank count and the kernel's arguments from gups-topology's plan."""
    args = argparse.Namespace(out=str(tmp_path), build=BUILD, machine="bgp", log2_table=20, nodes_per_host="1")
    task = sweep.measurement(args, "GUPS", algorithm, nodes, 1)
    [(document, _)] = launcher.Local().run([task], launcher.Progress(1, "test"))
    plan = cxx_plan("--machine", "bgp", "--algo", algorithm, "--nodes", str(nodes), "--log2-table", "20",
                    "--updates-per-word", "4")
    path = os.path.join(str(tmp_path), "raw", f"measured-{algorithm}-{nodes}-1.json")
    assert started == [["mpirun", "-np", str(plan["ranks"]), "GUPS", *plan["kernel_arguments"], "--json", path]]
    assert ("--shape" in plan["kernel_arguments"]) == (algorithm != "direct")
    # A run that failed is recorded as failed, with the command that ran.
    assert document is None
    recorded = json.loads(open(path, encoding="utf-8").read())["sweep"]
    assert recorded["failed"] and recorded["command"].startswith(f"mpirun -np {plan['ranks']} GUPS")


@needs_build
def test_measured_runs_never_oversubscribe(tmp_path, monkeypatch, capsys):
    """A run that needs more ranks than the host's cores is not started, and the sweep says why."""
    monkeypatch.setattr(sweep, "host_cores", lambda: 2)
    args = argparse.Namespace(out=str(tmp_path), build=BUILD, machine="bgp", log2_table=20, nodes_per_host="1")
    fits = [sweep.fits_this_host(sweep.measurement(args, "GUPS", algorithm, nodes, 1), launcher.Progress(2, "test"))
            for algorithm, nodes in (("multicore", 1), ("direct", 2))]  # 4 ranks, 2 ranks
    assert fits == [False, True]
    assert "needs 4 ranks and this host gives 2 cores (measured runs never oversubscribe)" in capsys.readouterr().err


@needs_build
def test_machines_are_found_and_shaped_as_the_cxx_does(tmp_path, monkeypatch):
    """Names resolve as gups resolves them ($TORUS_GUPS_MACHINES first) and shapes follow the machine's rule."""
    bgp = programs.load_machine("bgp", BUILD)
    assert bgp["name"] == "bgp" and bgp["path"].endswith("bgp.json")
    tiny = {key: value for key, value in bgp.items() if key != "path"}
    torus = {key: value for key, value in bgp["torus"].items() if key != "partitions"}
    tiny.update(name="tiny", torus={**torus, "max_side": 4})
    (tmp_path / "tiny.json").write_text(json.dumps(tiny))
    monkeypatch.setenv("TORUS_GUPS_MACHINES", str(tmp_path))
    assert programs.load_machine("tiny", BUILD)["path"] == str(tmp_path / "tiny.json")
    assert programs.plan(BUILD, "tiny", 64)["shape"] == "4x4x4"
    with pytest.raises(ValueError, match="longer than its 4"):
        programs.plan(BUILD, "tiny", 128)
    assert [programs.plan(BUILD, "bgp", n)["shape"] for n in (1, 2, 12, 96, 4096)] == \
        [cxx_plan("--nodes", str(n))["shape"] for n in (1, 2, 12, 96, 4096)]
    assert programs.plan(BUILD, "bgp", 4096)["shape"] == "8x16x32"  # a listed partition


@needs_build
def test_division_against_prediction_plot(folder):
    for owner, gups in (("division", 0.030), ("predict", 0.045)):
        document = run_doc("measured", 12, gups, 1, algorithm="direct")
        document["sweep"]["owner"] = owner
        write(folder, f"measured-direct-12-{owner}", document)

    class Args:
        out = str(folder)
        machine = "bgp"
        build = BUILD
    assert report.report(Args) == 0
    assert png_size(folder / "owner.png") == (770, 495)
    text = (folder / "report.md").read_text()
    assert "![owner.png](owner.png)" in text
    assert "| direct | 12 | 48 | 2x2x2 | 0.03 |" in text  # the table shows the division runs, as HPCC does
    rows = list(csv.DictReader(open(folder / "results.csv")))
    assert sorted(r["owner"] for r in rows if r["source"] == "measured") == ["division", "predict"]


def test_table4_beside_another_study_shows_both_levels_on_the_same_shape(tmp_path):
    """study table4 --beside: the other study's steady state and this/beside where the shape is the same,
    nothing where it is not."""
    from analysis.paper import study
    row = {"machine": "bgp", "algorithm": "multicore", "rule_bucket": 31, "paper_bucket": 29, "eq_rule_gups": 1.0,
           "eq_paper_gups": 1.0, "paper_bound_gups": None, "model_binds": "cpu", "sim_gups": 0.9, "steady_spread": 0.0,
           "network_level": "packet", "sim_over_eq": 0.99}
    rows = [dict(row, nodes=64, shape="4x4x4", sim_steady_gups=0.99),
            dict(row, nodes=4096, shape="8x16x32", sim_steady_gups=20.0)]
    other = [dict(row, nodes=64, shape="4x4x4", sim_steady_gups=1.1, network_level="flow"),
             dict(row, nodes=4096, shape="16x16x16", sim_steady_gups=22.0, network_level="queue")]
    (tmp_path / "table4.json").write_text(json.dumps({"study": {}, "rows": other}))
    text = study.markdown4(rows, 1.0, [], study.beside_rows(str(tmp_path)))
    lines = [line for line in text.splitlines() if line.startswith("| bgp")]
    assert "| flow |" in lines[0] and "| 0.9000 |" in lines[0]
    assert "not on this shape" in lines[1] and "| 0.9000 |" not in lines[1]
    with pytest.raises(ValueError, match="cannot read its table4.json"):
        study.beside_rows(str(tmp_path / "missing"))


def sim_convergence():
    """gups-sim's verdict module, which lives beside gups-sim (sim/), not in the analysis package."""
    import importlib
    import sys as _sys
    _sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "sim"))
    return importlib.import_module("sim_convergence")


def test_a_steady_state_is_settled_or_says_why_not_and_tables_mark_it():
    convergence = sim_convergence()
    cores = [{"core": 3, "busy_share": 0.70, "stalled_share": 0.0}]
    unsettled = {"steady_gups": 21.1e9, "steady_spread": 0.026, "steady_quarters_gups": [20.8, 21.4],
                 "binds": {"core": 3}, "cores": cores, "simulation": {"updates_per_node": 2048}}
    verdict = convergence.steady_verdict(unsettled)
    assert not verdict["settled"] and verdict["tolerance"] == 0.005
    assert "NOT settled within 0.5%: quarters 2.60% apart" in verdict["text"]
    assert "waiting for input 30% of the time: the figure may be low" in verdict["text"]
    assert "--updates-per-node 4096" in verdict["text"]
    settled = dict(unsettled, steady_spread=0.002)
    assert convergence.steady_verdict(settled)["settled"]
    converged = convergence.steady_verdict(settled, 0.01, {"converged": True, "longest_updates_per_node": 65536})
    assert converged["settled"] and converged["text"].startswith("settled: the run stopped once settled")
    # Stopped as settled, yet its whole window's quarters disagree: not settled, and why.
    stopped = convergence.steady_verdict(unsettled, 0.01, {"converged": True, "longest_updates_per_node": 65536})
    assert not stopped["settled"] and "quarters 2.60% apart" in stopped["text"]
    never = convergence.steady_verdict(settled, 0.01, {"converged": False, "longest_updates_per_node": 65536})
    assert not never["settled"] and "not settled by 65536 updates per node" in never["text"]
    from analysis import study_tools
    assert study_tools.steady_cell({"sim_steady_gups": 21.1, "steady_settled": False}) == "21.1 (not settled)"
    assert study_tools.steady_cell({"sim_steady_gups": 22.7, "steady_settled": True}) == "22.7"
    # direct and hypercube have no steady state: their whole run's figure, said so.
    assert study_tools.steady_cell({"sim_steady_gups": None, "sim_gups": 0.65}) == "0.65 (whole run)"
    assert study_tools.simulated_gups({"sim_steady_gups": None, "sim_gups": 0.65}) == 0.65
    assert study_tools.sim_fields({"steady_gups": 1.0, "steady_verdict": verdict}, 1.0)["steady_settled"] is False


def test_a_steady_state_with_an_error_is_settled_only_when_the_error_is_within_the_tolerance():
    """gups's batch means give the error (tests/unit/steady_watch_test.cpp); the verdict reads it."""
    convergence = sim_convergence()

    def run(noise, quarters, updates_per_node=8192):
        return {"steady_gups": 1.0, "steady_spread": abs(quarters[1] - quarters[0]), "steady_quarters_gups": quarters,
                "steady_standard_error": noise, "binds": {"core": 3}, "cores": [{"core": 3, "busy_share": 0.9}],
                "simulation": {"updates_per_node": updates_per_node}}

    assert convergence.steady_verdict(run(0.0005, [1.0, 1.0]))["settled"]
    noise = 0.012
    verdict = convergence.steady_verdict(run(noise, [1.0, 1.0]))
    assert not verdict["settled"] and f"standard error {noise:.2%}" in verdict["text"]
    assert verdict["settling_updates_per_node"] == 8192 * 2 ** math.ceil(math.log2(noise / 0.005))
    # Quarters 1.5% apart, later higher, with a small error: a pipeline still filling, twice the length.
    climbing = run(0.001, [0.9925, 1.0075])
    verdict = convergence.steady_verdict(climbing)
    assert not verdict["settled"] and "the later one higher" in verdict["text"] and "may be low" in verdict["text"]
    assert verdict["settling_updates_per_node"] == 16384
    # Too short a run for an error: the quarters alone, within the tolerance itself.
    short = dict(climbing, steady_standard_error=None, steady_spread=0.007)
    assert not convergence.steady_verdict(short)["settled"]
    assert convergence.steady_verdict(dict(short, steady_spread=0.004))["settled"]


def test_a_settled_verdict_names_each_limit_as_applied():
    """Quarters 0.97% apart pass the quarters' limit (twice the tolerance, where the error is known): the text says
    that limit, never "within 0.5%" beside a figure above it."""
    convergence = sim_convergence()
    run = {"steady_gups": 1.0, "steady_spread": 0.0097, "steady_quarters_gups": [0.995, 1.0047],
           "steady_standard_error": 0.003, "binds": {"core": 3}, "cores": [{"core": 3, "busy_share": 0.9}],
           "simulation": {"updates_per_node": 8192}}
    verdict = convergence.steady_verdict(run)
    assert verdict["settled"] and verdict["quarters_limit"] == 0.01
    assert "standard error within 0.5% and quarters within 1.0% (quarters 0.97% apart" in verdict["text"]
    for limit, figure in re.findall(r"(\w+) within ([\d.]+)%", verdict["text"]):
        shown = re.search(rf"{limit} ([\d.]+)%(?: apart)?[,)]", verdict["text"].split("(", 1)[1])
        assert shown and float(shown.group(1)) <= float(figure), verdict["text"]


def test_a_simulated_steady_state_is_set_against_the_models_interval():
    convergence = sim_convergence()
    interval = {"gups": 0.356, "low": {"gups": 0.340, "binding_resource": "core 3"},
                "high": {"gups": 0.374, "binding_resource": "core 3"},
                "inputs": [{"field": "costs_cycles.update_streamed", "share": 0.87},
                           {"field": "costs_cycles.core_overhead", "share": 0.124},
                           {"field": "torus.link_latency_s", "share": 0.001}]}
    plan = {"model_interval": interval}
    inside = convergence.against_the_interval({"steady_gups": 0.35, "steady_standard_error": 0.005}, plan)
    assert inside["inside"] and inside["beyond"] == 0 and [e["field"] for e in inside["inputs"]] == [
        "costs_cycles.update_streamed", "costs_cycles.core_overhead"]
    # 0.1% under the low end with a standard error of 0.56%: one draw of a rate that varies that much.
    edge = convergence.against_the_interval({"steady_gups": 0.3396, "steady_standard_error": 0.0056}, plan)
    assert edge["inside"] and edge["beyond"] < 0
    text = convergence.interval_line(edge, "file")
    assert "lies inside the model's interval 0.34 .. 0.374 GUP/s" in text and "below its end by 0.12%" in text
    assert text.endswith("gups-sim --inputs low|high simulates its ends")
    # 5% under it with 0.5% of error: outside, what the simulation adds.
    below = convergence.against_the_interval({"steady_gups": 0.323, "steady_standard_error": 0.005}, plan)
    assert not below["inside"] and below["beyond"] == pytest.approx(0.323 / 0.340 - 1)
    assert "lies OUTSIDE the model's interval" in convergence.interval_line(below, "low") and \
        "below by 5.0%" in convergence.interval_line(below, "low")
    assert convergence.against_the_interval({"steady_gups": 0.3}, {}) is None
    # The direct algorithm measures no steady state: its whole run's rate is named as what it is.
    direct = convergence.against_the_interval({"steady_gups": 0.0, "gups": 0.323}, plan)
    line = convergence.interval_line(direct, "file")
    assert line.startswith("Against the interval: the whole run's rate (no steady state measured) 0.323 GUP/s")
    assert "with no standard error to allow" in line and "steady state 0.323" not in line


def test_a_job_that_fails_before_writing_leaves_no_folder(tmp_path):
    """results_folder: OUT and OUT/raw go again when the job fails before writing; a folder that was there stays."""
    out = tmp_path / "sweep"
    with pytest.raises(ValueError):
        with results.results_folder(str(out)):
            assert (out / "raw").is_dir()
            raise ValueError("refused by gups-topology")
    assert not out.exists()
    kept = tmp_path / "kept"
    kept.mkdir()
    with pytest.raises(ValueError):
        with results.results_folder(str(kept)):
            raise ValueError("refused")
    assert kept.is_dir() and not (kept / "raw").exists()
    # What a job wrote before failing stays (--resume reads it).
    with pytest.raises(ValueError):
        with results.results_folder(str(out)):
            results.write_raw(str(out), "model-8", {"sweep": {}})
            raise ValueError("later")
    assert (out / "raw" / "model-8.json").exists()


@needs_build
def test_a_sweep_refused_by_the_plan_leaves_no_folder(tmp_path):
    """A bad --log2-table is the plan's refusal: one error line, exit 2, and no empty OUT/raw."""
    host = tmp_path / "host.json"
    machine = json.loads(open(os.path.join(ROOT, "models", "machines", "bgp.json"), encoding="utf-8").read())
    machine["name"] = "host"
    host.write_text(json.dumps(machine))
    out = tmp_path / "D"
    done = subprocess.run(["/usr/bin/python3", "-m", "analysis", "sweep", "--machine", str(host), "--algorithms",
                           "direct", "--nodes", "1", "--sources", "measured", "--log2-table", "-5", "--out", str(out),
                           "--build", BUILD], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.startswith("analysis: error:"), done.stderr
    assert not out.exists()


@pytest.mark.parametrize("skipped,failed,allow,status,words", [
    ([], [], False, 0, None),
    (["measured multicore 2 nodes #1"], [], False, 3, "1 of 9 runs NOT RUN"),
    (["measured multicore 2 nodes #1"], [], True, 0, "--allow-skips: exit 0"),
    (["a"], ["measured direct 2 nodes #1"], True, 1, "1 of 9 runs FAILED"),
])
def test_a_sweep_that_could_not_run_everything_says_so_last(capsys, skipped, failed, allow, status, words):
    args = argparse.Namespace(allow_skips=allow, launcher="local")
    assert sweep.closing_status(args, 9, skipped, failed) == status
    err = capsys.readouterr().err.strip()
    if words is None:
        assert err == ""
    else:
        assert words in err.splitlines()[-1]


def test_what_was_not_measured_is_an_empty_cell_not_a_zero(tmp_path):
    document = run_doc("measured", 2, 0.17, 1, algorithm="direct")
    document.update(steady_gups=None, steady_spread=None, window_gups=None)
    write(tmp_path, "measured-direct-2-1", document)
    records = results.load_records(tmp_path)
    results.write_csv(records, tmp_path / "results.csv")
    row = next(csv.DictReader(open(tmp_path / "results.csv", encoding="utf-8")))
    assert row["steady_gups"] == "" and row["steady_spread"] == "" and row["window_gups"] == ""
    assert float(row["gups"]) == 0.17


def test_srun_takes_the_sites_mpi_plugin():
    task = launcher.Task("m", "measured", ["gups"], "m.json", "sweep", ranks=4, hosts=2)
    assert task.full_command(lambda t: launcher.srun_prefix(t, "pmi2"))[:2] == ["srun", "--mpi=pmi2"]
    assert launcher.srun_prefix(task)[1] == f"--mpi={launcher.SRUN_MPI}"
