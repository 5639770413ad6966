// The node's parts after Blue Gene/P in the model: hardware threads sharing
// a core's issue, a messaging unit that takes the packets off the cores,
// updates applied near memory, and the mapping-mode planner.
#include "models/src/node_hardware.hpp"

#include "kernel/core/issue_port.hpp"

#include <set>
#include <tuple>
#include <gtest/gtest.h>

#include <cmath>

#include "models/src/bounds.hpp"
#include "models/src/machine_schema.hpp"
#include "models/src/mode_planner.hpp"
#include "models/src/simulation_charges.hpp"
#include "tests/unit/machine_document.hpp"
#include "tests/unit/shipped_machines.hpp"

namespace gups::model {
namespace {

using testing::load_document;
using testing::load_error;
using testing::machine_document;

TEST(ThreadSharing, AThreadAloneTakesItsIssueAndItsWait) {
  EXPECT_DOUBLE_EQ(shared_core_cycles({{40, 160}}), 200);
}

TEST(ThreadSharing, ThreadsOverlapTheirWaitsButNotTheirIssues) {
  // Two threads each waiting most of an update: the core still takes the
  // longer thread's own time, and no less.
  EXPECT_DOUBLE_EQ(shared_core_cycles({{10, 90}, {10, 90}}), 100);
  // Four threads issuing 30 each: the core issues 120, more than any one's 100.
  EXPECT_DOUBLE_EQ(shared_core_cycles({{30, 70}, {30, 70}, {30, 70}, {30, 70}}), 120);
  // Threads that never wait gain nothing from sharing a core.
  EXPECT_DOUBLE_EQ(shared_core_cycles({{100, 0}, {50, 0}}), 150);
}

TEST(ThreadSharing, ThreadsFillOneThreadOfEveryCoreFirst) {
  EXPECT_EQ(core_of_thread(0, 4), 0u);
  EXPECT_EQ(core_of_thread(3, 4), 3u);
  EXPECT_EQ(core_of_thread(4, 4), 0u);
  EXPECT_EQ(core_of_thread(7, 4), 3u);
}

nlohmann::json bgp_with(const nlohmann::json& node) {
  auto document = machine_document("bgp");
  document["node"] = node;
  document["name"] = "bgp-node";
  return document;
}

ModelOptions direct_with(unsigned processes) {
  ModelOptions options;
  options.algorithm = Algorithm::direct;
  options.processes_per_node = processes;
  return options;
}

// Direct on one core of two threads, 2 processes: each process's update is
// C cycles of which W wait on memory, so the core takes max(C, 2 (C - W))
// for one update of each.
TEST(ThreadSharing, DirectProcessesOnOneCoreShareItsIssue) {
  auto document = bgp_with({{"threads_per_core", 2}, {"update_issue_cycles", 20}});
  document["cores_per_node"] = 1;
  document["costs_cycles"]["core_overhead"] = 90;
  const auto machine = load_document(document);
  const TorusShape shape({4, 4, 4});
  const auto one = predict(machine, shape, direct_with(1));
  const auto two = predict(machine, shape, direct_with(2));
  const double wait_one = one.update_cycles - 20;
  ASSERT_GT(wait_one, 0);
  const double clock = machine.clock_hz;
  EXPECT_NEAR(one.cpu_gups, 64 * clock / one.cpu_cycles_per_update * 1e-9, 1e-12);
  const double c = two.cpu_cycles_per_update, w = two.update_wait_cycles;
  EXPECT_NEAR(two.cpu_gups, 64 * 2 * clock / std::max(c, 2 * (c - w)) * 1e-9, 1e-9);
  EXPECT_GT(two.cpu_gups, one.cpu_gups);
}

// The multicore plan's hardware threads: each core's cycles are its threads'
// shared, and the slowest core sets the bound.
TEST(ThreadSharing, MulticoreThreadsOfOneCoreShareIt) {
  const auto machine = load_document(bgp_with({{"threads_per_core", 2}, {"update_issue_cycles", 30}}));
  ModelOptions options;
  options.role_plan = "1xX/Y/Z+5";
  const auto p = predict(machine, TorusShape({8, 8, 8}), options);
  ASSERT_EQ(p.cores.size(), 8u);
  double slowest = 0;
  for (unsigned core = 0; core < 4; ++core) {
    const auto& first = p.cores[core];
    const auto& second = p.cores[core + 4];
    EXPECT_EQ(first.core, core);
    EXPECT_EQ(second.core, core);
    const double expected = std::max({first.cycles, second.cycles, first.cycles - first.wait + second.cycles - second.wait});
    EXPECT_DOUBLE_EQ(first.core_cycles, expected);
    EXPECT_DOUBLE_EQ(second.core_cycles, expected);
    slowest = std::max(slowest, expected);
  }
  EXPECT_DOUBLE_EQ(p.cpu_cycles_per_update, slowest);
  // An updater that only updates waits on its miss; a router never waits.
  EXPECT_GT(p.cores[7].wait, 0);
  EXPECT_EQ(p.cores[0].wait, 0);
}

TEST(MessagingUnit, TheCorePaysADescriptorAMessageAndAFifoReadAPacket) {
  const nlohmann::json unit{{"descriptor_cycles", 40}, {"packet_receive_cycles", 25}, {"packets_per_s", 1e12},
                            {"injection_fifos", 32}, {"reception_fifos", 16}};
  const auto machine = load_document(bgp_with({{"messaging_unit", unit}}));
  const auto p = predict(machine, TorusShape({8, 8, 8}), ModelOptions{});
  EXPECT_DOUBLE_EQ(p.send_cycles, 40.0 / p.bucket_size);
  EXPECT_DOUBLE_EQ(p.receive_cycles, 25.0 * message_packets(machine.packet, p.bucket_size) / p.bucket_size);
  EXPECT_EQ(p.node_binds, "cores");
  ASSERT_TRUE(p.messaging_unit_gups);
  EXPECT_GT(*p.messaging_unit_gups, p.cpu_gups);
}

TEST(MessagingUnit, ItsPacketRateBindsWhenItIsTheLowest) {
  const double rate = 2e5;
  const nlohmann::json unit{{"descriptor_cycles", 40}, {"packet_receive_cycles", 25}, {"packets_per_s", rate},
                            {"injection_fifos", 32}, {"reception_fifos", 16}};
  const auto machine = load_document(bgp_with({{"messaging_unit", unit}}));
  const auto p = predict(machine, TorusShape({8, 8, 8}), ModelOptions{});
  EXPECT_EQ(p.node_binds, "messaging unit");
  const double packets_per_update = p.expected_hops * message_packets(machine.packet, p.bucket_size) / p.bucket_size;
  EXPECT_NEAR(p.cpu_gups, 512 * rate / packets_per_update * 1e-9, 1e-12);
  EXPECT_GT(p.cores_gups, p.cpu_gups);
}

TEST(NearMemoryUpdates, AnUpdateCostsItsCoreOnlyItsIssueAndTheMemorySideBinds) {
  const auto plain = predict(testing::bgp(), TorusShape({8, 8, 8}), ModelOptions{});
  const auto fast = load_document(bgp_with({{"near_memory_updates", {{"issue_cycles", 6}, {"updates_per_s", 1e9}}}}));
  const auto p = predict(fast, TorusShape({8, 8, 8}), ModelOptions{});
  EXPECT_DOUBLE_EQ(p.update_cycles, 6);
  EXPECT_EQ(p.update_wait_cycles, 0);
  EXPECT_LT(p.cores.back().cycles, plain.cores.back().cycles);  // the updater
  const auto slow = load_document(bgp_with({{"near_memory_updates", {{"issue_cycles", 6}, {"updates_per_s", 1e6}}}}));
  const auto bound = predict(slow, TorusShape({8, 8, 8}), ModelOptions{});
  EXPECT_EQ(bound.node_binds, "near-memory updates");
  EXPECT_NEAR(bound.cpu_gups, 512 * 1e6 * 1e-9, 1e-12);
}

TEST(NodeSection, ReadsBackAsWrittenAndRefusesWhatDoesNotFit) {
  const nlohmann::json node{{"threads_per_core", 4},
                            {"update_issue_cycles", 12},
                            {"messaging_unit",
                             {{"descriptor_cycles", 40}, {"packet_receive_cycles", 25}, {"packets_per_s", 1e9},
                              {"injection_fifos", 544}, {"reception_fifos", 272}}},
                            {"near_memory_updates", {{"issue_cycles", 6}, {"updates_per_s", 4e8}}}};
  const auto machine = load_document(bgp_with(node));
  EXPECT_EQ(machine.hardware_threads(), 16u);
  EXPECT_EQ(nlohmann::json::parse(to_json(machine).dump())["node"], node);
  EXPECT_NE(load_error(bgp_with({{"update_issue_cycles", 12}})).find("node.update_issue_cycles"), std::string::npos);
  EXPECT_NE(load_error(bgp_with({{"threads_per_core", 2}})).find("node.update_issue_cycles"), std::string::npos);
  EXPECT_NE(load_error(bgp_with({{"messaging_unit", {{"descriptor_cycles", 40}}}})).find("packet_receive_cycles"),
            std::string::npos);
  EXPECT_NE(load_error(bgp_with({{"thread_per_core", 2}})).find("did you mean"), std::string::npos);
}

// A part's fields are inputs, with kinds and ranges, only where the node has the part.
TEST(NodeSection, APartsFieldsAreInputsOnlyWhereTheNodeHasIt) {
  auto has = [](const Machine& m, const std::string& field) {
    for (const auto& r : m.ranges) {
      if (r.field == field) return true;
    }
    return false;
  };
  EXPECT_FALSE(has(testing::bgp(), "node.messaging_unit.packets_per_s"));
  const nlohmann::json unit{{"descriptor_cycles", 40}, {"packet_receive_cycles", 25}, {"packets_per_s", 1e9},
                            {"injection_fifos", 32}, {"reception_fifos", 16}};
  const auto machine = load_document(bgp_with({{"messaging_unit", unit}}));
  EXPECT_TRUE(has(machine, "node.messaging_unit.packets_per_s"));
  EXPECT_FALSE(has(machine, "node.near_memory_updates.updates_per_s"));
  const auto* field = input_field("node.messaging_unit.descriptor_cycles", machine);
  ASSERT_NE(field, nullptr);
  EXPECT_DOUBLE_EQ(with_input(machine, *field, 80).node.messaging_unit->descriptor_cycles, 80);
}

// The simulated cores pay what the model counts: the unit's descriptor and
// FIFO read, an atomic update's issue, and a thread's wait on memory.
TEST(SimulationCharges, TheNodesPartsAreChargedAsTheModelCountsThem) {
  const nlohmann::json unit{{"descriptor_cycles", 40}, {"packet_receive_cycles", 25}, {"packets_per_s", 1e9},
                            {"injection_fifos", 32}, {"reception_fifos", 16}};
  const auto machine =
      load_document(bgp_with({{"messaging_unit", unit}, {"near_memory_updates", {{"issue_cycles", 6}, {"updates_per_s", 4e8}}}}));
  const RolePlan plan(4, 3);
  const auto updater = charges_for(machine, Algorithm::multicore, plan, 3, true, OwnerMode::division, 512, 1);
  EXPECT_DOUBLE_EQ(updater.send_call, 40);
  EXPECT_DOUBLE_EQ(updater.receive_call, 25);
  EXPECT_DOUBLE_EQ(updater.apply, 6 + machine.core_overheads(plan)[3]);
  EXPECT_DOUBLE_EQ(updater.apply_wait, 0);
  EXPECT_DOUBLE_EQ(updater.receive_call_overhead, 0);  // a FIFO read a packet, no call
  EXPECT_DOUBLE_EQ(updater.receive_per_packet, 25);
  const auto threaded = load_document(bgp_with({{"threads_per_core", 2}, {"update_issue_cycles", 30}}));
  const auto thread = charges_for(threaded, Algorithm::multicore, plan, 3, true, OwnerMode::division, 512, 1);
  EXPECT_DOUBLE_EQ(thread.apply_wait, threaded.costs.update_streamed - 30);
  EXPECT_DOUBLE_EQ(thread.send_call, threaded.costs.send_call);
}

TEST(ModePlanner, WeighsEachPermittedModeAndChoosesTheHighest) {
  const auto machine = load_document(bgp_with({{"threads_per_core", 2}, {"update_issue_cycles", 30}}));
  const TorusShape shape({8, 8, 8});
  const auto choice = choose_mapping_mode(machine, shape, ModelOptions{});
  double best = 0;
  for (const auto& option : choice.modes) {
    ASSERT_TRUE(option.fits) << option.mode << " " << to_string(option.options.algorithm) << " x"
                             << option.processes_per_node << ": " << option.why_not;
    best = std::max(best, option.gups);
    // Each placement's figure is the prediction of the options it names.
    EXPECT_NEAR(predict(machine, shape, option.options).gups, option.gups, 1e-12);
    EXPECT_EQ(option.options.processes_per_node, option.processes_per_node);
  }
  EXPECT_DOUBLE_EQ(choice.chosen().gups, best);
  EXPECT_DOUBLE_EQ(choice.modes[choice.chosen_index].gups, best);
}

// The search is exhaustive over its stated space: every (permitted mode,
// algorithm that runs in it, processes a node from the counts) once, the
// counts being the powers of two up to the threads, the cores and the
// threads; multicore's groups of whole cores only.
TEST(ModePlanner, TheSearchIsEveryModeAlgorithmAndProcessCountOnce) {
  const auto machine = load_document(bgp_with({{"threads_per_core", 3}, {"update_issue_cycles", 30}}));
  const auto counts = process_counts(machine, ModelOptions{});
  EXPECT_EQ(counts, (std::vector<unsigned>{1, 2, 4, 8, 12}));  // 4 cores of 3 threads
  const auto choice = choose_mapping_mode(machine, TorusShape({4, 4, 4}), ModelOptions{});
  std::set<std::tuple<unsigned, Algorithm, unsigned>> expected, weighed;
  for (unsigned mode = 1; mode <= 8; ++mode) {
    const bool permitted = mode == 1 || mode == 6 || mode == 8;
    for (const auto& row : algorithm_table()) {
      bool runs = true;
      try {
        check_mapping_mode(mode, row.algorithm);
      } catch (const std::invalid_argument&) {
        runs = false;
      }
      if (!permitted || !runs) continue;
      for (unsigned n = 1; n <= 12; ++n) {
        const bool listed = n == 1 || n == 2 || n == 4 || n == 8 || n == 4 || n == 12;
        const bool whole_cores = model_of(row.algorithm) != AlgorithmModel::multicore || (n <= 4 && 4 % n == 0);
        if (listed && whole_cores) expected.insert({mode, row.algorithm, n});
      }
    }
  }
  for (const auto& option : choice.modes) {
    EXPECT_TRUE(weighed.insert({option.mode, option.options.algorithm, option.processes_per_node}).second)
        << "weighed twice";
  }
  EXPECT_EQ(weighed, expected);
  EXPECT_GE(weighed.size(), 12u);
  // Every algorithm of the table is weighed somewhere.
  for (const auto& row : algorithm_table()) {
    EXPECT_TRUE(std::any_of(weighed.begin(), weighed.end(), [&](const auto& w) { return std::get<1>(w) == row.algorithm; }))
        << row.name;
  }
}

// Each placement's look-ahead follows its mode: mode 1 gives every process
// its own (more processes, more in flight a node: bigger direct messages
// per destination process count), mode 6 shares the node's among them.
TEST(ModePlanner, EachPlacementsLookAheadFollowsItsMode) {
  const auto machine = testing::bgp();
  const TorusShape shape({4, 4, 4});
  auto one = direct_with(4), six = direct_with(4);
  one.mapping_mode = 1;
  six.mapping_mode = 6;
  const auto p1 = predict(machine, shape, one), p6 = predict(machine, shape, six);
  EXPECT_DOUBLE_EQ(p1.mean_fill, direct_fill(machine.packet, 256, 1024).mean_updates_per_message);
  EXPECT_DOUBLE_EQ(p6.mean_fill, direct_fill(machine.packet, 64, 1024 / 4).mean_updates_per_message);
  // Routed with 4 processes a node: each its own look-ahead over a torus of
  // processes one dimension longer, so its buckets are those of that torus.
  ModelOptions routed;
  routed.algorithm = Algorithm::routed;
  routed.processes_per_node = 4;
  const auto r4 = predict(machine, shape, routed);
  EXPECT_EQ(r4.processes, 256u);
  EXPECT_EQ(r4.rule_bucket_size, size_buckets(RolePlan(1, 4), TorusShape({4, 4, 4, 4}), 1024).capacity);
  EXPECT_EQ(r4.nodes, 64u);
}

// Mode 6 shares the node's look-ahead among its processes: under a tiny one
// it does not fit, and the planner says why and chooses among the others.
TEST(ModePlanner, AModeWhoseLookAheadLeavesAProcessNothingIsSaidAndPassedOver) {
  const auto machine = testing::bgp();
  ModelOptions options;
  options.lookahead = 3;
  const auto choice = choose_mapping_mode(machine, TorusShape({2, 2, 2}), options);
  const auto six = std::find_if(choice.modes.begin(), choice.modes.end(), [](const ModeOption& o) {
    return o.mode == 6 && o.processes_per_node == 4;
  });
  ASSERT_NE(six, choice.modes.end());
  EXPECT_FALSE(six->fits);
  EXPECT_NE(six->why_not.find("look-ahead"), std::string::npos);
  EXPECT_TRUE(choice.chosen().fits);
  EXPECT_FALSE(choice.chosen().mode == 6 && choice.chosen().processes_per_node == 4);
}

// Modes 5 and 6: updates go to nodes, so a message holds more of them than
// one to a process under the same look-ahead.
TEST(ModePlanner, DirectInModeSixSendsToNodes) {
  const auto machine = testing::bgp();
  auto one = direct_with(4), six = direct_with(4);
  six.mapping_mode = 6;
  const TorusShape shape({8, 8, 8});
  const auto p1 = predict(machine, shape, one), p6 = predict(machine, shape, six);
  EXPECT_EQ(p6.mapping_mode, 6u);
  const auto fill_nodes = direct_fill(machine.packet, 512, 1024 / 4);
  EXPECT_DOUBLE_EQ(p6.mean_fill, fill_nodes.mean_updates_per_message);
  EXPECT_DOUBLE_EQ(p1.mean_fill, direct_fill(machine.packet, 2048, 1024).mean_updates_per_message);
}

}  // namespace
}  // namespace gups::model

