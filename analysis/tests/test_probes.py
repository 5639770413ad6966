"""python3 -m analysis probes: its rows and figures from the probes' JSON, its tables, bad input; a tiny simulated
study when the build is there (ctest mpi.exchange_probes and sim.exchange_probes run the programs themselves)."""
import json
import os

import pytest

from analysis import cli, probes
from analysis.run import launcher

BUILD = os.environ.get("TORUS_GUPS_BUILD", os.path.join(os.path.dirname(__file__), "..", "..", "build"))


def document(probe, sizes, processes=64, shape="4x4x4", links=True):
    doc = {"probe": "exchange", "algorithm": probe, "processes": processes, "passed": True,
           "sizes": [{"bytes": b, "repeats": 4, "seconds": 1e-3, "aggregate_bytes_per_s": agg,
                      "per_pair_bytes_per_s": pair, "us_per_message": 1.0} for b, agg, pair in sizes]}
    if links:
        doc["simulation"] = {"machine": "bgp", "shape": shape, "nodes": processes, "ranks_per_node": 1,
                             "network_level": "queue"}
        doc["links"] = {"model_bisection_bytes_per_s": 10e9, "probe_cut_bytes_per_s": 20e9,
                        "all_to_all_peak_bytes_per_s_per_node": 1e9, "link_bytes_per_s": 4.25e8}
    return doc


def task(probe, source="sim", level="queue"):
    return launcher.Task(f"{source}-{probe}", probe, ["true"], "/nonexistent", "probes",
                         {"source": source, "probe": probe, "size": "64", "level": level})


def test_an_exchange_is_read_one_way_against_the_cuts():
    rows = probes.rows_of(task("exchange"), document("exchange", [(1024, 8e9, 2.5e8), (8, 1e8, 3e6)]))
    assert [r["bytes"] for r in rows] == [1024, 8]
    first = rows[0]
    # Both ways at once: half the aggregate crosses each way.
    assert first["of_model_bisection"] == pytest.approx(0.4)
    assert first["of_probe_cut"] == pytest.approx(0.2)
    assert first["aggregate_mb_per_s"] == pytest.approx(8000)
    assert not first["failed"] and first["shape"] == "4x4x4"


def test_the_all_to_all_is_read_per_node_against_its_peak():
    rows = probes.rows_of(task("all-to-all"), document("all-to-all", [(4096, 3.2e10, 5e8)]))
    assert rows[0]["all_to_all_efficiency"] == pytest.approx(0.5)


def test_a_host_run_has_no_link_figures_and_a_failed_one_one_row():
    rows = probes.rows_of(task("bisection", "measured", ""), document("bisection", [(1 << 20, 5e9, 5e9)], 2,
                                                                      links=False))
    assert rows[0]["machine"] == "this host" and "of_model_bisection" not in rows[0]
    assert probes.rows_of(task("bisection"), None) == [{"source": "sim", "probe": "bisection", "level": "queue",
                                                        "failed": True}]


def test_tables_take_each_result_s_largest_size():
    rows = probes.rows_of(task("bisection"), document("bisection", [(4096, 1e9, 3e7), (1 << 18, 9e9, 2.8e8)]))
    rows += probes.rows_of(task("all-to-all"), document("all-to-all", [(8, 1e8, 1e6), (4096, 3.2e10, 5e8)]))
    largest = probes.largest_rows(rows, "bisection")
    assert len(largest) == 1 and largest[0]["bytes"] == 1 << 18
    args = type("Args", (), {"ranks": 2, "machine": "bgp", "algorithm": "multicore",
                             "argv": ["probes", "--out", "x"], "out": "x"})()
    text = probes.markdown(args, rows, [], 1.0)
    assert "| bgp 4x4x4 queue | 64 | 256 KiB | 9000 | 280 | 45.0% | 90.0% |" in text
    assert "| 4x4x4 | queue | 4 KiB | 500 | 50.0% |" in text
    assert "python3 -m analysis probes --out x" in text


@pytest.mark.parametrize("option,value,message", [
    ("--probes", "gather", "--probes: gather"),
    ("--sources", "model", "--sources: model"),
    ("--nodes", "1", "--nodes: each must be 2 or more"),
])
def test_bad_input_is_one_error_line(tmp_path, capsys, option, value, message):
    if option == "--probes" and not os.path.exists(os.path.join(BUILD, "sim", "gups-topology")):
        pytest.skip("the probes' names come from the build's gups-topology --variants")
    build = BUILD if option == "--probes" else str(tmp_path)
    assert cli.main(["probes", "--out", str(tmp_path), "--build", build, option, value]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("analysis: error:") and message in err[0]


needs_build = pytest.mark.skipif(not os.path.exists(os.path.join(BUILD, "sim", "gups-sim")),
                                 reason="needs the build (gups-sim)")


@needs_build
def test_a_tiny_simulated_study_reads_its_bisection_into_the_model(tmp_path, capsys):
    assert cli.main(["probes", "--out", str(tmp_path), "--build", BUILD, "--sources", "sim", "--shapes", "2x2x4",
                     "--levels", "queue,packet", "--probes", "bisection,all-to-all",
                     "--sim-bisection-sizes", "64K"]) == 0
    with open(tmp_path / "probes.json", encoding="utf-8") as f:
        study = json.load(f)
    bisection = {r["level"]: r for r in study["rows"] if r["probe"] == "bisection"}
    # The pairs are half-way round the last ring: queue routes them all one way (half the cut), packet both.
    assert bisection["queue"]["of_probe_cut"] == pytest.approx(0.5, abs=0.01)
    assert bisection["packet"]["of_probe_cut"] == pytest.approx(1.0, abs=0.01)
    bounds = {b["level"]: b for b in study["model_bounds"]}
    assert bounds["packet"]["network_gups_measured_b"] == pytest.approx(
        2 * bounds["queue"]["network_gups_measured_b"], rel=0.01)
    for name in ("probes.md", "probes.csv", "probes-all-to-all-efficiency.png", "probes-all-to-all.png"):
        assert (tmp_path / name).exists(), name


@needs_build
def test_an_unknown_level_is_named(tmp_path, capsys):
    assert cli.main(["probes", "--out", str(tmp_path), "--build", BUILD, "--levels", "queue,wormhole"]) == 2
    assert "--levels: unknown network level 'wormhole'" in capsys.readouterr().err
