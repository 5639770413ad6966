"""Every subcommand's --help, and its refusal of a bad option, on a python3 without matplotlib: only drawing a plot
needs it."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Runs python3 -m analysis with matplotlib made unimportable (None in sys.modules refuses the import).
WITHOUT_MATPLOTLIB = ("import runpy, sys; sys.modules['matplotlib'] = None; sys.argv = ['analysis'] + sys.argv[1:]; "
                      "runpy.run_module('analysis', run_name='__main__')")
SUBCOMMANDS = ("main", "study", "sweep", "report", "table2", "explain", "apexmap", "probes")


def analysis(*arguments):
    return subprocess.run([sys.executable, "-c", WITHOUT_MATPLOTLIB, *arguments], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def test_matplotlib_is_really_refused():
    done = subprocess.run([sys.executable, "-c", "import sys; sys.modules['matplotlib'] = None; import "
                           "analysis.report.plot as p; p.plt.figure()"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode != 0 and "matplotlib" in done.stderr


@pytest.mark.parametrize("subcommand", SUBCOMMANDS)
def test_help_needs_no_matplotlib(subcommand):
    done = analysis(subcommand, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: python3 -m analysis {subcommand}"), done.stdout


@pytest.mark.parametrize("subcommand", SUBCOMMANDS)
def test_a_bad_option_is_one_line_and_exit_2_without_matplotlib(subcommand):
    done = analysis(subcommand, "--no-such-option")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("analysis: error: ") and len(done.stderr.strip().splitlines()) == 1, done.stderr
