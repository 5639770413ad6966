#include "kernel/core/mapping_mode.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "kernel/core/algorithm_setup.hpp"

namespace gups {
namespace {

TEST(MappingMode, FollowsTheRowsOfTable1) {
  // Mode: table, generation, limit (N = per node).
  const bool rows[8][3] = {{false, false, false}, {false, false, true}, {false, true, false}, {false, true, true},
                           {true, false, false},  {true, false, true},  {true, true, false},  {true, true, true}};
  for (unsigned n = 1; n <= 8; ++n) {
    const auto mode = mapping_mode(n);
    EXPECT_EQ(mode.table_per_node, rows[n - 1][0]) << n;
    EXPECT_EQ(mode.generation_per_node, rows[n - 1][1]) << n;
    EXPECT_EQ(mode.limit_per_node, rows[n - 1][2]) << n;
  }
  EXPECT_EQ(mapping_mode(6).describe(), "table N, generation C, limit N");
  EXPECT_THROW(mapping_mode(0), std::invalid_argument);
  EXPECT_THROW(mapping_mode(9), std::invalid_argument);
}

TEST(MappingMode, OnlyModes5And6LetSeveralCoresUpdateOneTable) {
  for (unsigned n = 1; n <= 8; ++n) EXPECT_EQ(mapping_mode(n).cores_share_table(), n == 5 || n == 6) << n;
}

TEST(MappingMode, EachAlgorithmRunsItsModesAndRefusesTheOthersWithTheReason) {
  const auto runs = [](unsigned n, Algorithm a) {
    try {
      check_mapping_mode(n, a);
      return std::string("runs");
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
  };
  for (unsigned n : {1u, 5u, 6u}) EXPECT_EQ(runs(n, Algorithm::direct), "runs") << n;
  EXPECT_EQ(runs(1, Algorithm::routed), "runs");
  for (unsigned n : {7u, 8u}) EXPECT_EQ(runs(n, Algorithm::multicore), "runs") << n;
  for (unsigned n : {2u, 3u, 4u}) {
    for (auto a : {Algorithm::direct, Algorithm::routed, Algorithm::multicore}) {
      EXPECT_NE(runs(n, a).find("rules out modes 2, 3 and 4"), std::string::npos) << n;
    }
  }
  EXPECT_NE(runs(7, Algorithm::direct).find("multicore's"), std::string::npos);
  EXPECT_NE(runs(5, Algorithm::routed).find("one rank per node"), std::string::npos);
  EXPECT_NE(runs(5, Algorithm::multicore).find("one stream per node"), std::string::npos);
  EXPECT_EQ(default_mapping_mode(Algorithm::direct), 1u);
  EXPECT_EQ(default_mapping_mode(Algorithm::multicore), 8u);
}

TEST(MappingMode, PutsTheLimitPerCoreOrPerNode) {
  const auto limits = [](unsigned n) { return lookahead_limits(mapping_mode(n), 1024, 4); };
  EXPECT_EQ(limits(1).per_core, 1024u);
  EXPECT_EQ(limits(1).per_node, 1024u);  // a core is its own node
  EXPECT_EQ(limits(5).per_core, 1024u);
  EXPECT_EQ(limits(5).per_node, 4096u);
  EXPECT_EQ(limits(6).per_core, 256u);
  EXPECT_EQ(limits(6).per_node, 1024u);
  EXPECT_EQ(limits(7).per_node, 4096u);
  EXPECT_EQ(limits(8).per_node, 1024u);
}

TEST(MappingMode, SetsUpDirectWithSharedTablesAndMulticoreWithCoreLimits) {
  RunConfig config;
  config.algorithm = Algorithm::direct;
  config.mapping_mode = 6;
  config.cores_per_node = 2;
  auto setup = plan_algorithm(config, 8);
  EXPECT_EQ(setup.nodes, 4u);
  EXPECT_TRUE(setup.cores_share_table());
  EXPECT_EQ(setup.updater_cores(), (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(setup.limits.per_core, 512u);
  EXPECT_THROW(plan_algorithm(config, 7), std::invalid_argument);  // not nodes x cores
  config.lookahead = 1;
  EXPECT_THROW(plan_algorithm(config, 8), std::invalid_argument);  // half an update each

  RunConfig multicore;
  multicore.algorithm = Algorithm::multicore;
  multicore.shape = "1x1x1";
  multicore.cores_per_node = 2;
  multicore.mapping_mode = 8;
  const auto node_limit = plan_algorithm(multicore, 2).node_buckets;
  multicore.mapping_mode = 7;
  const auto core_limits = plan_algorithm(multicore, 2).node_buckets;
  EXPECT_EQ(core_limits.capacity, 2 * node_limit.capacity);  // twice the updates per node, same buckets
}

}  // namespace
}  // namespace gups
