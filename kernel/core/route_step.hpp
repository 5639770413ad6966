// Where an update goes next from one core of one node: into a bucket for a
// line neighbour along a dimension this core routes, into a bucket for
// another core of the node, or into this core's own table. The routing step
// of `routed` and `multicore`, free of MPI, so that calibration times the
// very code a run executes.
#pragma once

#include <cstdint>
#include <vector>

#include "kernel/core/role_plan.hpp"
#include "kernel/core/table_distribution.hpp"
#include "kernel/core/table_layout.hpp"
#include "kernel/core/torus_shape.hpp"

namespace gups {

// A routing core takes its stream this many updates at a time, computed
// ahead so that the words it will apply are already on their way.
inline constexpr std::uint64_t kRoutingGenerateBatch = 64;

class RouteStep {
 public:
  static constexpr int kApplyHere = -1;

  RouteStep(const TableLayout& layout, const OwnerFinder& owner_of, const TorusShape& shape, const RolePlan& plan,
            const TableDistribution& distribution, std::uint64_t node, unsigned core);

  // Buckets are the caller's, numbered by the caller; -1 where there is none.
  void set_network_bucket(unsigned dimension, std::uint64_t neighbour, int bucket);
  void set_local_bucket(unsigned receiver_core, int bucket);
  // This core hands nothing to another core of the node.
  bool hands_nothing_on() const noexcept;

  // The bucket `update` goes to next, or kApplyHere.
  int next_bucket(std::uint64_t update) const noexcept {
    const std::uint64_t index = layout_.index_of(update);
    const std::uint64_t destination = owner_of_(index);
    const unsigned d = shape_.first_difference(node_, destination);
    if (d == shape_.dimensions()) {
      if (sole_updater_) return kApplyHere;
      const unsigned updater_core = plan_.updater_core(distribution_.updater_of(node_, index));
      return updater_core == core_ ? kApplyHere : local_bucket_of_core_[updater_core];
    }
    if (role_.routes_along(d)) return network_bucket_[d][shape_.coordinate(destination, d)];
    return local_bucket_of_core_[plan_.router_of(static_cast<unsigned>(role_.pipeline), d)];
  }

 private:
  const TableLayout& layout_;
  const OwnerFinder& owner_of_;
  const TorusShape& shape_;
  const RolePlan& plan_;
  const TableDistribution& distribution_;
  const std::uint64_t node_;
  const unsigned core_;
  const CoreRole& role_;
  // The node's only updater (routed: every core): the node's updates are all its own.
  const bool sole_updater_;
  std::vector<std::vector<int>> network_bucket_;  // [dimension][coordinate]
  std::vector<int> local_bucket_of_core_;
};

}  // namespace gups
