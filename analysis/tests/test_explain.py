"""explain's parts: the measured column, the inversion, the laws and the ranking, and its bad input."""
import math
import os
import subprocess
import sys

import pytest

from analysis.explain import laws as explain_laws, mechanisms as explain_mechanisms, model as explain_model
from analysis.explain.measured import read_measured

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("TORUS_GUPS_BUILD", os.path.join(ROOT, "build"))
needs_model = pytest.mark.skipif(not os.path.exists(os.path.join(BUILD, "models", "gups-model")),
                                 reason="needs the build's gups-model (TORUS_GUPS_BUILD)")


def column(tmp_path, text):
    path = tmp_path / "measured.csv"
    path.write_text(text)
    return str(path)


def test_a_point_allows_its_spread_and_its_printed_precision(tmp_path):
    points = read_measured(column(tmp_path, "nodes,gups,spread\n# the paper's\n128,0.21\n512,2.940,0.1\n"))
    assert list(points) == [128, 512]
    assert points[128].tolerance(0.01) == pytest.approx(0.005 / 0.21)  # 0.21: 0.205 to 0.215
    assert points[512].tolerance(0.01) == pytest.approx(0.1 / 2.94)
    assert read_measured(column(tmp_path, "nodes,gups\n64,0.380123\n"))[64].tolerance(0.01) == 0.01


@pytest.mark.parametrize("text, says", [
    ("nodes,rate\n64,1\n", "no 'gups' column"),
    ("nodes,gups\n64,-0.5\n", "positive"),
    ("nodes,gups\n64,0\n", "positive"),
    ("nodes,gups\n64,nan\n", "positive"),
    ("nodes,gups\n64,fast\n", "must be a number"),
    ("nodes,gups\n6.5,1\n", "whole number"),
    ("nodes,gups\n0,1\n", "at least 1"),
    ("nodes,gups\n64,1\n64,2\n", "64 nodes twice"),
    ("nodes,gups,spread\n64,1,-1\n", "zero or more"),
    ("nodes,gups\n", "no points"),
    ("", "no header"),
])
def test_bad_columns_are_named_with_their_line(tmp_path, text, says):
    with pytest.raises(ValueError, match=says):
        read_measured(column(tmp_path, text))


def cpu_and_network(cycles_at, network):
    """A size whose one core takes cycles_at(value) per update, 64 nodes at 1 GHz, capped by the network."""
    return lambda value: min(64 / cycles_at(value), network)


def test_inversion_finds_the_value_its_range_and_what_it_cannot_reach():
    gups = cpu_and_network(lambda v: 100 + v, network=0.5)  # 0.64 GUPS at v = 0, the network caps at 0.5
    needed = explain_model.invert(gups, 0.4, 0.01, 10.0, False, 0.0, math.inf)
    assert needed.value == pytest.approx(60)
    assert gups(needed.low) == pytest.approx(0.4 * 1.01) and gups(needed.high) == pytest.approx(0.4 * 0.99)
    # The network caps the point: every cost up to where the CPU falls under it gives 0.5.
    plateau = explain_model.invert(gups, 0.5, 0.01, 10.0, False, 0.0, math.inf)
    assert plateau.value == 10.0 and plateau.low == 0.0 and plateau.high == pytest.approx(64 / 0.495 - 100)
    assert not explain_model.invert(gups, 0.7, 0.01, 10.0, False, 0.0, math.inf).reached
    # A capacity: GUPS grows with it up to the CPU bound.
    link = explain_model.Response(64, 64.0, "factor", [], network_gups=2.0, cpu_gups=0.8)
    half = explain_model.needed_by_model(link, 0.5, 0.01, 1.0)
    assert half.value == pytest.approx(0.25) and "25%" in half.reason
    free = explain_model.needed_by_model(link, 0.8, 0.01, 1.0)
    assert free.value == 1.0 and math.isinf(free.high) and "does not bind" in free.reason
    assert "CPU bound" in explain_model.needed_by_model(link, 0.9, 0.01, 1.0).reason


