"""Table 4's columns beside the model's interval: which part of a simulated figure the model's ranges explain, and
which the simulation adds."""
from analysis.paper import study


def model_row(low, high, inputs=()):
    return {"interval": {"low": {"gups": low}, "high": {"gups": high}, "inputs": list(inputs)}}


def test_the_interval_of_a_model_row_and_its_leading_inputs():
    fields = study.interval_fields(model_row(2.85, 3.14, [
        {"field": "costs_cycles.update_streamed", "share": 0.87}, {"field": "costs_cycles.core_overhead", "share": 0.12},
        {"field": "torus.link_latency_s", "share": 0.0}]))
    assert fields == {"model_low": 2.85, "model_high": 3.14, "model_inputs": "update_streamed 87%, core_overhead 12%"}
    assert study.interval_fields({})["model_low"] is None


def test_a_simulated_figure_outside_the_models_interval_is_marked():
    row = study.interval_fields(model_row(2.85, 3.14))
    assert study.against_interval(2.98, row) == "inside"
    assert study.against_interval(2.5, row) == "**outside: below by 12.3%**"
    assert study.against_interval(3.3, row) == "**outside: above by 5.1%**"
    assert study.against_interval(None, row) == "-"
    # The simulated ends take a column each side of the model's, beside the steady state's verdict.
    columns = {name: cell for name, _, cell in study.SIMULATED_COLUMNS}
    simulated = {**row, "sim_steady_gups": 2.98, "sim_low_gups": 2.6, "sim_high_gups": 3.1}
    assert columns["model's interval"](simulated) == "2.85 .. 3.14"
    assert columns["ends vs interval"](simulated) == "low **outside: below by 8.8%**; high inside"
