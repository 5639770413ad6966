"""The main job's pieces: the wall budget of the Table 4 study and the sentences of the report's first screen."""
import argparse
import json

import pytest

from analysis import cli
from analysis.paper import headline, study


def table4_row(machine, algorithm, nodes, eq, steady=None, binds="core 3", paper=None, skipped=None):
    row = {"machine": machine, "algorithm": algorithm, "nodes": nodes, "shape": "4x4x4", "rule_bucket": 31,
           "paper_bucket": None, "eq_rule_gups": eq, "eq_paper_gups": None, "paper_bound_gups": paper,
           "model_binds": "cpu"}
    if steady is not None:
        row.update(sim_steady_gups=steady, sim_gups=0.9 * steady, sim_over_eq=steady / eq, binds=binds)
    if skipped:
        row["not_simulated"] = skipped
    return row


def test_budget_estimates_from_the_growth_of_each_series(monkeypatch):
    clock = iter([100.0, 100.0, 150.0, 150.0])
    monkeypatch.setattr(study.time, "monotonic", lambda: next(clock))
    budget = study.WallBudget(seconds=100, jobs=2, length=lambda n: 8192)
    assert budget.estimate([("bgp", "multicore", 64)]) == 0  # nothing to go by: the first size always runs
    budget.record(("bgp", "multicore", 64), 2.0)
    budget.record(("bgp", "multicore", 128), 6.0)
    budget.record(("bgp", "routed", 128), 10.0)
    # multicore grew 3x per doubling: 18 s at 256; routed has one size, so the first guess (3x): 30 s.
    # Side by side on 2 jobs the longer one decides, with the margin.
    assert budget.estimate([("bgp", "multicore", 256), ("bgp", "routed", 256)]) == pytest.approx(1.25 * 30)
    assert budget.estimate([("bgp", "multicore", 512)]) == pytest.approx(1.25 * 6 * 9)
    assert budget.fits(40)      # 0 s used
    assert not budget.fits(60)  # 50 s used


def test_budget_chooses_the_series_of_a_size_that_fit_cheapest_first(monkeypatch):
    monkeypatch.setattr(study.time, "monotonic", lambda: 100.0)
    budget = study.WallBudget(seconds=100, jobs=1, length=lambda n: 8192)
    budget.record(("bgp", "multicore", 2048), 40.0)
    budget.record(("bgp", "routed", 2048), 10.0)
    budget.record(("bgl", "routed", 2048), 8.0)
    keys = [("bgp", "multicore", 4096), ("bgp", "routed", 4096), ("bgl", "routed", 4096)]
    # 3x per doubling: 120, 30 and 24 s; one at a time with a 1.25 margin, the two routed ones fit in 100 s
    # (67.5 s), all three would not (217.5 s).
    assert budget.choose(keys) == [("bgp", "routed", 4096), ("bgl", "routed", 4096)]
    assert set(study.WallBudget(seconds=0, jobs=1, length=lambda n: 8192).choose(keys)) == set(keys)  # no budget: everything


def test_study_rejects_bad_budget_and_jobs(capsys):
    for argv in (["--jobs", "0"], ["--wall-budget", "-1"], ["--wall-budget", "nan"]):
        assert cli.main(["study", "table4", "--out", "/nonexistent/x", "--model-only", *argv]) == 2
        assert "--jobs needs 1 or more and --wall-budget 0 (no limit) or more seconds" in capsys.readouterr().err


def test_main_job_rejects_a_budget_that_is_not_positive(capsys):
    for budget in ("0", "-5", "nan", "inf"):
        assert cli.main(["main", "--out", "/nonexistent/x", "--budget", budget]) == 2
        assert "--budget needs a positive number of seconds" in capsys.readouterr().err


