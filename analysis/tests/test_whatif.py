"""python3 -m analysis study whatif: its values and factors, field paths, where the binding resource changes, bad
input; a model-only study and a tiny simulated one when the build is there."""
import json
import os
import subprocess
import sys

import pytest

from analysis import study_tools, whatif
from analysis.whatif import plot as whatif_plot

BUILD = os.environ.get("TORUS_GUPS_BUILD", os.path.join(os.path.dirname(__file__), "..", "..", "build"))
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
needs_build = pytest.mark.skipif(not os.path.exists(os.path.join(BUILD, "models", "gups-model")),
                                 reason="needs the build's gups-model (TORUS_GUPS_BUILD)")


def test_values_are_numbers_factors_and_doubling_ranges_of_factors():
    assert whatif.values_of("2,4,16", 4) == [2, 4, 16]
    assert whatif.values_of("x0.25..x4", 400) == [100, 200, 400, 800, 1600]
    assert whatif.values_of("x0.5,x3", 425e6) == [212.5e6, 1275e6]
    assert whatif.values_of("x2", [1, 16]) == [[2, 32]]  # a list field scales element by element
    assert whatif.values_of("1.5e9", None) == [1.5e9]


@pytest.mark.parametrize("text,current,message", [
    ("", 1, "names no value"), ("x4..x0.5", 1, "from a positive factor up"), ("fast", 1, "not a number"),
    ("x2", None, "needs the field's current value"), ("x2", "text", "not a number, so it has no factors"),
    ("inf", 1, "not a finite number")])
def test_bad_values_are_named(text, current, message):
    with pytest.raises(ValueError, match=message):
        whatif.values_of(text, current)


def test_a_field_is_set_where_it_is_and_a_mistyped_one_is_refused():
    machine = {"name": "m", "torus": {"link_bandwidth_bytes_per_s": 1.0, "dimensions": 3}, "sources": {}}
    changed = whatif.with_field(machine, "torus.link_bandwidth_bytes_per_s", 4.0)
    assert changed["torus"]["link_bandwidth_bytes_per_s"] == 4.0 and machine["torus"]["link_bandwidth_bytes_per_s"] == 1
    source = changed["sources"]["torus.link_bandwidth_bytes_per_s"]
    # A design choice: no range of its own, so the model's interval is the other inputs'.
    assert "what-if" in source["source"] and source["kind"] == "assumed" and source["range"] == ["x1", "x1"]
    with pytest.raises(ValueError, match="no field 'link_bandwith_bytes_per_s' there"):
        whatif.with_field(machine, "torus.link_bandwith_bytes_per_s", 4.0)
    with pytest.raises(ValueError, match="no section 'fat_tree'"):
        whatif.with_field(machine, "fat_tree.down", [1])


def test_changes_name_where_the_binding_resource_moves():
    rows = [{"nodes": 64, "value": 1, "model_binds": "network: dimension 0"},
            {"nodes": 64, "value": 2, "model_binds": "core 3: receive Z, update the table"},
            {"nodes": 64, "value": 4, "model_binds": "core 3: receive Z, update the table"},
            {"nodes": 64, "value": 8, "model_binds": "core 0: generate, route X"}]
    found = whatif.changes(rows, "model_binds")
    assert len(found) == 2
    assert found[0].startswith("64 nodes: network: dimension 0 at 1, core 3")
    assert whatif_plot.kind("core 4 (receive UV, route V)") == "core 4"
    assert whatif_plot.kind("network: blue (groups)") == "network"


def study(tmp_path, *options):
    return subprocess.run([sys.executable, "-m", "analysis", "study", "whatif", "--out", str(tmp_path),
                           "--build", BUILD, *options], capture_output=True, text=True, cwd=SOURCE)


@needs_build
def test_a_model_only_study_finds_where_the_network_starts_to_bind(tmp_path):
    done = study(tmp_path, "--machine", "bgp", "--field", "torus.link_bandwidth_bytes_per_s", "--values",
                 "x0.125..x2", "--nodes", "4096", "--model-only")
    assert done.returncode == 0, done.stderr
    rows = json.load(open(tmp_path / "whatif.json"))["rows"]
    assert [r["value"] for r in rows] == [53125000, 106250000, 212500000, 425000000, 850000000]
    assert rows[0]["model_binds"].startswith("network") and rows[-1]["model_binds"].startswith("core")
    assert rows[0]["network_gups"] * 2 == pytest.approx(rows[1]["network_gups"])
    assert (tmp_path / "whatif.png").exists() and (tmp_path / "whatif.csv").exists()
    assert "Where the binding resource changes (model)" in (tmp_path / "whatif.md").read_text()
    # Each value with the interval over the other inputs' ranges: the varied one is the study's, with no range.
    for r in rows:
        assert r["model_low"] <= r["model_gups"] <= r["model_high"]
        assert "link_bandwidth" not in r["model_inputs"]
    assert rows[0]["model_low"] < rows[0]["model_high"] and "model's interval" in (tmp_path / "whatif.md").read_text()