def points_made_by(value_of, nodes=(64, 128, 256, 512, 1024, 2048), tolerance=0.01):
    """Points of a one-core size whose cycles are 100 + value, measured with value_of(nodes) as the value."""
    points = []
    for n in nodes:
        gups_at = cpu_and_network(lambda v: 100 + v, math.inf)
        measured = gups_at(value_of(n))
        needed = explain_model.invert(gups_at, measured, tolerance, 40.0, False, 0.0, math.inf)
        points.append(explain_laws.Point(n, measured, tolerance, needed.value, needed.low, needed.high,
                                         hops=math.log2(n) / 3, bucket=1024 / math.log2(n), gups_at=gups_at))
    return points


@pytest.mark.parametrize("made, law, at", [
    # Within the tolerance of one value: a law with more parameters fits closer, but one value is enough.
    (lambda n: 40.0 + (0.5 if n > 256 else -0.5), "constant", {64: 40.0, 2048: 40.0}),
    (lambda n: 40.0 if n <= 256 else 80.0, "step above 256 nodes", {128: 40.0, 1024: 80.0}),
    (lambda n: 10.0 + 5 * math.log2(n), "linear in log2(nodes)", {64: 40.0, 2048: 65.0}),
    (lambda n: 40.0 + n / 64, "linear in nodes", {64: 41.0, 2048: 72.0}),
])
def test_the_simplest_law_that_gives_every_point_is_found(made, law, at):
    best = explain_laws.best_law(explain_laws.fit_laws(points_made_by(made), "cycles"))
    assert best.name == law and best.explains
    for n, value in at.items():
        assert best.values[n] == pytest.approx(value, rel=0.02)


def test_a_column_no_law_gives_is_not_explained():
    zigzag = points_made_by(lambda n: 40.0 if int(math.log2(n)) % 2 else 120.0)
    best = explain_laws.best_law(explain_laws.fit_laws(zigzag, "cycles", nominal=40.0))
    assert not best.explains and best.max_error > 0.1


def test_ranking_puts_explaining_mechanisms_first_and_the_smallest_change_before():
    def entry(name, parameters, explains, error, unreached=0, departures=4):
        law = explain_laws.Law("l", parameters, "", {}, {64: error}, explains, departures)
        return {"name": name, "law": law, "unreached": unreached}
    entries = [entry("unreached", 1, True, 0.0, unreached=2), entry("step", 3, True, 0.001),
               entry("constant", 1, True, 0.009), entry("near", 1, False, 0.02), entry("none", 1, False, 0.5),
               entry("step where it binds", 3, True, 0.005, departures=2)]
    entries.append({"name": "nothing", "law": None, "unreached": 6})
    ranked = [e["name"] for e in sorted(entries, key=explain_laws.ranking_key)]
    assert ranked == ["step where it binds", "constant", "step", "near", "none", "unreached", "nothing"]


def test_a_law_free_where_the_mechanism_does_not_bind_loses_to_one_that_keeps_the_machine_there():
    """Two sizes the machine's value gives over a whole range, two that need about 80: the step keeps 40 there;
    a line through the two needed values would fit too (the range allows it) but moves every size."""
    points = []
    for n, value, low, high in ((64, 40.0, 0.0, math.inf), (128, 40.0, 0.0, math.inf), (256, 80.0, 79.0, 81.0),
                                (512, 80.5, 79.5, 81.5)):
        points.append(explain_laws.Point(n, 1.0, 0.01, value, low, high, 1.0, 10.0,
                                         lambda v, lo=low, hi=high: 1.0 if lo <= v <= hi else 0.5))
    laws = explain_laws.fit_laws(points, "cycles", nominal=40.0)
    line = next(law for law in laws if law.name == "linear in log2(nodes)")
    best = explain_laws.best_law(laws)
    assert line.explains and line.departures == 4
    assert best.name.startswith("step above 128") and best.departures == 2 and best.values[64] == 40.0


