"""What a verdict may say: the refutation rule, the unphysical law, the offset line, the tie rule, the noise."""
import math

import pytest

from analysis.explain import evidence, laws as explain_laws, mechanisms as explain_mechanisms
from analysis.explain import verdict as explain_verdict
from analysis.explain.measured import MeasuredPoint


def measured(**gups):
    return {int(n[1:]): MeasuredPoint(int(n[1:]), g, 0.0, 0.0) for n, g in gups.items()}


def test_a_column_within_its_tolerance_of_the_machine_is_nothing_measurable():
    found = evidence.departures(measured(n64=0.381, n128=0.7535), 0.01, {64: 0.3807, 128: 0.757}, {})
    assert evidence.nothing_measurable(found) and evidence.one_sided(found) is None
    assert evidence.nothing_measurable_text(found).startswith(
        "nothing measurable: the column is the machine's within the noise (every point within its tolerance of "
        "the machine as given, model: 64, 128 nodes; the largest departure -0.5% at 128 nodes")
    # The simulation, where it ran, is the reference, and its own spread widens the tolerance.
    wide = evidence.departures(measured(n64=0.37), 0.01, {64: 0.3807}, {64: 0.3807}, {64: 0.05})
    assert wide[64].source == "simulation" and evidence.nothing_measurable(wide)
    assert not evidence.nothing_measurable(evidence.departures(measured(n64=0.37), 0.01, {64: 0.3807}, {}))


def test_points_all_one_way_beyond_tolerance_are_named_as_an_offset():
    every = evidence.departures(measured(n64=0.366, n128=0.729, n256=1.44), 0.01, {64: 0.38, 128: 0.76, 256: 1.5}, {})
    assert evidence.one_sided(every) == "below"
    assert evidence.offset_text(every) == ("a systematic offset: every point below the machine as given by 3.7% to "
                                           "4.1%, each beyond its tolerance")
    # Two of three beyond, both above, the third within: one-sided, not every point.
    some = evidence.departures(measured(n64=0.38, n128=0.79, n256=1.56), 0.01, {64: 0.38, 128: 0.76, 256: 1.5}, {})
    assert evidence.one_sided(some) == "above"
    assert evidence.offset_text(some).startswith("a one-sided departure: 2 of 3 points (128, 256) above")
    # Both ways, or a single point: no offset.
    assert evidence.one_sided(evidence.departures(measured(n64=0.36, n128=0.80), 0.01, {64: 0.38, 128: 0.76},
                                                  {})) is None
    assert evidence.one_sided(evidence.departures(measured(n64=0.36, n128=0.76), 0.01, {64: 0.38, 128: 0.76},
                                                  {})) is None


def line_points(values, gups_at):
    return [explain_laws.Point(n, 1.0, 0.01, v, v * 0.99, v * 1.01, 1.0, 10.0, gups_at) for n, v in values.items()]


def test_a_law_that_needs_an_efficiency_above_one_or_a_negative_cost_is_unphysical():
    # Needed values on a line in log2(nodes) from 0.12 at 64 nodes to 1.29 at 1,024: past 1 at the largest.
    values = {64: 0.12, 128: 0.41, 256: 0.71, 512: 1.0, 1024: 1.29}
    exact = {n: v for n, v in values.items()}
    def gups_at(v, exact=exact):
        return 1.0 if any(abs(v - x) <= 0.01 * x for x in exact.values()) else 0.5
    laws = explain_laws.fit_laws(line_points(values, gups_at), "x", 1e-9, 1.0, upper_bound=1.0)
    line = next(law for law in laws if law.name == "linear in log2(nodes)")
    assert not line.explains and line.unphysical == "unphysical: it needs 1.292 at 1024 nodes, above 1"
    # A cost line through 0 into negative values: refused below 0, though clipped it would give the point.
    costs = {64: 30.0, 128: 10.0, 256: -10.0, 512: -30.0}
    assert explain_laws.why_unphysical(costs, (0.0, math.inf)) == "unphysical: it needs -30 at 512 nodes, below 0"
    assert explain_laws.why_unphysical({64: 0.5, 128: 1.0}, (0.0, 1.0)) == ""


