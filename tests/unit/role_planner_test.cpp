// The planner against its family: never below the fixed rule, equal to the
// exhaustive search's best, and a node's GUPS never falling with more cores
// (GUPS: the lower of the CPU and network bounds, what the planner maximises).
#include "models/src/role_planner.hpp"

#include <gtest/gtest.h>

#include <string>

#include "models/src/machine.hpp"
#include "tests/unit/shipped_machines.hpp"

namespace gups::model {
namespace {

Machine machine_named(const char* name) { return testing::shipped_machine(name); }

ModelOptions multicore_on(unsigned cores, const char* role_plan = "best") {
  ModelOptions options;
  options.algorithm = Algorithm::multicore;
  options.cores_per_node = cores;
  options.role_plan = role_plan;
  return options;
}

// bgq's overheads are one figure; bgp's are per core of the paper's plan and
// are averaged by kind elsewhere: the planner must be right under both.
TEST(RolePlanner, EqualsTheExhaustiveSearchAndNeverLosesToTheRule) {
  for (const char* name : {"bgq", "bgp"}) {
    auto machine = machine_named(name);
    for (unsigned d = 1; d <= 6; ++d) {
      const auto shape = TorusShape::balanced(d == 1 ? 8 : 64, d);
      for (unsigned k : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 12u, 16u}) {
        SCOPED_TRACE(std::string(name) + " d=" + std::to_string(d) + " k=" + std::to_string(k));
        const auto options = multicore_on(k);
        const auto best = best_role_plan(machine, shape, options);
        const auto exhaustive = exhaustive_role_plan(machine, shape, options);
        EXPECT_NEAR(best.gups, exhaustive.gups, 1e-9 * exhaustive.gups);
        EXPECT_EQ(best.spec.cores(), exhaustive.spec.cores()) << best.spec.to_string() << " vs "
                                                              << exhaustive.spec.to_string();
        const auto rule = predict(machine, shape, multicore_on(k, "paper"));
        EXPECT_GE(best.gups, rule.gups * (1 - 1e-12));
        const auto chosen = predict(machine, shape, options);
        EXPECT_EQ(chosen.role_plan->to_string(), best.spec.to_string());
        EXPECT_DOUBLE_EQ(chosen.cpu_cycles_per_update, best.cycles);
        EXPECT_NEAR(chosen.gups, best.gups, 1e-9 * best.gups);
      }
    }
  }
}

// Blue Gene/Q's full machine: the planner's plan is the family's best there
// too, and it leaves no core slower than the rule's slowest.
TEST(RolePlanner, AtBlueGeneQsFullSizeThePlannerFindsTheExhaustiveBest) {
  const auto machine = machine_named("bgq");
  const auto shape = machine.shape_for(49152);
  const auto options = multicore_on(16);
  const auto best = best_role_plan(machine, shape, options);
  const auto exhaustive = exhaustive_role_plan(machine, shape, options);
  EXPECT_EQ(best.spec.to_string(), exhaustive.spec.to_string());
  EXPECT_NEAR(best.gups, exhaustive.gups, 1e-9 * exhaustive.gups);
  const auto rule = predict(machine, shape, multicore_on(16, "paper"));
  EXPECT_LT(best.cycles, rule.cpu_cycles_per_update / 3);
}

// So many cores that the rule's buckets outnumber the look-ahead: the rule
// is refused, and the planner still finds the plans that fit.
TEST(RolePlanner, ChoosesAPlanWhereTheRuleDoesNotFit) {
  const auto machine = machine_named("bgp");
  const TorusShape shape({8, 8, 8});
  EXPECT_THROW(predict(machine, shape, multicore_on(256, "paper")), std::invalid_argument);
  const auto p = predict(machine, shape, multicore_on(256));
  EXPECT_GT(p.gups, 0);
  EXPECT_LE(p.role_plan->cores(), 256u);
  for (const auto& option : p.role_plans_compared) {
    EXPECT_NE(option.spec.to_string(), PlanSpec::rule(256, 3).to_string());  // it does not fit, so not compared
  }
}

TEST(RolePlanner, TheFamilyIsEveryPlanThatFits) {
  // 1xXYZ+0 to 4xXYZ+0 (pipelines of one core, each updating a slice), then the sum over compositions of 3
  // dims (4: sizes 3; 1+2, 2+1; 1+1+1) of pipelines and updaters within 4 cores.
  const auto family = plan_family(4, 3);
  EXPECT_EQ(family.front().to_string(), "1xXYZ+0");
  EXPECT_EQ(family[3].to_string(), "4xXYZ+0");
  for (const auto& spec : family) EXPECT_LE(spec.cores(), 4u) << spec.to_string();
  // XYZ: P*1+U<=4 -> (1,1..3),(2,1..2),(3,1): 6; two groups: (1,1..2),(2? 4+1>4 no): 2 each -> 4; three: (1,1): 1.
  EXPECT_EQ(family.size(), 4u + 6u + 4u + 1u);
}

TEST(RolePlanner, MoreCoresNeverMeanFewerGups) {
  const auto machine = machine_named("bgq");
  const auto shape = machine.shape_for(256);
  double previous = 0;
  for (unsigned k = 1; k <= 16; ++k) {
    SCOPED_TRACE(k);
    const auto gups = predict(machine, shape, multicore_on(k)).gups;
    EXPECT_GE(gups, previous * (1 - 1e-12)) << k << " cores";
    previous = gups;
  }
  // A 3-D node of up to 64 cores on Blue Gene/P's costs, where small buckets
  // make the network bind: the planner stops adding pipelines there.
  const auto bgp = machine_named("bgp");
  previous = 0;
  for (unsigned k : {4u, 8u, 16u, 32u, 64u}) {
    SCOPED_TRACE(k);
    const auto gups = predict(bgp, bgp.shape_for(512), multicore_on(k)).gups;
    EXPECT_GE(gups, previous * (1 - 1e-12)) << k << " cores";
    previous = gups;
  }
}

// The paper's machine keeps the paper's plan by default: Table 4 is the
// plan's, not the planner's.
TEST(RolePlanner, BlueGenePKeepsThePapersPlanUnlessAsked) {
  const auto machine = machine_named("bgp");
  EXPECT_EQ(machine.role_plan, "paper");
  ModelOptions options;
  options.algorithm = Algorithm::multicore;
  const auto shape = machine.shape_for(512);
  const auto p = predict(machine, shape, options);
  EXPECT_EQ(p.role_plan->to_string(), "1xX/Y/Z+1");
  EXPECT_EQ(p.role_plan_choice, "paper");
  options.role_plan = "best";
  EXPECT_GE(predict(machine, shape, options).cpu_gups, p.cpu_gups);
  options.role_plan = "2xX/YZ+3";
  EXPECT_THROW(predict(machine, shape, options), std::invalid_argument);  // 7 cores on a 4-core node
}

}  // namespace
}  // namespace gups::model
