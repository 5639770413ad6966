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


def test_the_corner_is_set_beside_randomaccess():
    rows = [{"algorithm": "apex-map-mpi", "alpha": 1.0, "block_words": 1, "failed": False, "ns_per_access": 500.0},
            {"algorithm": "apex-map-rma", "alpha": 1.0, "block_words": 1, "failed": False, "ns_per_access": 100.0},
            {"algorithm": "apex-map-rma", "alpha": 0.5, "block_words": 1, "failed": False, "ns_per_access": 1.0}]
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
])
def test_bad_input_is_one_error_line(tmp_path, capsys, option, value, message):
    assert cli.main(["apexmap", "--out", str(tmp_path), option, value]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("analysis: error:") and message in err[0]