@needs_build
def test_whole_machines_and_grids(tmp_path):
    done = study(tmp_path / "machines", "--field", "machine", "--values", "bgq,fattree,dragonfly", "--nodes", "512",
                 "--model-only")
    assert done.returncode == 0, done.stderr
    rows = json.load(open(tmp_path / "machines" / "whatif.json"))["rows"]
    assert [r["network"] for r in rows] == ["torus", "fat_tree", "dragonfly"]
    done = study(tmp_path / "grid", "--machine", "bgq", "--field", "cores_per_node", "--values", "4,8",
                 "--field2", "torus.link_bandwidth_bytes_per_s", "--values2", "x0.01,x1", "--nodes", "256",
                 "--model-only")
    assert done.returncode == 0, done.stderr
    rows = json.load(open(tmp_path / "grid" / "whatif.json"))["rows"]
    assert [(r["value"], r["value2"]) for r in rows] == [(4, 2e7), (8, 2e7), (4, 2e9), (8, 2e9)]


@needs_build
@pytest.mark.parametrize("options,message", [
    (["--field", "torus.link_bandwith_bytes_per_s", "--values", "x2"], "no field 'link_bandwith_bytes_per_s'"),
    (["--field", "cores_per_node"], "--field needs --values"),
    (["--values", "2"], "whatif needs --field"),
    (["--field", "role_plan", "--values", "2xX/YZ+9"], "gups-model refused"),  # 13 cores on a 4-core node
    (["--field", "machine", "--values", "bgq", "--field2", "cores_per_node"], "takes no --field2")])
def test_bad_studies_end_with_one_line(tmp_path, options, message):
    done = study(tmp_path, "--model-only", "--nodes", "64", *options)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


@needs_build
@pytest.mark.skipif(not os.path.exists(os.path.join(BUILD, "sim", "gups-sim")), reason="needs gups-sim")
def test_a_simulated_point_beside_its_model(tmp_path):
    # DMA injection, as the model's CPU bound assumes: the planner's plan at 6 cores has buckets of 7 updates.
    # Blue Gene/Q's cores with one thread each and every message and update on them: a 5D node of plain cores
    # (threads sharing a core are tests/transcripts/sim-threads.tesh's).
    with open(os.path.join(SOURCE, "models", "machines", "bgq.json"), encoding="utf-8") as f:
        machine = json.load(f)
    machine.pop("node")
    machine["sources"] = {k: v for k, v in machine["sources"].items() if not k.startswith("node.")}
    plain = tmp_path / "bgq-plain-cores.json"
    plain.write_text(json.dumps(machine))
    done = study(tmp_path, "--machine", str(plain), "--field", "cores_per_node", "--values", "2,6", "--field2",
                 "role_plan", "--values2", "paper,best", "--nodes", "32", "--mechanisms", "wire,dma")
    assert done.returncode == 0, done.stderr
    rows = json.load(open(tmp_path / "whatif.json"))["rows"]
    assert all(0.9 < r["sim_over_model"] < 1.1 for r in rows), rows
    paper, best = rows[:2], rows[2:]
    assert paper[0]["binds"].startswith("core 0") and paper[1]["binds"].startswith("core 5"), paper
    # At 2 cores both generate and each applies half the table; at 6, two pipelines of two routers, two updaters.
    assert [r["role_plan"] for r in best] == ["2xXYZUV+0", "2xXYZ/UV+2"], best
    assert all(b["model_gups"] > p["model_gups"] and "pipeline" in b["binds"] for b, p in zip(best, paper)), best


def test_a_value_given_as_a_factor_reads_as_one():
    from analysis.whatif import study as whatif_study
    assert whatif_study.factor_of(2.65625e7, 2.125e8) == 0.125
    assert whatif_study.value_cell({"value": 2.65625e7, "factor": 0.125}, "value", "factor") == "2.65625e+07 (x0.125)"
    assert whatif_study.factor_of([1, 2], [1, 1]) is None and whatif_study.factor_of(4, 0) is None
    assert whatif_study.value_cell({"value": "bgl"}, "value", "factor") == "bgl"


@needs_build
def test_role_plans_as_the_varied_field(tmp_path):
    """Named plans, one spelled with groups (its '/' must not become a folder), modelled side by side."""
    done = study(tmp_path, "--model-only", "--machine", "bgq", "--nodes", "64", "--field", "role_plan", "--values",
                 "2xX/YZ/UV+4,paper")
    assert done.returncode == 0, done.stderr
    rows = json.load(open(tmp_path / "whatif.json"))["rows"]
    assert [r["role_plan"] for r in rows] == ["2xX/YZ/UV+4", "1xX/Y/Z/U/V+59"], rows  # the rule on 64 threads
    assert rows[0]["model_gups"] > rows[1]["model_gups"], rows
    assert os.path.exists(tmp_path / "whatif.png")


