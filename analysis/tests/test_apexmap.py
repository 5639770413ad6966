"""python3 -m analysis apexmap: its choices, its corner comparison, bad input; a tiny measured surface when the
build is there (ctest analysis.apexmap runs one through mpirun)."""
import argparse
import json
import os
import subprocess
import sys

import pytest

from analysis import apexmap, cli

BUILD = os.environ.get("TORUS_GUPS_BUILD", os.path.join(os.path.dirname(__file__), "..", "..", "build"))
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_indices_read_about_the_same_words_at_every_block_size():
    assert apexmap.indices_for(1, 0) == 65536
    assert apexmap.indices_for(1024, 0) == apexmap.WORDS_PER_REPETITION // 1024
    assert apexmap.indices_for(1 << 20, 0) == 64  # never fewer
    assert apexmap.indices_for(16, 500) == 500  # asked for


def test_simulated_points_read_fewer_words():
    assert apexmap.indices_for(1, 0, apexmap.SIM_WORDS_PER_REPETITION, apexmap.SIM_INDEX_RANGE) == 1024
    assert apexmap.indices_for(256, 0, apexmap.SIM_WORDS_PER_REPETITION, apexmap.SIM_INDEX_RANGE) == 256
    assert apexmap.indices_for(1 << 16, 0, apexmap.SIM_WORDS_PER_REPETITION, apexmap.SIM_INDEX_RANGE) == 64


def point(source, alpha, block, ns, algorithm="apex-map-mpi", failed=False, **more):
    return {"source": source, "algorithm": algorithm, "alpha": alpha, "block_words": block, "failed": failed,
            "ns_per_access": ns, "mb_per_second_per_process": 8e3 * block / ns, **more}


def test_key_figures_name_the_corners_and_where_l_starts_to_matter():
    rows = [point("sim", 1.0, 1, 1000), point("sim", 1.0, 16, 1500), point("sim", 1.0, 256, 2500),
            point("sim", 0.01, 1, 100), point("sim", 0.01, 16, 150), point("sim", 0.01, 256, 190),
            point("sim", 0.01, 4096, 1, failed=True), point("measured", 1.0, 1, 1)]
    figures = apexmap.key_figures(rows, "sim", "apex-map-mpi", [0.01, 1.0], [1, 16, 256])
    assert (figures["worst"]["alpha"], figures["worst"]["block_words"]) == (1.0, 1)
    assert (figures["best"]["alpha"], figures["best"]["block_words"]) == (0.01, 256)
    # 2,500 ns is at least twice 1,000 first at L 256; at alpha 0.01 no L doubles the time.
    assert figures["l_matters"] == {1.0: 256, 0.01: None}
    assert apexmap.key_figures(rows, "model", "apex-map-mpi", [1.0], [1]) is None


def test_alphas_that_share_where_l_matters_are_named_together():
    text = apexmap.l_matters_text({0.001: 64, 0.01: 64, 0.1: 64, 0.5: 256, 1.0: None}, 16384)
    assert text == "L 64 (alpha 0.001 to 0.1), L 256 (alpha 0.5), L > 16384 (alpha 1)"


def test_the_models_error_is_against_the_simulated_point():
    rows = [point("sim", 1.0, 1, 1000), point("model", 1.0, 1, 800, binds="core"),
            point("sim", 1.0, 16, 1000, failed=True), point("model", 1.0, 16, 900, binds="core"),
            point("measured", 1.0, 1, 10)]
    errors = apexmap.model_errors(rows, ["apex-map-mpi"])
    assert len(errors) == 1
    assert errors[0]["error"] == pytest.approx(-0.2) and errors[0]["binds"] == "core"


def test_a_run_against_another_is_a_ratio_per_shared_point():
    mine = [point("sim", 1.0, 1, 1000), point("sim", 1.0, 16, 1000), point("sim", 0.5, 1, 10, failed=True)]
    theirs = [point("sim", 1.0, 1, 2000), point("measured", 1.0, 16, 10), point("sim", 0.5, 1, 10)]
    ratios = apexmap.against_ratios(mine, theirs, ["apex-map-mpi"])
    assert ratios == [{"source": "sim", "algorithm": "apex-map-mpi", "alpha": 1.0, "block_words": 1,
                       "ratio": pytest.approx(2.0)}]
    assert apexmap.describe({"sources": ["sim"], "machine": "bgp", "nodes": 64, "network": "flow"}) == \
        "bgp simulated on 64 nodes, network level flow"


def test_the_corner_is_set_beside_randomaccess():
    rows = [point("measured", 1.0, 1, 500.0), point("measured", 1.0, 1, 100.0, "apex-map-rma"),
            point("measured", 0.5, 1, 1.0, "apex-map-rma"), point("sim", 1.0, 1, 1.0, "apex-map-rma")]
    comparison = apexmap.corner_comparison(rows, {"gups": 0.05}, 2)
    assert comparison["apex-map-mpi_giga_accesses_per_second"] == pytest.approx(2 / 500.0)
    assert comparison["apex-map-rma_giga_accesses_per_second"] == pytest.approx(0.02)
    assert comparison["randomaccess_gups"] == 0.05
    assert apexmap.corner_comparison(rows, None, 2) is None


@pytest.mark.parametrize("option,value,message", [
    ("--alphas", "0,1", "each must be above 0 and at most 1"),
    ("--alphas", "1.5", "each must be above 0 and at most 1"),
    ("--alphas", "x", "not a comma list"),
    ("--blocks", "0,4", "--blocks need 1 or more words"),
    ("--algorithms", "apex-map-shmem", "known: apex-map-mpi, apex-map-rma"),
    ("--ranks", "4096", "this host gives"),
    ("--sources", "measured,guess", "known: measured, sim, model"),
    ("--nodes", "0", "--nodes must be at least 1"),
    ("--against", "/nonexistent", "cannot read its apexmap.json"),
])
def test_bad_input_is_one_error_line(tmp_path, capsys, option, value, message):
    assert cli.main(["apexmap", "--out", str(tmp_path), option, value]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("analysis: error:") and message in err[0]


needs_build = pytest.mark.skipif(not os.path.exists(os.path.join(BUILD, "models", "apex-map-model")),
                                 reason="needs the build (apex-map-model)")


@needs_build
def test_a_modelled_surface_is_written_with_its_figures(tmp_path, capsys):
    assert cli.main(["apexmap", "--out", str(tmp_path), "--build", BUILD, "--sources", "model", "--nodes", "8",
                     "--alphas", "0.01,1", "--blocks", "1,4096"]) == 0
    with open(tmp_path / "apexmap.json", encoding="utf-8") as f:
        document = json.load(f)
    rows = document["rows"]
    assert len(rows) == 8 and {r["source"] for r in rows} == {"model"}
    corner = next(r for r in rows if (r["algorithm"], r["alpha"], r["block_words"]) == ("apex-map-mpi", 1.0, 1))
    assert corner["binds"] == "core" and corner["remote_fraction"] == pytest.approx(7 / 8)
    assert document["key_figures"]["model"]["apex-map-rma"]["worst"]["block_words"] == 1
    assert "## Modelled (apex-map-model)" in (tmp_path / "apexmap.md").read_text()
    assert (tmp_path / "apexmap-surfaces-model.png").exists() and (tmp_path / "apexmap-ratio-model.png").exists()


@needs_build
def test_a_machine_the_model_cannot_charge_is_one_error_line(tmp_path, capsys):
    assert cli.main(["apexmap", "--out", str(tmp_path), "--build", BUILD, "--sources", "model", "--machine", "bgl",
                     "--nodes", "8"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "data_access_cycles" in err[0]