def test_findings_say_how_far_the_simulation_is_from_the_equation():
    rows = [table4_row("bgp", "multicore", 64, 0.38, 0.381, paper=0.38),
            table4_row("bgp", "multicore", 128, 0.75, 0.75, paper=0.75),
            table4_row("bgp", "multicore", 256, 1.5, skipped="about 50 s would exceed the 40 s budget", paper=1.49),
            table4_row("bgp", "routed", 64, 0.12, 0.115, binds="core 0"),
            table4_row("bgp", "routed", 128, 0.23, 0.21, binds="core 0")]
    found = headline.table4_findings(rows)
    assert found[0].startswith("**Blue Gene/P, multi-core algorithm")
    assert "simulated at 64 to 128 nodes: the steady state is 1.000 to 1.003 of Eq. 7" in found[0]
    assert "core 3 binds at every size" in found[0]
    assert "At 128 nodes: 0.75 GUPS simulated (0.675 over the whole run, start included), 0.75 by Eq. 7, " \
           "0.75 in the paper's Bottleneck column." in found[0]
    assert "0.913 to 0.958 of Eq. 1, further below it as the machine grows" in found[1]
    assert "at 128 nodes: 3.57x simulated, 3.26x by the equations" in found[2]
    assert found[3] == ("**Modelled only** from 256 nodes up (about 50 s would exceed the 40 s budget); Eq. 7 gives "
                        "1.5 GUPS at 256 nodes, the paper's Bottleneck column 1.49.")
    assert found[4] == "The network bound (4B/b) binds at no size of the table: every bound is the CPU's."
    rows[1]["steady_settled"] = False
    assert "1.000 to 1.003 of Eq. 7 (not settled at 128 nodes: those runs' verdicts give why" in \
        headline.table4_findings(rows)[0]
    rows[2]["model_binds"] = "network"
    assert headline.table4_findings(rows)[4] == "The network bound (4B/b) binds from 256 nodes."


def test_findings_compare_owners_and_name_the_runs_the_host_cannot_take():
    table3 = [{"nodes": 96, "owner": "division", "power_of_two": False, "divide_cycles": 100, "eq_gups": 0.38,
               "sim_steady_gups": 0.39, "binds": "core 2"},
              {"nodes": 96, "owner": "predict", "power_of_two": False, "divide_cycles": None, "eq_gups": 0.57,
               "sim_steady_gups": 0.585, "binds": "core 3"}]
    assert "prediction (Theorem 4.1) gives 1.50x the simulated GUPS of division at 100 cycles (1.50x by Eq. 7); " \
           "binding with division: core 2; with prediction: core 3." in headline.table3_finding(table3)[0]
    host = [{"algorithm": "direct", "nodes": 2, "ranks": 2, "measured": 0.03, "measured_cv": 0.1,
             "measured_over_model": 0.5, "measured_over_sim": 0.6},
            {"algorithm": "multicore", "nodes": 2, "ranks": 4, "measured": None, "measured_cv": None,
             "measured_over_model": None, "measured_over_sim": None}]
    runs = [{"source": "measured", "algorithm": "direct", "nodes": 2}] * 3
    text = headline.host_findings(host, runs, 2, {"clock_hz": 2.4e9})[0]
    # 10% run to run is above NOISY (5%): the row says its ratios move by as much.
    assert "direct on 2 ranks: measured 0.03 GUPS (10.0% run to run over 3 runs, **noisy**: the ratios that follow " \
           "move by as much), 0.50x the model, 0.60x the simulation" in text
    assert "(one run)" in headline.host_findings(host, runs[:1], 2, {"clock_hz": 2.4e9})[0]
    assert text.endswith("Not measured, as they need more ranks than cores: multicore on 2 nodes (4 ranks).")


def test_the_main_command_is_the_documented_one():
    args = cli.parser().parse_args(["main"])
    assert isinstance(args, argparse.Namespace) and args.budget == 600 and args.out.endswith("results/main")


def test_budget_scales_by_the_updates_each_size_simulates(monkeypatch):
    monkeypatch.setattr(study.time, "monotonic", lambda: 100.0)
    # The default run length's rule (sim/plan/run_plan.hpp) at these sizes.
    budget = study.WallBudget(seconds=0, jobs=1, length=lambda n: 8192 if n <= 4096 else 4096)
    budget.record(("bgp", "multicore", 2048), 40.0)
    budget.record(("bgp", "multicore", 4096), 120.0)
    # 3x the wall for 2x the updates: 1.5x per update per doubling. 8,192 nodes simulate 4,096 updates a node,
    # as many updates in all as 4,096 nodes did: 120 s x 1 x 1.5, with the margin.
    assert budget.estimate([("bgp", "multicore", 8192)]) == pytest.approx(1.25 * 120 * 1.5)
    # 16,384 nodes: twice the updates of 8,192, two doublings on from 4,096.
    assert budget.estimate([("bgp", "multicore", 16384)]) == pytest.approx(1.25 * 120 * 2 * 1.5 ** 2)
    fixed = study.WallBudget(seconds=0, jobs=1, length=lambda n: 16384)
    fixed.record(("bgl", "routed", 4096), 100.0)
    assert fixed.estimate([("bgl", "routed", 8192)]) == pytest.approx(1.25 * 100 * 2 * 1.5)