def test_candidates_are_checked_against_the_algorithm():
    machine = {"name": "bgp", "cores_per_node": 4}
    assert "top3" in [m.name for m in explain_mechanisms.chosen("all", "multicore", machine)]
    assert "top0" not in [m.name for m in explain_mechanisms.chosen("all", "routed", machine)]
    with pytest.raises(ValueError, match="unknown mechanism 'top9'"):
        explain_mechanisms.chosen("top3,top9", "multicore", machine)
    with pytest.raises(ValueError, match="no core 3 role"):
        explain_mechanisms.chosen("top3", "routed", machine)


def test_a_mechanism_sets_its_fields_and_leaves_the_machine_alone():
    machine = {"costs_cycles": {"routing_hop": 162, "message_overhead": 152, "update": 90, "update_streamed": 90},
               "torus": {"link_bandwidth_bytes_per_s": 425e6}}
    hop = explain_mechanisms.MECHANISMS["routing_hop"].applied(machine, 200)
    assert hop["costs_cycles"]["routing_hop"] == 200 and hop["costs_cycles"]["routing_hop_without_calls"] == 190
    update = explain_mechanisms.MECHANISMS["update"].applied(machine, 100)
    assert update["costs_cycles"]["update_streamed"] == 100
    links = explain_mechanisms.MECHANISMS["link_bandwidth"].applied(machine, 0.5)
    assert links["torus"]["link_bandwidth_bytes_per_s"] == 212.5e6
    assert machine["costs_cycles"]["routing_hop"] == 162 and "sources" not in machine


