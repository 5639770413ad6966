// Role plans and their bucket sizing depend on the node's cores, the torus
// and the look-ahead only, never on a cost: the planner tries thousands of
// plans at every size, and an interval asks again at each of its draws, so
// each is built once per thread (SMPI-free, so one per program's thread).
#pragma once

#include <cstdint>
#include <memory>

#include "kernel/core/role_plan.hpp"
#include "kernel/core/torus_shape.hpp"

namespace gups::model {

// Throws as RolePlan's constructor does for a plan the node cannot hold.
const RolePlan& cached_role_plan(unsigned cores, unsigned dimensions, const PlanSpec& spec);

// size_buckets(plan, shape, lookahead) for the whole node, of a plan
// cached_role_plan gave (it is known by its address).
BucketSizing cached_bucket_sizing(const RolePlan& plan, const TorusShape& shape, std::uint64_t lookahead);

}  // namespace gups::model