def test_budget_goes_by_what_a_converged_run_simulated(monkeypatch):
    monkeypatch.setattr(study.time, "monotonic", lambda: 100.0)
    # analysis/studies/table4-whole, Blue Gene/P multi-core, converged: 4,096 nodes ran 8,207 updates a node in
    # 81.1 s, 8,192 nodes 7,565 (their default 4,096) in 145.1 s; 16,384 nodes then took 299.6 s.
    budget = study.WallBudget(seconds=0, jobs=1, length=lambda n: 8192 if n <= 4096 else 4096)
    budget.record(("bgp", "multicore", 4096), 81.1, 8207)
    budget.record(("bgp", "multicore", 8192), 145.1, 7565)
    estimate = budget.estimate([("bgp", "multicore", 16384)]) / budget.MARGIN
    assert estimate == pytest.approx(299.6, rel=0.1)
    # By the default lengths alone, 8,192 nodes would seem to have cost 1.8x per update what 4,096 did.
    by_default = study.WallBudget(seconds=0, jobs=1, length=lambda n: 8192 if n <= 4096 else 4096)
    by_default.record(("bgp", "multicore", 4096), 81.1)
    by_default.record(("bgp", "multicore", 8192), 145.1)
    assert by_default.estimate([("bgp", "multicore", 16384)]) / by_default.MARGIN > 1.5 * 299.6


def host_row(ratio, cv, others=None):
    return {"algorithm": "direct", "nodes": 2, "ranks": 2, "measured": 0.1, "measured_cv": cv,
            "measured_over_model": ratio, "measured_over_sim": ratio, "host_busy": others}


def test_a_measurement_above_its_bound_is_a_finding_not_noise():
    runs = [{"source": "measured", "algorithm": "direct", "nodes": 2}] * 3
    above = headline.host_findings([host_row(1.36, 0.03)], runs, 2, {"clock_hz": 2.4e9})[0]
    assert "**above the model's bound** by more than its runs vary" in above and "not noise" in above
    # Within twice its runs' variation of the bound (1.08 with 9.4% run to run) it is not called a finding.
    within = headline.host_findings([host_row(1.08, 0.094)], runs, 2, {"clock_hz": 2.4e9})[0]
    assert "above the model's bound" not in within and "**noisy**" in within
    below = headline.host_findings([host_row(0.8, 0.01)], runs, 2, {"clock_hz": 2.4e9})[0]
    assert "above the model's bound" not in below


def test_a_measurement_is_judged_against_the_models_interval():
    runs = [{"source": "measured", "algorithm": "direct", "nodes": 2}] * 3
    # The model: 0.040 GUPS at the least costs, 0.039 at the medians; update_streamed from 65.1 to 66.6 cycles.
    inputs = [{"field": "costs_cycles.update_streamed", "value": 65.1, "low": 65.1, "high": 66.6, "share": 0.9,
               "gups_at_low": 0.040, "gups_at_high": 0.0391}]
    row = {**host_row(1.56, 0.06), "measured": 0.0625, "model": 0.040, "model_low": 0.039, "model_high": 0.040,
           "model_inputs": inputs}
    outside = headline.host_findings([row], runs, 2, {"clock_hz": 2.4e9})[0]
    assert "**outside the model's interval** (0.039 .. 0.04 GUPS over the calibration's ranges), above by 56%" in outside
    assert "not noise" in outside and "update_streamed would have to be" in outside
    # 1/GUPS on the line through the range's ends: 1/0.0625 = 16, 25 at 65.1 cycles, falling 0.575 a cycle.
    needed = float(outside.split("would have to be ")[1].split()[0])
    assert needed == pytest.approx(65.1 - 9 / ((1 / 0.0391 - 1 / 0.040) / 1.5), rel=1e-3)
    inside = headline.host_findings([{**row, "measured": 0.0395}], runs, 2, {"clock_hz": 2.4e9})[0]
    assert "inside the model's interval" in inside and "outside" not in inside
    near = headline.host_findings([{**row, "measured": 0.0415, "measured_cv": 0.05}], runs, 2, {"clock_hz": 2.4e9})[0]
    assert "within twice its runs' variation" in near and "not noise" not in near