@needs_model
@pytest.mark.parametrize("csv_text, mechanisms, says, extra", [
    ("nodes,rate\n64,1\n", "all", "no 'gups' column", ()),
    ("nodes,gups\n64,-1\n", "all", "positive", ()),
    ("nodes,gups\n64,0.38\n", "top3,tu", "unknown mechanism 'tu'", ()),
    ("nodes,gups\n3000000,1\n", "all", "cannot be mapped", ()),
    ("nodes,gups\n64,0.38\n", "all", "--updates-per-node", ("--updates-per-node", "-1")),
])
def test_bad_input_ends_with_one_error_line_and_status_2(tmp_path, csv_text, mechanisms, says, extra):
    done = subprocess.run([sys.executable, "-m", "analysis", "explain", "--measured", column(tmp_path, csv_text),
                           "--mechanisms", mechanisms, "--out", str(tmp_path / "out"), "--no-simulation",
                           "--build", BUILD, *extra], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("analysis: error:") and says in lines[0], done.stderr


@needs_model
def test_the_model_inverted_gives_the_measured_point_back(tmp_path):
    """Against gups-model itself: top3's needed value, put in the machine, gives the point."""
    from analysis.run import programs
    machine = programs.load_machine("bgp", BUILD) if os.path.exists(os.path.join(BUILD, "topologies")) else None
    if machine is None:
        pytest.skip("needs gups-topology")
    model = os.path.join(BUILD, "models", "gups-model")
    top3 = explain_mechanisms.MECHANISMS["top3"]
    base = explain_model.model_rows(model, machine, "multicore", [64, 4096], "reference", "division")
    responses = explain_model.responses(model, machine, "multicore", base, "reference", "division", top3)
    for n, measured in ((64, 0.36), (4096, 20.39)):
        needed = explain_model.needed_by_model(responses[n], measured, 0.001, top3.nominal(machine))
        rows = explain_model.model_rows(model, top3.applied(machine, needed.value), "multicore", [n], "reference",
                                        "division")
        assert rows[n]["gups"] == pytest.approx(measured, rel=1e-6)


def test_simulation_steps_stay_bounded_and_stop_where_nothing_moves():
    from analysis import explain
    latency = explain_mechanisms.MECHANISMS["link_latency"]
    # GUPS barely moves with the latency: no step (it would be noise), not a leap to 1e-39 s.
    assert explain.secant([(1e-7, 0.2033), (2.5e-8, 0.20331)], 0.21, latency, True) is None
    far = explain.secant([(1e-7, 0.20), (2e-7, 0.19)], 0.5, latency, True)
    assert far == pytest.approx(1e-7 / 16)  # the target lies far beyond: one factor of 16 towards it
    # Once tries lie on both sides of the target, the step is taken between them.
    between = explain.secant([(150, 0.0193), (600, 0.0188), (9600, 0.0121)], 0.0173, latency, True)
    assert 600 < between < 9600
    # A cost: 1/GUPS is a straight line in it, so one step from two tries lands on the target.
    top3 = explain_mechanisms.MECHANISMS["top3"]
    gups = lambda v: 64 / (100 + v)  # noqa: E731
    step = explain.secant([(40, gups(40)), (60, gups(60))], gups(52), top3, False)
    assert step == pytest.approx(52)
    # The model's guess allows for the simulation's offset from the model at the machine's value.
    response = explain_model.Response(64, 64.0, "cost", [(100, 1.0)], math.inf, 0.457)
    guess = explain.model_guess(response, 40.0, 0.9 * response.gups(40.0), 0.9 * response.gups(52.0))
    assert guess == pytest.approx(52)


def test_a_simulation_that_did_not_settle_is_marked_in_the_evidence(tmp_path):
    from analysis.explain import verdict
    documents = [{"steady_verdict": {"settled": True}}, {"steady_verdict": {"settled": False}}, {"steady_gups": 1.0}]
    assert [verdict.steady_settled(d) for d in documents] == [True, False, None]
    result = tmp_path / "result.json"
    result.write_text('{"steady_gups": 1.0, "steady_verdict": {"settled": false}}')
    assert verdict.simulated(["true"], str(result))[1]["steady_verdict"]["settled"] is False
    assert verdict.simulated(["false"], str(result))[1] is None  # a failed run gives no document
    assert verdict.simulated(["true"], str(tmp_path / "missing.json"))[1] is None
    document = {"command": "explain", "algorithm": "multicore", "machine": "bgp", "bucket_rule": "reference",
                "measured_file": "m.csv", "tolerance": 0.01, "verdict": "top3 explains the column",
                "mechanisms": [], "wall_seconds": 5.0,
                "measured": [{"nodes": 64, "gups": 0.34, "tolerance": 0.01, "model_gups": 0.38, "model_binds": "core 3",
                              "simulated_gups": 0.37, "simulated": True, "simulated_settled": False},
                             {"nodes": 128, "gups": 0.68, "tolerance": 0.01, "model_gups": 0.76, "model_binds": "core 3",
                              "simulated_gups": None, "simulated": False, "simulated_settled": None}],
                "simulation": {"runs": 3, "not_settled_runs": 2, "not_simulated_from": 128}}
    text = verdict.markdown(document)
    assert "| 64 | 0.34 | 1.0% | 0.38 | - | core 3 | 0.37 (not settled) |" in text
    assert "not simulated (model only)" in text
    assert "3 simulations (2 of them not settled: their steady states may be off by more than 0.5%)" in text


def test_the_evidence_names_the_binding_core_as_gups_model_does():
    from analysis.explain import verdict
    assert verdict.binding_name({"binds": "cpu", "binding_resource": "core 3: receive Z, update the table"}) == "core 3"
    assert verdict.binding_name({"binds": "network", "binding_resource": "network: dimension 0 links"}) == "network"
    assert verdict.binding_name({"binds": "cpu"}) == "cpu"


needs_sim = pytest.mark.skipif(not os.path.exists(os.path.join(BUILD, "sim", "gups-sim")),
                               reason="needs the build's gups-sim (TORUS_GUPS_BUILD)")
# Stands in for gups-sim: refuses every machine explain set link_bandwidth in, runs the real one otherwise.
FAILING_SIM = """#!/usr/bin/env python3
import json, os, sys
machine = sys.argv[sys.argv.index("--machine") + 1]
if "explain.link_bandwidth" in json.load(open(machine)).get("sources", {}):
    sys.exit("gups-sim: error: a failure injected for link_bandwidth")
os.execv(REAL, [REAL] + sys.argv[1:])
"""


def build_with_failing_sim(tmp_path):
    """A build folder that is the real one but for a gups-sim that fails for one candidate."""
    fake = tmp_path / "build"
    fake.mkdir()
    for entry in os.listdir(BUILD):
        if entry != "sim":
            os.symlink(os.path.join(BUILD, entry), fake / entry)
    (fake / "sim").mkdir()
    for entry in os.listdir(os.path.join(BUILD, "sim")):
        if entry != "gups-sim":
            os.symlink(os.path.join(BUILD, "sim", entry), fake / "sim" / entry)
    wrapper = fake / "sim" / "gups-sim"
    wrapper.write_text(FAILING_SIM.replace("REAL", repr(os.path.join(BUILD, "sim", "gups-sim"))))
    wrapper.chmod(0o755)
    return str(fake)


@needs_sim
def test_a_failed_simulation_is_reported_and_never_ranked_as_evidence(tmp_path):
    import json
    build = build_with_failing_sim(tmp_path)
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "analysis", "explain", "--machine", "bgp", "--algorithm", "multicore",
                           "--measured", column(tmp_path, "nodes,gups\n64,0.30\n"), "--mechanisms",
                           "link_bandwidth,top3", "--updates-per-node", "2048", "--sim-steps", "2", "--network", "flow",
                           "--out", str(out), "--build", build], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    document = json.loads((out / "explain.json").read_text())
    failures = document["simulation"]["failures"]
    assert failures and all(f["candidate"] == "link_bandwidth" and f["nodes"] == 64 for f in failures)
    assert "a failure injected for link_bandwidth" in failures[0]["reason"]
    # The verdict's first words, the printed summary, the ranking and the report's table all say it.
    assert document["verdict"].startswith(f"{len(failures)} of {document['simulation']['runs']} simulations FAILED "
                                          "(link_bandwidth")
    assert f"simulations ({len(failures)} failed)" in done.stdout
    ranked = [m["mechanism"] for m in document["mechanisms"]]
    assert ranked.index("top3") < ranked.index("link_bandwidth")
    bandwidth = next(m for m in document["mechanisms"] if m["mechanism"] == "link_bandwidth")
    assert not bandwidth["explains"] and "of its simulations failed, at 64 nodes" in bandwidth["growth"]
    text = (out / "explain.md").read_text()
    assert "## Failed simulations" in text and "a failure injected for link_bandwidth" in text