@needs_build
@pytest.mark.skipif(not os.path.exists(os.path.join(BUILD, "sim", "gups-sim")), reason="needs gups-sim")
def test_a_simulated_point_with_its_simulated_ends(tmp_path):
    done = study(tmp_path, "--machine", "bgp", "--field", "costs_cycles.update_streamed", "--values", "x1",
                 "--nodes", "8", "--mechanisms", "wire,dma", "--updates-per-node", "4096", "--ends")
    assert done.returncode == 0, done.stderr
    [row] = json.load(open(tmp_path / "whatif.json"))["rows"]
    # The varied input is the study's: the ends move the others. At this short length the runs do not settle, so
    # the simulated ends need not bracket the steady state: each is judged against the interval, and marked.
    assert row["model_low"] < row["model_gups"] < row["model_high"], row
    assert row["sim_low_gups"] > 0 and row["sim_high_gups"] > 0 and row["sim_low_gups"] != row["sim_high_gups"], row
    verdicts = [study_tools.against_interval(row[key], row) for key in ("sim_low_gups", "sim_high_gups")]
    assert f"low {verdicts[0]}; high {verdicts[1]}" in (tmp_path / "whatif.md").read_text()
    assert sorted(os.listdir(tmp_path / "raw")) == ["model-bgp-update_streamed-90-8.json",
                                                    "sim-bgp-update_streamed-90-8-high.json",
                                                    "sim-bgp-update_streamed-90-8-low.json",
                                                    "sim-bgp-update_streamed-90-8.json"]
    text = (tmp_path / "whatif.md").read_text()
    assert "simulated ends" in text and "ends vs interval" in text
    assert study_tools.ends_cell(row) in text and row["sim_low_settled"] in (True, False)
    marked = study_tools.ends_cell({**row, "sim_low_settled": False, "sim_high_settled": True})
    assert marked.count(study_tools.UNSETTLED_MARK) == 1 and marked.index(study_tools.UNSETTLED_MARK) < marked.index("..")


@needs_build
@pytest.mark.skipif(not os.path.exists(os.path.join(BUILD, "sim", "gups-sim")), reason="needs gups-sim")
def test_the_chosen_placement_is_modelled_and_simulated_as_the_planner_chose_it(tmp_path):
    # Blue Gene/P at 64 nodes: the planner weighs every placement; the row models and simulates the one it chose,
    # with its processes (or groups of cores) a node and role plan, and the simulation sits on that model.
    done = study(tmp_path, "--machine", "bgp", "--field", "machine", "--values", "bgp", "--nodes", "64",
                 "--algorithm", "chosen", "--mechanisms", "wire,dma")
    assert done.returncode == 0, done.stderr
    row = json.load(open(tmp_path / "whatif.json"))["rows"][0]
    table = row["mapping_modes"]
    chosen = table["modes"][table["chosen_index"]]
    placement = row["placement"]
    assert (placement["algorithm"], placement["processes_per_node"]) == (chosen["algorithm"],
                                                                          chosen["processes_per_node"])
    assert placement["mode"] == (chosen["mode"] if chosen["mode"] in (1, 8) else 1)
    if placement["mode"] == chosen["mode"]:
        assert row["model_gups"] == pytest.approx(chosen["gups"], rel=1e-6)
    simulated = json.load(open(tmp_path / "raw" / "sim-bgp-64.json"))
    assert simulated["passed"] and simulated["simulation"]["processes_per_node"] == chosen["processes_per_node"]
    assert row["sim_over_model"] == pytest.approx(study_tools.simulated_gups(row) / row["model_gups"])
    text = (tmp_path / "whatif.md").read_text()
    assert "placement (mode planner's)" in text and f"{placement['algorithm']}, " in text


def test_a_hypercube_row_above_its_lockstep_model_says_why_and_its_bound():
    from analysis.whatif import study as whatif_study
    above = {"machine": "k", "nodes": 3072, "model_gups": 143.0, "sim_steady_gups": None, "sim_gups": 156.0,
             "overlapped_network_gups": 311.0}
    below = dict(above, nodes=1536, sim_gups=92.3)
    lines = whatif_study.above_lockstep_lines([above, below])
    assert len(lines) == 4 and "k, 3072 nodes: simulated 156 against the model's 143" in lines[3]
    assert "none can pass 311 GUPS" in lines[3]
    assert whatif_study.above_lockstep_lines([below]) == []
