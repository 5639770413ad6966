#include "kernel/core/role_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "kernel/core/algorithm_setup.hpp"
#include "kernel/core/table_distribution.hpp"

namespace gups {
namespace {

TEST(RolePlan, FourCoresOnThreeDimensionsIsThePapersPlan) {
  const RolePlan plan(4, 3);
  EXPECT_EQ(plan.describe(0), "generate, route X");
  EXPECT_EQ(plan.describe(1), "receive X, route Y");
  EXPECT_EQ(plan.describe(2), "receive Y, route Z");
  EXPECT_EQ(plan.describe(3), "receive Z, update the table");
  EXPECT_EQ(plan.local_receivers(0), (std::vector<unsigned>{1, 2, 3}));
  EXPECT_EQ(plan.local_senders(3), (std::vector<unsigned>{0, 1, 2}));
}

// Without separate updaters each pipeline is one core that also applies its
// slice: it hands the other slices to their cores and takes its own from them.
TEST(RolePlan, PipelinesOfOneCoreEachUpdateASlice) {
  const RolePlan plan(4, 3, PlanSpec::parse("3xXYZ+0", 3));
  EXPECT_EQ(plan.updaters(), 3u);
  EXPECT_EQ(plan.updater_cores(), (std::vector<unsigned>{0, 1, 2}));
  for (unsigned core = 0; core < 3; ++core) {
    EXPECT_TRUE(plan.role(core).generates);
    EXPECT_EQ(plan.role(core).updater, static_cast<int>(core));
    std::vector<unsigned> others;
    for (unsigned other = 0; other < 3; ++other) {
      if (other != core) others.push_back(other);
    }
    EXPECT_EQ(plan.local_receivers(core), others);
    EXPECT_EQ(plan.local_senders(core), others);
    EXPECT_EQ(plan.network_receiver(core, 2), core);  // the last dimension lands on the pipeline's own core
  }
  EXPECT_TRUE(plan.role(3).idle());
  EXPECT_EQ(plan.describe(1), "pipeline 2: generate, receive XYZ, route XYZ, update table slice 2/3");
  // Four buffers a core on a 1x1x1 torus: none for the network, one to and one from each other core.
  const auto sizing = size_buckets(plan, TorusShape({1, 1, 1}), 1024);
  EXPECT_EQ(sizing.local_send, 6u);
  EXPECT_EQ(sizing.local_receive, 6u);
  EXPECT_EQ(sizing.capacity, 1024u / 12);
}

TEST(RolePlan, OneCoreDoesEverything) {
  const RolePlan plan(1, 3);
  EXPECT_EQ(plan.describe(0), "generate, receive XYZ, route XYZ, update the table");
  EXPECT_TRUE(plan.local_receivers(0).empty());
}

// Every dimension routed by exactly one core, groups contiguous and in
// order, core 0 generating, at least one updater, and the cores split as
// k' = min(d, k - 1) routers.
TEST(RolePlan, AnyCoreCountAndDimensionCountGivesAValidPlan) {
  for (unsigned k : {1u, 2u, 4u, 8u, 16u}) {
    for (unsigned d : {1u, 2u, 3u, 5u, 6u}) {
      const RolePlan plan(k, d);
      SCOPED_TRACE("k=" + std::to_string(k) + " d=" + std::to_string(d));
      const unsigned routers = k == 1 ? 1 : std::min(d, k - 1);
      EXPECT_EQ(plan.updaters(), k == 1 ? 1 : k - routers);
      EXPECT_TRUE(plan.role(0).generates);
      unsigned next = 0;
      for (unsigned core = 0; core < routers; ++core) {
        EXPECT_EQ(plan.role(core).first_dimension, next);
        EXPECT_GE(plan.role(core).end_dimension, next + d / routers);
        EXPECT_LE(plan.role(core).end_dimension, next + d / routers + 1);
        next = plan.role(core).end_dimension;
      }
      EXPECT_EQ(next, d);
      for (unsigned dim = 0; dim < d; ++dim) {
        EXPECT_TRUE(plan.role(plan.router_of(0, dim)).routes_along(dim));
        // A message along dim goes to a core that routes the next
        // dimension, or updates, or dispatches to the updaters.
        const unsigned receiver = plan.network_receiver(plan.router_of(0, dim), dim);
        if (dim + 1 < d) {
          EXPECT_TRUE(plan.role(receiver).routes_along(dim + 1));
        } else if (plan.updaters() == 1) {
          EXPECT_GE(plan.role(receiver).updater, 0);
        } else {
          EXPECT_TRUE(plan.role(receiver).routes_along(dim));
        }
      }
      // Updaters never hand updates on: no cycle of waiting buffers.
      for (const auto core : plan.updater_cores()) {
        if (k > 1) {
          EXPECT_TRUE(plan.local_receivers(core).empty());
        }
      }
    }
  }
  EXPECT_THROW(RolePlan(0, 3), std::invalid_argument);
  EXPECT_THROW(RolePlan(4, 7), std::invalid_argument);
}

TEST(BucketSizing, FourCoresThreeDimensionsCountsXPlusYPlusZPlus21) {
  const RolePlan plan(4, 3);
  for (std::uint32_t side : {4u, 8u, 16u, 32u}) {
    const TorusShape shape({side, side, side});
    const auto sizing = size_buckets(plan, shape, 1024);
    EXPECT_EQ(sizing.total(), 3 * side + 21);
    EXPECT_EQ(sizing.capacity, 1024 / (3 * side + 21));
    EXPECT_LE(sizing.total() * sizing.capacity, 1024u);
  }
  const auto table4 = size_buckets(plan, TorusShape({4, 4, 8}), 1024);  // 128 nodes
  EXPECT_EQ(table4.total(), 37u);
  EXPECT_EQ(table4.capacity, 27u);  // the paper's Table 4 also says 27
}

TEST(BucketSizing, PerCoreCountsAddUpToTheNode) {
  const RolePlan plan(8, 5);
  const TorusShape shape({2, 3, 2, 2, 3});
  const auto node = size_buckets(plan, shape, 4096);
  unsigned total = 0;
  for (unsigned core = 0; core < plan.cores(); ++core) {
    const auto own = size_buckets(plan, shape, 4096, static_cast<int>(core));
    total += own.total();
    EXPECT_EQ(own.capacity, node.capacity);
  }
  EXPECT_EQ(total, node.total());
}

TEST(AlgorithmSetup, RejectsRankCountsShapesAndBudgetsThatDoNotFit) {
  RunConfig config;
  config.algorithm = Algorithm::multicore;
  EXPECT_EQ(plan_algorithm(config, 32).shape->to_string(), "2x2x2");
  EXPECT_THROW(plan_algorithm(config, 30), std::invalid_argument);  // not nodes x 4
  config.shape = "2x2x3";
  EXPECT_THROW(plan_algorithm(config, 32), std::invalid_argument);  // 12 nodes != 8
  config.shape = "2x2x2";
  config.lookahead = 16;  // 6 + 6 + 12 + 3 = 27 buckets
  EXPECT_THROW(plan_algorithm(config, 32), std::invalid_argument);
  config.lookahead = 27;
  EXPECT_EQ(plan_algorithm(config, 32).node_buckets.capacity, 1u);

  RunConfig routed;
  routed.algorithm = Algorithm::routed;
  routed.cores_per_node = 4;
  EXPECT_THROW(plan_algorithm(routed, 8), std::invalid_argument);
  RunConfig direct;
  direct.shape = "2x2x2";
  EXPECT_THROW(plan_algorithm(direct, 8), std::invalid_argument);
}

TEST(TableDistribution, UpdaterSlicesCoverEachNodeOnce) {
  const TableLayout layout(10, 3);
  const RolePlan plan(8, 3);  // 3 routers, 5 updaters
  const TableDistribution distribution(layout, 8, plan.updater_cores());
  std::vector<int> holder(layout.total_words(), -1);
  for (std::uint64_t rank = 0; rank < distribution.ranks(); ++rank) {
    const auto slice = distribution.slice_of_rank(rank);
    if (rank % 8 < 3) {
      EXPECT_EQ(slice.words, 0u);
    }
    for (std::uint64_t g = slice.global_start; g < slice.global_start + slice.words; ++g) {
      ASSERT_EQ(holder[g], -1);
      holder[g] = static_cast<int>(rank);
    }
  }
  for (std::uint64_t g = 0; g < layout.total_words(); ++g) {
    ASSERT_EQ(holder[g], static_cast<int>(distribution.rank_holding(g))) << g;
  }
}

}  // namespace
}  // namespace gups