def test_a_varied_machine_keeps_the_references_its_runs_ask_for():
    machine = {"name": "bgp", "cores_per_node": 4, "clock_hz": 8.5e8,
               "torus": {"link_bandwidth_bytes_per_s": 425e6, "link_latency_s": 1e-7},
               "references_of": {"name": "bgp", "cores_per_node": 4, "clock_hz": 8.5e8,
                                 "link_bandwidth_bytes_per_s": 425e6, "link_latency_s": 1e-7},
               "reference_bucket_sizes": {"256": 25}}
    half = explain_mechanisms.MECHANISMS["link_bandwidth"].applied(machine, 0.5)
    assert half["references_of"]["link_bandwidth_bytes_per_s"] == 212.5e6 == half["torus"]["link_bandwidth_bytes_per_s"]
    slow = explain_mechanisms.MECHANISMS["link_latency"].applied(machine, 2e-7)
    assert slow["references_of"]["link_latency_s"] == 2e-7 and slow["reference_bucket_sizes"] == {"256": 25}
    assert machine["references_of"]["link_bandwidth_bytes_per_s"] == 425e6  # the machine as given is left alone


def test_a_partition_cell_gives_the_nearest_tried_when_none_is_within_tolerance():
    from analysis.explain import verdict
    point = {"giving": [], "measured": 1.0, "tolerance": 0.01,
             "simulated": [{"value": "4x4x4 ttt", "steady_gups": 0.9}, {"value": "4x4x4 mmm", "steady_gups": 0.95}]}
    assert verdict.needed_cell(point) == "none of 2 tried within 1.0%: nearest 4x4x4 mmm (0.95 GUPS, -5.0%)"
    assert verdict.needed_cell(dict(point, simulated=[])) == "no partition simulated"


