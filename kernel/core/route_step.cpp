#include "kernel/core/route_step.hpp"

#include <algorithm>

namespace gups {

RouteStep::RouteStep(const TableLayout& layout, const OwnerFinder& owner_of, const TorusShape& shape,
                     const RolePlan& plan, const TableDistribution& distribution, std::uint64_t node, unsigned core)
    : layout_(layout),
      owner_of_(owner_of),
      shape_(shape),
      plan_(plan),
      distribution_(distribution),
      node_(node),
      core_(core),
      role_(plan.role(core)),
      sole_updater_(plan.updaters() == 1 && plan.updater_core(0) == core),
      network_bucket_(shape.dimensions()),
      local_bucket_of_core_(plan.cores(), -1) {
  for (unsigned d = role_.first_dimension; d < role_.end_dimension; ++d) network_bucket_[d].assign(shape.size(d), -1);
}

void RouteStep::set_network_bucket(unsigned dimension, std::uint64_t neighbour, int bucket) {
  network_bucket_.at(dimension).at(shape_.coordinate(neighbour, dimension)) = bucket;
}

void RouteStep::set_local_bucket(unsigned receiver_core, int bucket) { local_bucket_of_core_.at(receiver_core) = bucket; }

bool RouteStep::hands_nothing_on() const noexcept {
  return std::all_of(local_bucket_of_core_.begin(), local_bucket_of_core_.end(), [](int b) { return b < 0; });
}

}  // namespace gups