def entry_with(name, law_values, tried, nominal=1.0, tolerance=0.01, measured_gups=0.3558):
    mechanism = explain_mechanisms.MECHANISMS[name]
    law = explain_laws.Law("constant", 1, "", law_values, {n: 0.0 for n in law_values}, True, len(law_values))
    points = {n: {"nodes": n, "measured": measured_gups, "tolerance": tolerance, "simulated": tried.get(n, [])}
              for n in law_values}
    return {"mechanism": mechanism, "law": law, "nominal": nominal, "points": points, "unreached": 0}


def test_a_law_its_own_simulation_misses_is_refuted_and_explains_nothing():
    # The case: links at 0.1217 of their bandwidth simulate to 0.2221 GUPS at 64 nodes, the point is 0.3558.
    refuted = entry_with("link_bandwidth", {64: 0.1217, 128: 0.4}, {64: [(1.0, 0.3566), (0.1217, 0.2221)]})
    found = evidence.refutations(refuted)
    assert found == [(64, 0.1217, 0.2221, 0.3558)]
    refuted["refuted"] = found
    assert not explain_verdict.explains(refuted)
    assert "refuted by its own simulation: at 64 nodes link_bandwidth = 0.1217 gives 0.2221 GUPS simulated " \
           "against 0.3558 measured" in explain_verdict.growth(refuted)
    # A simulation at the law's value that gives the point, or none near it: not refuted.
    assert evidence.refutations(entry_with("link_bandwidth", {64: 0.1217}, {64: [(0.1217, 0.3560)]})) == []
    assert evidence.refutations(entry_with("link_bandwidth", {64: 0.5}, {64: [(0.1217, 0.2221)]})) == []


def test_the_simulations_set_the_level_and_the_model_the_shape_where_they_ran():
    # Core 0's overhead: flat until core 0 binds at 122.9 cycles, then falling (the model's kink). With tries at
    # 122.9 and 142.5, a straight line between them lies above the kinked curve at 129.
    from analysis.explain import model as explain_model
    response = explain_model.Response(64, 64 * 2.4, "cost", [(142.9, 0.0), (20.0, 1.0)], network_gups=math.inf,
                                      cpu_gups=0.38)
    tried = [(87.8, response.gups(87.8) * 1.002), (122.9, response.gups(122.9)), (142.5, response.gups(142.5))]
    curve = explain_verdict.through_simulations(tried, response, explain_mechanisms.MECHANISMS["top0"])
    assert curve(129.0) == pytest.approx(response.gups(129.0), rel=1e-9)
    (v0, g0), (v1, g1) = tried[1], tried[2]
    assert curve(129.0) < g0 + (g1 - g0) * (129.0 - v0) / (v1 - v0)  # the straight line cuts the kink's corner
    assert curve(87.8) == pytest.approx(tried[0][1])  # the level is the simulation's where it ran
    assert curve(200.0) == pytest.approx(response.gups(200.0))  # beyond: the model's shape, the nearest's level


def test_ties_rank_by_sizes_moved_then_parameters_then_the_move_against_the_prior_range():
    machine = {"costs_cycles": {"core_overhead": [87.8, 95.4, 97.4, 41.5], "update": 90, "update_streamed": 90},
               "sources": {"costs_cycles.core_overhead[3]": {"kind": "derived", "range": [20, 100]},
                           "costs_cycles.update": {"kind": "assumed", "range": [80, 100]}}}
    def entry(name, nominal, value, departures=5, parameters=1):
        law = explain_laws.Law("constant", parameters, "", {64: value, 128: value}, {64: 0.0}, True, departures)
        return {"mechanism": explain_mechanisms.MECHANISMS[name], "law": law, "nominal": nominal, "unreached": 0}
    top3 = entry("top3", 41.5, 58.1)  # 16.6 of a 58.5-cycle half range up: 0.28
    update = entry("update", 90.0, 106.6)  # 16.6 past the range's end of 100: 1.66
    assert evidence.prior_move(top3, machine) == pytest.approx(16.6 / 58.5)
    assert evidence.prior_move(update, machine) == pytest.approx(1.66)
    ranked = explain_verdict.tied([update, top3], machine)
    assert [e["mechanism"].name for e in ranked] == ["top3", "update"]
    # Fewer sizes moved beats any prior range; a simpler law beats a closer move.
    step = entry("update", 90.0, 91.0, departures=5, parameters=3)
    assert [e["mechanism"].name for e in explain_verdict.tied([top3, step], machine)] == ["top3"]
    fewer = entry("update", 90.0, 200.0, departures=2)
    assert [e["mechanism"].name for e in explain_verdict.tied([top3, fewer], machine)] == ["update"]


