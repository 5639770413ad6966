#include "kernel/core/route_step.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

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
      sole_updater_(plan.updaters() == 1 && plan.updater_core(0) == core) {
  for (unsigned d = 0; d < shape.dimensions(); ++d) {
    first_of_dimension_.push_back(next_.size());
    next_.resize(next_.size() + shape.size(d), -1);
  }
  first_of_dimension_.push_back(next_.size());
  next_.push_back(sole_updater_ ? kApplyHere : -1);  // read only for the sole updater
  for (unsigned u = 0; u < plan.updaters(); ++u) place_of_updater_.push_back(plan.updater_core(u) == core ? kApplyHere : -1);
  node_start_ = layout.global_start(node);
  const std::uint64_t words = layout.local_words(node), parts = plan.updaters();
  if (words % parts == 0 && std::has_single_bit(words / parts)) slice_shift_ = std::countr_zero(words / parts);
}

// Each slice's place is next_bucket() of its first index: within a slice
// the destination node and, there, the updater are the same.
void RouteStep::look_up_by_slice() {
  by_slice_.clear();
  const std::uint64_t nodes = layout_.owners();
  const bool equal_nodes = std::has_single_bit(nodes);  // nodes of 2^k words each: owner = index >> k
  const int bits = sole_updater_ ? std::countr_zero(layout_.local_words(0)) : slice_shift_;
  if (!equal_nodes || bits < 0 || (layout_.total_words() >> bits) > kMostSlicesLookedUp) return;
  const std::uint64_t slices = layout_.total_words() >> bits;
  by_slice_.resize(slices);
  for (std::uint64_t slice = 0; slice < slices; ++slice) {
    const int place = next_bucket(slice << bits);
    if (place < INT16_MIN || place > INT16_MAX) {  // more buckets than a table of int16 says
      by_slice_.clear();
      return;
    }
    by_slice_[slice] = static_cast<std::int16_t>(place);
  }
  index_mask_ = layout_.total_words() - 1;
  slice_bits_ = static_cast<unsigned>(bits);
}

void RouteStep::set_network_bucket(unsigned dimension, std::uint64_t neighbour, int bucket) {
  if (!role_.routes_along(dimension)) throw std::invalid_argument("a network bucket along a dimension this core does not route");
  next_.at(first_of_dimension_.at(dimension) + shape_.coordinate(neighbour, dimension)) = bucket;
}

// The bucket to another core of the node: where it applies the node's
// updates, and where it routes a dimension this core does not.
void RouteStep::set_local_bucket(unsigned receiver_core, int bucket) {
  if (receiver_core >= plan_.cores()) throw std::out_of_range("no such core on the node");
  for (unsigned u = 0; u < plan_.updaters(); ++u) {
    if (plan_.updater_core(u) == receiver_core) place_of_updater_[u] = bucket;
  }
  if (role_.pipeline < 0) return;
  for (unsigned d = 0; d < shape_.dimensions(); ++d) {
    if (role_.routes_along(d) || plan_.router_of(static_cast<unsigned>(role_.pipeline), d) != receiver_core) continue;
    std::fill_n(next_.begin() + static_cast<std::ptrdiff_t>(first_of_dimension_[d]), shape_.size(d), bucket);
  }
}

bool RouteStep::hands_nothing_on() const noexcept {
  return plan_.local_receivers(core_).empty();
}

bool RouteStep::arrivals_apply_here(unsigned dimension) const noexcept {
  if (!sole_updater_) return false;
  for (unsigned e = dimension + 1; e < shape_.dimensions(); ++e) {
    if (shape_.size(e) > 1) return false;
  }
  return true;
}

}  // namespace gups
