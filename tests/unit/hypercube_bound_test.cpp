// The hypercube's traffic and bound: its stage arithmetic against a count of
// the HPCC stream pushed through the stages, and the bound's direction in
// each of its costs.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "kernel/core/hpcc_stream.hpp"
#include "kernel/core/hypercube_stages.hpp"
#include "kernel/core/table_layout.hpp"
#include "models/src/bounds.hpp"
#include "models/src/hypercube_traffic.hpp"
#include "models/src/machine_network.hpp"
#include "tests/unit/shipped_machines.hpp"

namespace gups::model {
namespace {

// Of the updates held at each stage (over all processes), the share that
// moved: the HPCC stream of a small table, each process's stretch pushed
// through the stages as the kernel does.
std::vector<double> counted_moved_shares(int processes, unsigned log2_words) {
  const TableLayout layout(log2_words, static_cast<std::uint64_t>(processes));
  const OwnerFinder owner_of(layout, OwnerMode::division);
  const auto stage_count = static_cast<std::size_t>(hypercube_stage_count(processes));
  std::vector<std::vector<std::uint64_t>> held(processes);
  std::uint64_t random = starts(0);
  for (int p = 0; p < processes; ++p) {
    for (std::uint64_t i = 0; i < 4 * layout.local_words(static_cast<std::uint64_t>(p)); ++i) {
      held[p].push_back(random = next_random(random));
    }
  }
  std::vector<double> moved(stage_count, 0), looked_at(stage_count, 0);
  for (std::size_t s = 0; s < stage_count; ++s) {
    std::vector<std::vector<std::uint64_t>> next(processes);
    for (int p = 0; p < processes; ++p) {
      const auto stages = hypercube_stages(p, processes);
      if (s >= stages.size()) {
        next[p].insert(next[p].end(), held[p].begin(), held[p].end());
        continue;
      }
      for (const auto update : held[p]) {
        const bool moves = stages[s].moves(p, owner_of(layout.index_of(update)));
        looked_at[s] += 1;
        moved[s] += moves;
        next[moves ? *stages[s].send_to : p].push_back(update);
      }
    }
    held = std::move(next);
  }
  for (std::size_t s = 0; s < stage_count; ++s) moved[s] /= looked_at[s];
  return moved;
}

TEST(HypercubeTraffic, EachStagesMovedShareIsTheStreamsCount) {
  const auto machine = testing::bgp();
  for (const int processes : {2, 3, 4, 5, 6, 8}) {
    const TorusShape shape = TorusShape::balanced(static_cast<std::uint64_t>(processes));
    const auto links = physical_links(machine, shape, machine.wraps_of(shape));
    const auto traffic = hypercube_traffic(*links, 1);
    // 2^20 words: the stream starts from a sparse state (1), whose first
    // tens of thousands of values favour low owners, which a 2^16 table's
    // stretches are still full of (2% fewer moved at 2 processes).
    const auto counted = counted_moved_shares(processes, 20);
    ASSERT_EQ(traffic.stages.size(), counted.size()) << processes;
    for (std::size_t s = 0; s < counted.size(); ++s) {
      // The model's share is the owners' (the other half's owners over the
      // group's); the stream's is within 1.5% of it (its sparse start).
      EXPECT_NEAR(traffic.stages[s].moved_share, counted[s], 0.015) << processes << " processes, stage " << s;
    }
  }
}

TEST(HypercubeTraffic, ProcessesOfOneNodeExchangeWithoutTheNetwork) {
  const auto machine = testing::bgp();
  const TorusShape shape({2, 2, 2});
  const auto links = physical_links(machine, shape, machine.wraps_of(shape));
  const auto traffic = hypercube_traffic(*links, 4);  // 32 processes, 5 stages: the last 2 inside each node
  ASSERT_EQ(traffic.stages.size(), 5u);
  for (std::size_t s = 0; s < 3; ++s) EXPECT_GT(traffic.stages[s].busiest_link_load, 0) << s;
  for (std::size_t s = 3; s < 5; ++s) {
    EXPECT_EQ(traffic.stages[s].busiest_link_load, 0) << s;
    EXPECT_EQ(traffic.stages[s].longest_route, 0u) << s;
  }
}

// Every cost the bound charges lowers it when raised; none raises it.
TEST(HypercubeBound, IsMonotoneInEachCost) {
  const auto machine = testing::bgp();
  const TorusShape shape({4, 4, 4});
  ModelOptions options;
  options.algorithm = Algorithm::hypercube;
  const double base = predict(machine, shape, options).cpu_gups;
  const std::map<std::string, void (*)(Machine&)> raised{
      {"generate", [](Machine& m) { m.costs.generate *= 2; }},
      {"stage_split", [](Machine& m) { m.costs.stage_split *= 2; }},
      {"update_streamed", [](Machine& m) { m.costs.update_streamed *= 2; }},
      {"send_call", [](Machine& m) { m.costs.send_call *= 2; }},
      {"receive_call_batched", [](Machine& m) { m.costs.receive_call_batched *= 2; }},
      {"link_latency", [](Machine& m) { m.link_latency *= 2; }},
      {"link_bandwidth (halved)", [](Machine& m) { m.link_bandwidth /= 2; }},
  };
  for (const auto& [name, raise] : raised) {
    Machine slower = machine;
    raise(slower);
    EXPECT_LT(predict(slower, shape, options).cpu_gups, base) << name;
  }
  Machine faster = machine;
  faster.costs.stage_split /= 2;
  EXPECT_GT(predict(faster, shape, options).cpu_gups, base);
}

// More stages, more work per update: at twice the processes each process
// makes updates more slowly (one more stage), though the machine makes more.
TEST(HypercubeBound, EachStageAddsItsWork) {
  const auto machine = testing::bgp();
  ModelOptions options;
  options.algorithm = Algorithm::hypercube;
  const auto small = predict(machine, TorusShape({4, 4, 4}), options);
  const auto large = predict(machine, TorusShape({8, 4, 4}), options);
  EXPECT_EQ(small.stages, 6u);
  EXPECT_EQ(large.stages, 7u);
  EXPECT_GT(large.cpu_cycles_per_update, small.cpu_cycles_per_update);
  EXPECT_GT(large.cpu_gups, small.cpu_gups);
  EXPECT_LT(large.cpu_gups / 128, small.cpu_gups / 64);
}

// The stages overlapped on the links allow at least what they do in
// lockstep (the busiest link of a sum carries no more than the sum of each
// stage's busiest), and the same when only one stage crosses the network.
TEST(HypercubeBound, StagesOverlappedAllowAtLeastStagesInLockstep) {
  const auto machine = testing::bgp();
  ModelOptions options;
  options.algorithm = Algorithm::hypercube;
  const auto many = predict(machine, TorusShape({4, 4, 4}), options);
  ASSERT_TRUE(many.overlapped_network_gups && many.network_gups);
  EXPECT_GT(*many.overlapped_network_gups, *many.network_gups * 1.05);
  const auto one = predict(machine, TorusShape({2, 1, 1}), options);  // one stage, between the two nodes
  ASSERT_TRUE(one.overlapped_network_gups && one.network_gups);
  EXPECT_DOUBLE_EQ(*one.overlapped_network_gups, *one.network_gups);
}

}  // namespace
}  // namespace gups::model
