"""The Table 2 study: a tiny run through gups-shared-table, its tables, and its refusals."""
import json
import os

import pytest

from analysis import cli
from analysis.paper import table2

BUILD = os.environ.get("TORUS_GUPS_BUILD", os.path.join(os.path.dirname(__file__), "..", "..", "build"))
BINARY = os.path.join(BUILD, "kernel", "gups-shared-table")


@pytest.mark.skipif(not os.path.exists(BINARY), reason="gups-shared-table is not built")
def test_a_tiny_study_writes_both_tables_and_the_plot(tmp_path, capsys):
    out = str(tmp_path)
    assert cli.main(["table2", "--out", out, "--build", BUILD, "--log2-table", "12", "--updates-per-word", "1,2",
                     "--error-runs", "2", "--rate-runs", "1", "--threads", "2"]) == 0
    document = json.load(open(os.path.join(out, "table2.json")))
    assert [r["updates"] for r in document["errors"]] == [4096, 8192]
    assert all(r["runs"] == 2 and r["threads"] == 2 for r in document["errors"])
    rates = {r["case"]: r for r in document["rates"]}
    assert list(rates) == ["serial", "shared", "1 lock", "16 locks", "32 locks", "atomic"]
    assert rates["serial"]["relative"] == 1 and rates["serial"]["threads"] == 1
    # Protected updates lose nothing; the paper's figures stand beside this host's.
    assert all(rates[c]["errors_max"] == 0 for c in ("serial", "1 lock", "16 locks", "32 locks", "atomic"))
    assert rates["shared"]["paper_relative"] == 2.58 and rates["atomic"]["paper_relative"] is None
    for name in ("table2.md", "table2.csv", "table2.png", "table2.svg"):
        assert os.path.getsize(os.path.join(out, name)) > 0
    printed = capsys.readouterr().out
    assert "| 16 locks | 2 |" in printed and "(a) Unprotected shared updates" in printed


def test_error_rows_compare_with_the_paper_on_its_table_size():
    runs = [{"errors": e, "gups": 0.1, "seconds": 1} for e in (40, 60)]
    rows = table2.error_rows([{"updates": 64 << 20, "words": 1 << 24, "threads": 2, "runs": runs}])
    assert rows[0]["mean_errors"] == 50
    assert rows[0]["error_rate_per_word"] == pytest.approx(50 / 2**24)
    assert rows[0]["std_over_mean"] == pytest.approx(14.142135 / 50, rel=1e-6)
    assert rows[0]["paper_error_rate"] == pytest.approx(3.46e-6) and rows[0]["paper_std_over_mean"] == 0.45
    other = table2.error_rows([{"updates": 64 << 20, "words": 1 << 20, "threads": 2, "runs": runs}])
    assert other[0]["paper_error_rate"] is None  # another table size: no paper figure to set beside it


@pytest.mark.parametrize("argv", [["--error-runs", "0"], ["--rate-runs", "0"], ["--log2-table", "41"],
                                  ["--threads", "-1"]])
def test_bad_options_are_refused(argv, capsys):
    assert cli.main(["table2", "--out", "/nonexistent/x", *argv]) == 2
    assert "analysis: error:" in capsys.readouterr().err