def test_without_a_range_of_its_own_a_move_counts_as_a_factor_and_a_list_entry_takes_its_lists_range():
    def entry(name, nominal, value):
        law = explain_laws.Law("step", 3, "", {64: value}, {64: 0.0}, True, 2)
        return {"mechanism": explain_mechanisms.MECHANISMS[name], "law": law, "nominal": nominal, "unreached": 0}
    machine = {"costs_cycles": {"core_overhead": [87.8, 95.4, 97.4, 41.5]}, "torus": {"link_bandwidth_bytes_per_s": 425e6},
               "sources": {"costs_cycles.core_overhead": {"kind": "derived", "source": "top0..top3"}}}
    top3 = entry("top3", 41.5, 81.5)  # about 2x up
    links = entry("link_bandwidth", 1.0, 0.202)  # about 5x down
    assert evidence.prior_move(top3, machine) == pytest.approx(math.log(81.5 / 41.5))
    assert evidence.prior_move(links, machine) == pytest.approx(math.log(1 / 0.202))
    assert [e["mechanism"].name for e in explain_verdict.tied([links, top3], machine)] == ["top3", "link_bandwidth"]
    machine["sources"]["costs_cycles.core_overhead"]["range"] = [20, 100]
    assert evidence.prior_move(top3, machine) == pytest.approx(40 / 58.5)


def test_the_measurement_that_separates_ties_is_named():
    text = evidence.separation_text([], {"top3": 0.2282, "update": 0.2100}, "routed", 1024, 0.01)
    assert text == ("a routed run at 1024 nodes would separate them (top3 gives 0.2282, update gives 0.21 GUPS in "
                    "the model)")
    assert evidence.separation_text([], {"top3": 0.2282, "update": 0.2260}, "routed", 1024, 0.01).startswith(
        "no GUPS of this machine separates them: a per-core cycle count would")


def test_candidates_are_named_by_the_fields_they_move():
    machine = {"costs_cycles": {"update": 90, "update_streamed": 90, "receive_call_batched": 330,
                                "receive_call": 600}, "torus": {"link_bandwidth_bytes_per_s": 4.25e8}}
    update = explain_mechanisms.MECHANISMS["update"]
    assert update.nominal_text(machine, 90) == "90 cycles (costs_cycles.update, costs_cycles.update_streamed)"
    assert explain_mechanisms.MECHANISMS["link_bandwidth"].fields(machine) == ["torus.link_bandwidth_bytes_per_s"]


@pytest.mark.parametrize("value", [462.0, 330.0, 100.0, 90.0, 82.5, 10.0, 0.0])
def test_every_receive_call_value_is_one_the_simulation_can_charge(value):
    """A call's own part and a part per packet, neither below 0 (the simulation refuses a file otherwise), and
    the batched figure the value asked for."""
    machine = {"costs_cycles": {"receive_call": 600.0, "receive_call_batched": 330.0, "receive_batch_packets": 4}}
    varied = explain_mechanisms.MECHANISMS["receive_call"].applied(machine, value)["costs_cycles"]
    per_packet = (4 * varied["receive_call_batched"] - varied["receive_call"]) / 3
    assert varied["receive_call_batched"] == value
    assert per_packet >= -1e-9 and varied["receive_call"] - per_packet >= -1e-9
    if value >= 90:  # the call's own 360 cycles stay; the packet's part takes the change
        assert varied["receive_call"] - per_packet == pytest.approx(360.0)


def test_only_a_simulation_at_the_laws_value_refutes_it():
    # Case 3 of the blind tests: top2's law needs 138.9 at 128 nodes; tries at 137.9 (0.7304 GUPS) and 140.2
    # (0.7196) lie on either side, neither at it: no refutation (the nearest alone misses the point by 1.4%).
    tried = {128: [(97.4, 0.7561), (137.94, 0.7304), (154.59, 0.6617), (140.17, 0.7196)]}
    entry = entry_with("top2", {128: 138.9}, tried, nominal=97.4, measured_gups=0.7203)
    assert evidence.simulated_at(tried[128], 138.9) is None
    assert evidence.refutations(entry) == []
    assert evidence.simulated_at(tried[128], 140.0) == 0.7196  # within 0.5% of 140.17
