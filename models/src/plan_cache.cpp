#include "models/src/plan_cache.hpp"

#include <unordered_map>
#include <vector>

namespace gups::model {
namespace {

// A plan as one number: 16 bits each for the cores, pipelines and updaters, 4 for the dimensions, and one bit per
// cut between consecutive dimensions where a new routing group starts (the groups are a composition of them).
std::uint64_t plan_key(unsigned cores, unsigned dimensions, const PlanSpec& spec) {
  std::uint64_t cuts = 0;
  unsigned dimension = 0;
  for (std::size_t g = 0; g + 1 < spec.groups.size(); ++g) {
    dimension += spec.groups[g];
    cuts |= 1ull << dimension;
  }
  return static_cast<std::uint64_t>(cores) | static_cast<std::uint64_t>(spec.pipelines) << 16 |
         static_cast<std::uint64_t>(spec.updaters) << 32 | static_cast<std::uint64_t>(dimensions) << 48 | cuts << 52;
}

struct ShapeSizings {
  std::vector<std::uint32_t> sizes;
  std::uint64_t lookahead = 0;
  std::unordered_map<const RolePlan*, BucketSizing> by_plan;
};

}  // namespace

const RolePlan& cached_role_plan(unsigned cores, unsigned dimensions, const PlanSpec& spec) {
  thread_local std::unordered_map<std::uint64_t, RolePlan> plans;  // references to elements survive rehashing
  const bool fits_key = cores < (1u << 16) && spec.pipelines < (1u << 16) && spec.updaters < (1u << 16) &&
                        dimensions <= kMaxDimensions;
  if (!fits_key) {  // no node has so many: built each time, kept for the thread all the same
    thread_local std::vector<std::unique_ptr<RolePlan>> others;
    return *others.emplace_back(std::make_unique<RolePlan>(cores, dimensions, spec));
  }
  const auto key = plan_key(cores, dimensions, spec);
  const auto found = plans.find(key);
  if (found != plans.end()) return found->second;
  return plans.emplace(key, RolePlan(cores, dimensions, spec)).first->second;
}

BucketSizing cached_bucket_sizing(const RolePlan& plan, const TorusShape& shape, std::uint64_t lookahead) {
  // By shape and look-ahead (a run asks for a few), then by the plan's address: cached_role_plan's plans live as
  // long as the thread.
  thread_local std::vector<ShapeSizings> shapes;
  thread_local std::size_t last = 0;
  if (last >= shapes.size() || shapes[last].sizes != shape.sizes() || shapes[last].lookahead != lookahead) {
    last = 0;
    while (last < shapes.size() && (shapes[last].sizes != shape.sizes() || shapes[last].lookahead != lookahead)) ++last;
    if (last == shapes.size()) shapes.push_back({shape.sizes(), lookahead, {}});
  }
  auto& by_plan = shapes[last].by_plan;
  const auto found = by_plan.find(&plan);
  if (found != by_plan.end()) return found->second;
  return by_plan.emplace(&plan, size_buckets(plan, shape, lookahead)).first->second;
}

}  // namespace gups::model