namespace gups {
namespace {

// The simulated core's issue shared by its threads: a thread's instructions
// fill the spans the others leave, and wait behind those they hold.
TEST(IssuePort, AThreadAloneIssuesAtOnce) {
  IssuePort port;
  EXPECT_DOUBLE_EQ(port.take(0, 0, 1), 1);
  EXPECT_DOUBLE_EQ(port.take(0, 5, 2), 7);  // from its own time on
}

TEST(IssuePort, ThreadsIssueInTheGapsTheOthersLeave) {
  IssuePort port;
  // Thread A issues [0, 1), waits on memory, issues [3, 4).
  EXPECT_DOUBLE_EQ(port.take(0, 0, 1), 1);
  EXPECT_DOUBLE_EQ(port.take(0, 3, 1), 4);
  // Thread B, ready at 0, issues 2 in A's wait: [1, 3).
  EXPECT_DOUBLE_EQ(port.take(0, 0, 2), 3);
  // Thread C needs 1.5: nothing is free before 4.
  EXPECT_DOUBLE_EQ(port.take(0, 0, 1.5), 5.5);
  EXPECT_EQ(port.spans(), 1u);  // [0, 5.5) in one piece
}

TEST(IssuePort, AThreadSplitsItsIssueAcrossGaps) {
  IssuePort port;
  port.take(0, 1, 1);   // [1, 2)
  port.take(0, 3, 1);   // [3, 4)
  // 2.5 from 0: [0, 1), [2, 3), then [4, 4.5).
  EXPECT_DOUBLE_EQ(port.take(0, 0, 2.5), 4.5);
}

TEST(IssuePort, SpansThatEndedAreForgotten) {
  IssuePort port;
  port.take(0, 0, 1);
  port.take(0, 2, 1);
  EXPECT_EQ(port.spans(), 2u);
  EXPECT_DOUBLE_EQ(port.take(10, 0, 1), 11);  // no thread issues before now
  EXPECT_EQ(port.spans(), 1u);
}

}  // namespace
}  // namespace gups
