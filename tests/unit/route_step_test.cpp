#include "kernel/core/route_step.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace gups {
namespace {

// A core's buckets numbered as the routing core numbers them, and where an
// update should go next worked out the long way: owner, coordinates
// compared one dimension at a time, the plan's roles.
struct RoutedCore {
  const TorusShape& shape;
  const RolePlan& plan;
  const TableDistribution& distribution;
  const OwnerFinder& owner_of;
  const TableLayout& layout;
  std::uint64_t node;
  unsigned core;
  RouteStep route;
  std::map<std::pair<unsigned, std::uint64_t>, int> network;  // (dimension, neighbour) -> bucket
  std::map<unsigned, int> local;                              // receiving core -> bucket

  RoutedCore(const TorusShape& s, const RolePlan& p, const TableDistribution& dist, const OwnerFinder& owners,
             const TableLayout& l, std::uint64_t n, unsigned c)
      : shape(s), plan(p), distribution(dist), owner_of(owners), layout(l), node(n), core(c),
        route(l, owners, s, p, dist, n, c) {
    int next = 0;
    const auto& role = plan.role(core);
    for (unsigned d = role.first_dimension; d < role.end_dimension; ++d) {
      for (const auto neighbour : shape.line_neighbours(node, d)) {
        network[{d, neighbour}] = next;
        route.set_network_bucket(d, neighbour, next++);
      }
    }
    for (const auto receiver : plan.local_receivers(core)) {
      local[receiver] = next;
      route.set_local_bucket(receiver, next++);
    }
    route.look_up_by_slice();
  }

  // The updates that reach the core: those still to be routed along its
  // first dimension or later (a core that routes Y gets none still to go
  // along X).
  bool reaches(std::uint64_t update) const {
    const std::uint64_t destination = owner_of(layout.index_of(update));
    for (unsigned d = 0; d < plan.role(core).first_dimension; ++d) {
      if (shape.coordinate(node, d) != shape.coordinate(destination, d)) return false;
    }
    return true;
  }

