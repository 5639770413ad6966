#include "sim/plan/run_plan.hpp"

#include <gtest/gtest.h>

namespace gups::topology {
namespace {

TEST(RunPlan, DefaultLengthIsLongestWhereRunsAreCheapAndAtLeastFourLookAheadsAtScale) {
  EXPECT_EQ(default_updates_per_node(8), 16384u);
  EXPECT_EQ(default_updates_per_node(64), 16384u);
  EXPECT_EQ(default_updates_per_node(128), 8192u);
  EXPECT_EQ(default_updates_per_node(4096), 8192u);
  EXPECT_EQ(default_updates_per_node(8192), 4096u);
  EXPECT_EQ(default_updates_per_node(65536), 4096u);
}

TEST(RunPlan, AnUnaskedLengthIsTheDefaultAndMinimumOrFixedLengthsOverrideIt) {
  PlanRequest request;
  request.nodes = 512;
  EXPECT_EQ(plan_run(request).updates_per_node, default_updates_per_node(512));
  request.min_updates_per_node = 4 * default_updates_per_node(512);
  EXPECT_EQ(plan_run(request).updates_per_node, 4 * default_updates_per_node(512));
  request.updates_per_node = 1024;
  EXPECT_EQ(plan_run(request).updates_per_node, 1024u);
}

}  // namespace
}  // namespace gups::topology