def test_a_column_inside_the_machines_ranges_needs_no_mechanism():
    from analysis.explain import ranges
    base = {n: {"interval": {"low": {"gups": low}, "high": {"gups": high}, "inputs": [
        {"field": "costs_cycles.update_streamed", "share": 0.8}, {"field": "costs_cycles.core_overhead", "share": 0.2},
        {"field": "torus.link_latency_s", "share": 0.0}]}} for n, low, high in ((64, 0.36, 0.40), (128, 0.72, 0.80))}
    inside = ranges.against_ranges({n: read_measured_point(n, g) for n, g in ((64, 0.37), (128, 0.79))}, base, 0.01)
    assert all(v["inside"] for v in inside.values())
    assert ranges.ranges_text(inside, [64, 128]).startswith(
        "no mechanism needed: within the ranges of update_streamed and core_overhead")
    # 0.69 is 4.2% under 0.72, past the 1% asked; 0.404 is within it of 0.40.
    mixed = ranges.against_ranges({n: read_measured_point(n, g) for n, g in ((64, 0.404), (128, 0.69))}, base, 0.01)
    assert mixed[64]["inside"] and not mixed[128]["inside"]
    assert ranges.ranges_text(mixed, [64, 128]) == (
        "outside the model's interval over the machine file's input ranges at 128 (below by 4.2%); within the "
        "ranges of update_streamed and core_overhead at 64")
    assert ranges.ranges_text({}, [64]) == ""


def read_measured_point(nodes, gups):
    from analysis.explain.measured import MeasuredPoint
    return MeasuredPoint(nodes, gups, 0.0, 0.5 * 10 ** -(len(str(gups)) - 2))


@needs_model
def test_explain_names_a_one_sided_departure_and_concludes_nothing_from_a_scatter_or_the_noise(tmp_path):
    import json
    def run(text, *extra):
        done = subprocess.run(
            [sys.executable, "-m", "analysis", "explain", "--machine", "bgp", "--algorithm", "multicore", "--measured",
             column(tmp_path, text), "--no-simulation", "--out", str(tmp_path / "out"), "--build", BUILD, *extra],
            cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return json.loads((tmp_path / "out" / "explain.json").read_text())
    # The model gives 0.3807 and 0.757: both points 3% under it, inside the interval, all one way.
    below = run("nodes,gups\n64,0.37\n128,0.73\n")
    assert below["verdict"].startswith("a systematic offset: every point below the machine as given by 2.8% to 3.6%")
    assert "no mechanism needed" not in below["verdict"] and below["one_sided"] == "below"
    assert below["explained_by"][0] == "top3" and "update" in below["explained_by"]
    assert below["tie_rule"] and below["separation"]
    # One point 3% above, one 3% below: a scatter the machine's ranges allow, no mechanism searched.
    scatter = run("nodes,gups\n64,0.392\n128,0.735\n")
    assert scatter["verdict"].startswith("no mechanism needed: within the ranges of update_streamed")
    assert scatter["mechanisms"] == [] and not (tmp_path / "out" / "explain.png").exists()
    assert "## Ranking" not in (tmp_path / "out" / "explain.md").read_text()
    # The machine's own figures to within 0.5%: nothing measurable, no mechanism named even when searched.
    quiet = run("nodes,gups\n64,0.3810\n128,0.7560\n", "--search", "--mechanisms", "top3")
    assert "): nothing measurable: the column is the machine's within the noise" in quiet["verdict"]
    assert quiet["explained_by"] == [] and quiet["nothing_measurable"] and quiet["mechanisms"][0]["mechanism"] == "top3"