  int expected(std::uint64_t update) const {
    const std::uint64_t index = layout.index_of(update);
    const std::uint64_t destination = owner_of(index);
    unsigned d = 0;
    while (d < shape.dimensions() && shape.coordinate(node, d) == shape.coordinate(destination, d)) ++d;
    const auto& role = plan.role(core);
    if (d == shape.dimensions()) {
      const unsigned updater = plan.updater_core(distribution.updater_of(node, index));
      return updater == core ? RouteStep::kApplyHere : local.at(updater);
    }
    if (role.routes_along(d)) {
      return network.at({d, shape.with_coordinate(node, d, shape.coordinate(destination, d))});
    }
    return local.at(plan.router_of(static_cast<unsigned>(role.pipeline), d));
  }
};

// Every routing core of every node, on shapes with power-of-two sides (the
// lookup without a branch) and others, one core a node and four.
TEST(RouteStep, NextBucketIsTheDimensionOrderedHopOrTheUpdater) {
  for (const char* text : {"2x1x1", "4x4x4", "8x1x2", "3x5x2", "6x4"}) {
    const TorusShape shape = TorusShape::parse(text);
    // One core a node, the paper's four, and four with two pipelines of one core that each update a slice.
    for (const auto& [cores, pipelines_of_one] : {std::pair{1u, false}, std::pair{4u, false}, std::pair{4u, true}}) {
      const RolePlan plan = pipelines_of_one ? RolePlan(cores, shape.dimensions(), PlanSpec{2, {shape.dimensions()}, 0})
                                             : RolePlan(cores, shape.dimensions());
      const TableLayout layout(14, shape.nodes());
      const OwnerFinder owner_of(layout, OwnerMode::division);
      const TableDistribution distribution(layout, cores, plan.updater_cores());
      for (std::uint64_t node = 0; node < shape.nodes(); ++node) {
        for (unsigned core = 0; core < cores; ++core) {
          if (!plan.role(core).routes()) continue;
          SCOPED_TRACE(std::string(text) + " plan " + plan.spec().to_string() + " node " + std::to_string(node) +
                       " core " + std::to_string(core));
          const RoutedCore routed(shape, plan, distribution, owner_of, layout, node, core);
          std::mt19937_64 values(node * 977 + core);  // any 64-bit values, well spread over the owners
          int here = 0;
          std::vector<std::uint64_t> reaching;
          for (int i = 0; i < 400; ++i) {
            const std::uint64_t update = values();
            if (!routed.reaches(update)) continue;
            ASSERT_EQ(routed.route.next_bucket(update), routed.expected(update)) << update;
            here += routed.route.next_bucket(update) == RouteStep::kApplyHere;
            reaching.push_back(update);
          }
          // The batch a run takes, looked up by slice where the table splits into powers of two.
          EXPECT_EQ(routed.route.looks_up_by_slice(), std::has_single_bit(shape.nodes()));
          std::vector<int> batch(reaching.size());
          routed.route.next_buckets(reaching.data(), reaching.size(), batch.data());
          for (std::size_t i = 0; i < reaching.size(); ++i) ASSERT_EQ(batch[i], routed.expected(reaching[i])) << reaching[i];
          if (cores == 1) {
            EXPECT_GT(here, 0);  // the node's own updates were among them
          }
        }
      }
    }
  }
}

// Past kMostSlicesLookedUp slices the batch takes the general path, to the same places.
TEST(RouteStep, ManySlicesAreRoutedWithoutTheLookup) {
  const TorusShape shape = TorusShape::parse("16x16x32");
  ASSERT_GT(shape.nodes(), RouteStep::kMostSlicesLookedUp);
  const RolePlan plan(1, shape.dimensions());
  const TableLayout layout(20, shape.nodes());
  const OwnerFinder owner_of(layout, OwnerMode::division);
  const TableDistribution distribution(layout, 1, plan.updater_cores());
  const RoutedCore routed(shape, plan, distribution, owner_of, layout, 77, 0);
  EXPECT_FALSE(routed.route.looks_up_by_slice());
  std::mt19937_64 values(5);
  std::vector<std::uint64_t> updates(64);
  for (auto& update : updates) update = values();
  std::vector<int> batch(updates.size());
  routed.route.next_buckets(updates.data(), updates.size(), batch.data());
  for (std::size_t i = 0; i < updates.size(); ++i) EXPECT_EQ(batch[i], routed.expected(updates[i]));
}

// An update that arrives along d has the destination's coordinates up to
// d; where arrivals_apply_here(d) says so, every such update is applied
// here, and where it does not, some such update goes on.
TEST(RouteStep, ArrivalsApplyHereExactlyWhenNothingIsLeftToRoute) {
  for (const char* text : {"2x1x1", "4x4x4", "4x2x1", "3x1x1", "1x3x1"}) {
    const TorusShape shape = TorusShape::parse(text);
    const RolePlan plan(1, shape.dimensions());
    const TableLayout layout(12, shape.nodes());
    const OwnerFinder owner_of(layout, OwnerMode::division);
    const TableDistribution distribution(layout, 1, plan.updater_cores());
    const std::uint64_t node = shape.nodes() - 1;
    const RoutedCore routed(shape, plan, distribution, owner_of, layout, node, 0);
    for (unsigned d = 0; d < shape.dimensions(); ++d) {
      if (shape.size(d) == 1) continue;  // nothing arrives along it
      SCOPED_TRACE(std::string(text) + " dimension " + std::to_string(d));
      bool all_here = true, any = false;
      std::mt19937_64 values(d + 1);
      for (int i = 0; i < 4000; ++i) {
        const std::uint64_t update = values();
        const std::uint64_t destination = owner_of(layout.index_of(update));
        bool arrives = true;
        for (unsigned e = 0; e <= d; ++e) arrives &= shape.coordinate(destination, e) == shape.coordinate(node, e);
        if (!arrives) continue;
        any = true;
        all_here &= routed.route.next_bucket(update) == RouteStep::kApplyHere;
      }
      ASSERT_TRUE(any);
      EXPECT_EQ(routed.route.arrivals_apply_here(d), all_here);
    }
  }
  // With several cores a node, the core routing the last dimension hands its arrivals to an updater.
  const TorusShape shape = TorusShape::parse("2x1x1");
  const RolePlan plan(2, 3);
  const TableLayout layout(12, shape.nodes());
  const OwnerFinder owner_of(layout, OwnerMode::division);
  const TableDistribution distribution(layout, 2, plan.updater_cores());
  const RouteStep route(layout, owner_of, shape, plan, distribution, 0, 0);
  EXPECT_FALSE(route.arrivals_apply_here(0));
}

}  // namespace
}  // namespace gups
