"""Table 4's columns beside the model's interval: which part of a simulated figure the model's ranges explain, and
which the simulation adds."""
import pytest

from analysis import study_tools
from analysis.paper import study


def model_row(low, high, inputs=()):
    return {"interval": {"low": {"gups": low}, "high": {"gups": high}, "inputs": list(inputs)}}


def test_the_interval_of_a_model_row_and_its_leading_inputs():
    fields = study_tools.interval_fields(model_row(2.85, 3.14, [
        {"field": "costs_cycles.update_streamed", "share": 0.87}, {"field": "costs_cycles.core_overhead", "share": 0.12},
        {"field": "torus.link_latency_s", "share": 0.0}]))
    assert fields == {"model_low": 2.85, "model_high": 3.14, "model_inputs": "update_streamed 87%, core_overhead 12%"}
    assert study_tools.interval_fields({})["model_low"] is None


def test_a_simulated_figure_outside_the_models_interval_is_marked():
    row = study_tools.interval_fields(model_row(2.85, 3.14))
    assert study.against_interval(2.98, row) == "inside"
    assert study.against_interval(2.5, row) == "**outside: below by 12.3%**"
    assert study.against_interval(3.3, row) == "**outside: above by 5.1%**"
    assert study.against_interval(None, row) == "-"
    # The simulated ends take a column each side of the model's, beside the steady state's verdict.
    columns = {name: cell for name, _, cell in study.SIMULATED_COLUMNS}
    simulated = {**row, "sim_steady_gups": 2.98, "sim_low_gups": 2.6, "sim_high_gups": 3.1}
    assert columns["model's interval"](simulated) == "2.85 .. 3.14"
    assert columns["ends vs interval"](simulated) == "low **outside: below by 8.8%**; high inside"


def test_the_wrap_around_unknown_gives_the_model_both_ways_where_no_source_settles_it():
    mesh = {"field": "torus.mesh_below_nodes", "values": ["512", "all"], "low": 512, "high": 4.6e18,
            "gups_at_low": 43.1, "gups_at_high": 33.7, "share": 0.9}
    above = study_tools.interval_fields({"nodes": 8192, **model_row(33.5, 45.2, [mesh])})
    assert above["wrap_unknown"] and (above["model_torus_gups"], above["model_mesh_gups"]) == (43.1, 33.7)
    # Below 512 nodes every value makes a mesh: nothing unknown there, and no column for it.
    below = study_tools.interval_fields({"nodes": 256, **model_row(1.43, 1.58, [mesh])})
    assert "wrap_unknown" not in below
    cost = dict(mesh, field="costs_cycles.update_streamed")
    del cost["values"]
    assert "wrap_unknown" not in study_tools.interval_fields({"nodes": 8192, **model_row(1, 2, [cost])})
    columns = {name: cell for name, _, cell in study.WRAP_COLUMNS}
    assert columns["wrap-around unknown: model, every dimension wraps / none"](above) == "43.1 / 33.7"
    assert columns["simulated steady, none wraps"]({**above, "sim_mesh_gups": 30.2}) == "30.2"
    assert columns["simulated steady, none wraps"](below) == "-"
    unsettled = {**above, "sim_mesh_gups": 30.2, "sim_mesh_settled": False}
    assert columns["simulated steady, none wraps"](unsettled) == "30.2" + study_tools.UNSETTLED_MARK


def test_a_mesh_simulation_sets_the_wrap_itself_and_leaves_the_mesh_mechanism_out(tmp_path):
    import argparse
    args = argparse.Namespace(out=str(tmp_path), network="auto", updates_per_node=0, max_wall=0, converge=False,
                              reception_fifo=0)
    runner = study.Study.__new__(study.Study)
    runner.args, runner.sim = args, "gups-sim"
    task = runner.simulation("bgp", "multicore", 2048, "wire,dma,mesh,paper-buckets", wrap="mesh")
    command = task.command
    assert command[command.index("--mechanisms") + 1] == "wire,dma,paper-buckets"
    assert command[command.index("--wrap") + 1] == "mesh" and task.name.endswith("-mesh")
    plain = runner.simulation("bgp", "multicore", 2048, "wire,dma,mesh,paper-buckets")
    assert "--wrap" not in plain.command and "mesh" in plain.command[plain.command.index("--mechanisms") + 1]


def test_the_machines_mechanisms_follow_a_variants_traits_not_its_name():
    # Keyed by what a variant does: a new variant that routes over the torus needs no row of its own.
    machine = {"reference_bucket_sizes": {"512": 23}}
    specialised = {"name": "multicore-again", "routes_over_torus": True, "specialised_cores": True}
    routing = {"name": "routed-again", "routes_over_torus": True, "specialised_cores": False}
    assert study_tools.mechanisms_for(specialised, 512, machine) == "wire,receive-batches,dma,mesh,paper-buckets"
    assert study_tools.mechanisms_for(specialised, 1024, machine) == "wire,receive-batches,dma,mesh"
    assert study_tools.mechanisms_for(routing, 512, machine) == "wire,receive-batches,dma,mesh"
    with pytest.raises(ValueError, match="route over the torus"):
        study_tools.mechanisms_for({"name": "direct", "routes_over_torus": False}, 512, machine)