def test_a_run_on_a_busy_host_says_so_beside_its_figure():
    runs = [{"source": "measured", "algorithm": "direct", "nodes": 2}] * 3
    busy = headline.host_findings([host_row(0.45, 0.02, others=0.48)], runs, 2, {"clock_hz": 2.4e9})[0]
    assert "the host was busy: other processes used 48% of its cores during these runs" in busy
    quiet = headline.host_findings([host_row(0.95, 0.02, others=None)], runs, 2, {"clock_hz": 2.4e9})[0]
    assert "busy" not in quiet


def test_the_report_reads_the_host_load_gups_measured(tmp_path):
    """gups measures its hosts' load and writes it with its threshold (kernel/core/host_load.*, its unit tests hold
    the arithmetic); the report takes a case as busy where a measured run of it passed that threshold."""
    import json
    from analysis import results
    from analysis.report import document

    def measured(repeat, share):
        raw = {"gups": 0.1, "ranks": 2, "shape": "", "host_load": {"others_cpu_share": share, "busy_above": 0.1},
               "sweep": {"source": "measured", "machine": "host", "algorithm": "direct", "nodes": 2,
                         "repeat": repeat, "command": "gups"}}
        path = tmp_path / f"measured-direct-2-{repeat}.json"
        path.write_text(json.dumps(raw))
        return results.record_of(raw, str(path))

    quiet = document.build_tables([measured(1, 0.02), measured(2, 0.09)])[0]
    assert quiet["host_busy"] is None
    busy = document.build_tables([measured(1, 0.02), measured(2, 0.48)])[0]
    assert busy["host_busy"] == 0.48


def test_the_host_table_describes_one_box_and_table_rows_stay_one_line():
    from analysis.report import document
    host = {"description": "this host", "clock_hz": 2.45e9, "cores_per_node": 2, "costs_cycles_spread": {},
            "torus": {"dimensions": 3, "link_bandwidth_bytes_per_s": 6.219e9, "link_latency_s": 3e-7}}
    row = document.system_table(host)[-1]
    assert "shared memory within this host" in row and "6219 MB/s" in row and "torus is virtual" in row
    bgp = {k: v for k, v in host.items() if k != "costs_cycles_spread"}
    assert document.system_table(bgp)[-1].startswith("| interconnect | 3-D torus, 6219 MB/s")
    rows = [{"binds": "core 3 (receive Z, update the table)"}, {"binds": "core 0 (generate, route X)"}]
    assert headline.short_binds(rows[0]["binds"]) == "core 3"
    assert headline.binds_legend(rows) == ["Binding cores: core 0 (generate, route X); core 3 (receive Z, update the "
                                           "table)."]


def test_the_hpcc_finding_gives_hpccs_hypercube_beside_its_standard_algorithm_or_why_not(tmp_path):
    runs = [{"GUPs": 0.05, "ErrorsFraction": 0.0}]
    rows = [{"algorithm": "direct", "ranks": 2, "measured": 0.25}]
    done = {"ranks": 2, "runs": runs, "verified": True,
            "hypercube_runs": [{"GUPs": 0.2, "ErrorsFraction": 0.0}], "hypercube_verified": True}
    (tmp_path / "hpcc.json").write_text(json.dumps(done))
    text = headline.hpcc_finding(str(tmp_path), rows)
    assert "direct 5.00x it; HPCC's hypercube (RA_SANDIA_OPT2) on the same ranks: 0.2 GUPS (verified)" in text, text
    done.update(hypercube_runs=None, hypercube_not_run="HPCC's hypercube (RA_SANDIA_OPT2) not built: OpenBLAS is "
                                                          "not installed")
    (tmp_path / "hpcc.json").write_text(json.dumps(done))
    assert text.split("; HPCC's hypercube")[0] + "; HPCC's hypercube (RA_SANDIA_OPT2) not built: OpenBLAS is not " \
        "installed" == headline.hpcc_finding(str(tmp_path), rows)
