"""explain's network candidates: the packet level's parameters and the partition (its rules, the partitions they
give, how a column is fitted), and which network level each needs."""
import math

import pytest

from analysis.explain import laws, mechanisms, partition
from analysis.explain.partition import Partition

MACHINE = {"name": "bgp", "cores_per_node": 4, "torus": {"mesh_below_nodes": 512, "link_latency_s": 1e-7},
           "costs_cycles": {"core_overhead": [1, 2, 3, 4]},
           "network_levels": {"packet": {"channel_buffer_chunks": 32, "injection_fifos": 6, "dynamic_channels": 2}}}


# What programs.routing_levels reads off gups-topology --network-levels: the levels without SimGrid's links.
ROUTING = ("queue", "latency", "packet")


def names(found):
    return [m.name for m in found]


def test_the_network_candidates_come_with_their_levels():
    at_packet = mechanisms.applicable("routed", MACHINE, "packet", routing_levels=ROUTING)
    assert {"channel_buffer_chunks", "injection_fifos", "dynamic_channels", "partition"} <= set(at_packet)
    at_queue = mechanisms.applicable("routed", MACHINE, "queue", routing_levels=ROUTING)
    assert "partition" in at_queue and "channel_buffer_chunks" not in at_queue
    assert not {"partition", "injection_fifos"} & set(mechanisms.applicable("routed", MACHINE, "auto", routing_levels=ROUTING))
    without_levels = {k: v for k, v in MACHINE.items() if k != "network_levels"}
    assert "channel_buffer_chunks" not in mechanisms.applicable("routed", without_levels, "packet", routing_levels=ROUTING)


def test_naming_a_candidate_its_level_cannot_simulate_is_one_clear_error():
    with pytest.raises(ValueError, match="'partition' is simulated at the network level queue or latency or packet"):
        mechanisms.chosen("partition", "routed", MACHINE, "flow", routing_levels=ROUTING)
    with pytest.raises(ValueError, match="'injection_fifos' is simulated at the network level packet"):
        mechanisms.chosen("injection_fifos", "routed", MACHINE, "queue", routing_levels=ROUTING)
    assert names(mechanisms.chosen("partition,update", "routed", MACHINE, "queue", routing_levels=ROUTING)) == ["partition", "update"]


def test_a_packet_parameter_is_set_in_the_machine_file():
    changed = mechanisms.MECHANISMS["channel_buffer_chunks"].applied(MACHINE, 7.6)
    assert changed["network_levels"]["packet"]["channel_buffer_chunks"] == 8
    assert MACHINE["network_levels"]["packet"]["channel_buffer_chunks"] == 32  # a copy
    assert mechanisms.MECHANISMS["dynamic_channels"].nominal(MACHINE) == 2


def test_the_longest_side_is_meshed_and_a_cube_keeps_its_wraps():
    assert partition.longest_meshed(Partition("4x4x8", "ttt")) == Partition("4x4x8", "ttm")
    assert partition.longest_meshed(Partition("4x8x8", "ttt")) == Partition("4x8x8", "ttm")  # the last longest
    assert partition.longest_meshed(Partition("8x4x4", "ttt")) == Partition("8x4x4", "mtt")
    assert partition.longest_meshed(Partition("4x4x4", "ttt")) == Partition("4x4x4", "ttt")


def test_each_size_tries_each_distinct_partition_once_the_machines_first():
    given, balanced = Partition("8x8x32", "ttt"), Partition("8x16x16", "ttt")
    found = partition.partitions_at(given, balanced)
    assert list(found)[0] == given.label
    assert set(found) == {"8x8x32 ttt", "8x16x16 ttt", "8x8x32 mmm", "8x8x32 ttm", "8x8x32 mtt", "8x8x32 tmt"}
    assert partition.sim_options(Partition("8x8x32", "ttm")) == ["--shape", "8x8x32", "--wrap", "ttm"]


def test_the_rule_that_made_a_column_explains_it_and_a_fixed_dimension_does_not():
    given = {64: Partition("4x4x4", "ttt"), 128: Partition("4x4x8", "ttt"), 256: Partition("4x8x8", "ttt")}
    # Simulated GUPS of each partition tried: a meshed longest side halves a size's GUPS, any other mesh does
    # nothing unless it is the longest side.
    tried = {64: {"4x4x4 ttt": 1.0, "4x4x4 ttm": 0.5, "4x4x4 mtt": 0.5, "4x4x4 tmt": 0.5, "4x4x4 mmm": 0.5},
             128: {"4x4x8 ttt": 2.0, "4x4x8 ttm": 1.0, "4x4x8 mtt": 2.0, "4x4x8 tmt": 2.0, "4x4x8 mmm": 1.0},
             256: {"4x8x8 ttt": 4.0, "4x8x8 ttm": 2.0, "4x8x8 mtt": 4.0, "4x8x8 tmt": 2.0, "4x8x8 mmm": 2.0}}
    measured = {64: 1.0, 128: 1.0, 256: 2.0}
    points = {n: {"measured": measured[n], "tolerance": 0.01, "tried": tried[n]} for n in given}
    found = {law.name: law for law in partition.fit(points, given, given)}
    longest = found["the longest side a mesh"]
    assert longest.explains and longest.departures == 2 and longest.parameters == 1
    assert not found["dimension 2 a mesh"].explains  # it meshes the cube at 64 too
    assert not found["a mesh"].explains and not found["as given"].explains
    assert found["as given"].departures == 0 and found["as given"].parameters == 0
    assert laws.best_law(list(found.values())).name == "the longest side a mesh"


def test_a_rule_whose_partition_was_not_tried_cannot_explain():
    given = {64: Partition("4x4x4", "ttt")}
    points = {64: {"measured": 1.0, "tolerance": 0.01, "tried": {"4x4x4 ttt": 1.0}}}
    found = {law.name: law for law in partition.fit(points, given, given)}
    assert found["as given"].explains
    assert math.isinf(found["a mesh"].errors[64]) and not found["a mesh"].explains


def test_the_link_mechanisms_set_any_network_section():
    fly = {"name": "fly", "cores_per_node": 1, "costs_cycles": {},
           "references_of": {"name": "fly", "link_bandwidth_bytes_per_s": 1e9, "link_latency_s": 1e-7},
           "dragonfly": {"groups": 2, "link_bandwidth_bytes_per_s": 1e9, "link_latency_s": 1e-7}}
    halved = mechanisms.MECHANISMS["link_bandwidth"].applied(fly, 0.5)
    assert halved["dragonfly"]["link_bandwidth_bytes_per_s"] == 5e8 and "torus" not in halved
    assert mechanisms.MECHANISMS["link_latency"].nominal(fly) == 1e-7
    slower = mechanisms.MECHANISMS["link_latency"].applied(MACHINE, 2e-7)
    assert slower["torus"]["link_latency_s"] == 2e-7