namespace gups {
namespace {

TEST(PlanSpec, ReadsAndWritesTheSameText) {
  for (const char* text : {"1xXYZ+0", "1xX/Y/Z+1", "2xX/YZ+3", "4xXY/ZU/V+3", "15xXYZUV+1"}) {
    const auto dims = static_cast<unsigned>(std::string(text).find('+') - std::string(text).find('x') - 1 -
                                            std::count(text, text + std::strlen(text), '/'));
    EXPECT_EQ(PlanSpec::parse(text, dims).to_string(), text);
  }
  EXPECT_EQ(PlanSpec::parse("2xX/YZ+3", 3), (PlanSpec{2, {1, 2}, 3}));
  EXPECT_EQ(PlanSpec::parse("2xX/YZ+3", 3).cores(), 7u);
}

TEST(PlanSpec, BadSpecsAreNamedNotGuessed) {
  for (const char* bad : {"", "2x", "X/Y/Z+1", "2xX/Y+1", "2xX/Z/Y+1", "2xX//YZ+1", "0xXYZ+1", "2xX/YZ+0",
                          "1xX/YZ+0", "axXYZ+1", "1xXYZ+b", "1xXYZW+1"}) {
    try {
      PlanSpec::parse(bad, 3);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find(std::string("'") + bad + "'"), std::string::npos) << error.what();
    }
  }
  EXPECT_THROW(RolePlan(4, 3, PlanSpec{2, {1, 2}, 1}), std::invalid_argument);  // needs 5 cores
}

TEST(PlanSpec, TheRuleIsTheFixedPlan) {
  EXPECT_EQ(PlanSpec::rule(4, 3).to_string(), "1xX/Y/Z+1");
  EXPECT_EQ(PlanSpec::rule(1, 3).to_string(), "1xXYZ+0");
  EXPECT_EQ(PlanSpec::rule(16, 5).to_string(), "1xX/Y/Z/U/V+11");
  EXPECT_EQ(PlanSpec::rule(3, 3).to_string(), "1xX/YZ+1");
  for (unsigned k : {1u, 2u, 4u, 16u}) {
    for (unsigned d : {1u, 3u, 6u}) {
      const RolePlan rule(k, d), spelled(k, d, PlanSpec::rule(k, d));
      for (unsigned core = 0; core < k; ++core) EXPECT_EQ(rule.describe(core), spelled.describe(core));
    }
  }
}

// Two pipelines of X then YZ, three updaters, one idle core of eight.
TEST(RolePlan, PipelinesRouteAmongThemselvesAndShareTheUpdaters) {
  const RolePlan plan(8, 3, PlanSpec{2, {1, 2}, 3});
  EXPECT_EQ(plan.pipelines(), 2u);
  EXPECT_EQ(plan.busy_cores(), 7u);
  EXPECT_EQ(plan.describe(0), "pipeline 1: generate, route X");
  EXPECT_EQ(plan.describe(1), "pipeline 1: receive XYZ, route YZ");
  EXPECT_EQ(plan.describe(2), "pipeline 2: generate, route X");
  EXPECT_EQ(plan.describe(3), "pipeline 2: receive XYZ, route YZ");
  EXPECT_EQ(plan.describe(4), "update table slice 1/3");
  EXPECT_EQ(plan.describe(7), "idle");
  EXPECT_TRUE(plan.role(7).idle());
  // A message along X from pipeline 2 lands on pipeline 2's YZ router; the
  // last dimension's on the pipeline's own router, which dispatches.
  EXPECT_EQ(plan.network_receiver(2, 0), 3u);
  EXPECT_EQ(plan.network_receiver(3, 2), 3u);
  EXPECT_TRUE(plan.dispatches(3));
  EXPECT_FALSE(plan.dispatches(2));
  EXPECT_EQ(plan.local_receivers(0), (std::vector<unsigned>{1, 4, 5, 6}));
  EXPECT_EQ(plan.local_receivers(2), (std::vector<unsigned>{3, 4, 5, 6}));
  EXPECT_EQ(plan.local_senders(4), (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_TRUE(plan.local_receivers(7).empty());
  EXPECT_EQ(plan.incoming_pipelines(3, 2), 1u);
  // One updater takes the last dimension from every pipeline.
  const RolePlan shared(4, 3, PlanSpec{3, {3}, 1});
  EXPECT_EQ(shared.incoming_pipelines(3, 2), 3u);
  EXPECT_EQ(shared.incoming_dimensions(3), (std::vector<unsigned>{2}));
  // The pipelines split the node's stream with nothing lost or repeated.
  std::uint64_t covered = 0;
  for (unsigned p = 0; p < shared.pipelines(); ++p) {
    EXPECT_EQ(shared.stream_begin(p, 1000), covered);
    covered = shared.stream_begin(p + 1, 1000);
  }
  EXPECT_EQ(covered, 1000u);
}

}  // namespace
}  // namespace gups
