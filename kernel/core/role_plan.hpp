// Which core of a node does what, for k cores and a d-dimensional torus:
// k' = min(d, k-1) routing cores own contiguous groups of dimensions (core 0
// also generates), the other k - k' cores apply updates to disjoint slices
// of the node's table. k = 4, d = 3 is the paper's Blue Gene/P plan; k = 1
// is the single-core routed algorithm, one core doing everything.
#pragma once

#include <string>
#include <vector>

#include "kernel/core/torus_shape.hpp"

namespace gups {

struct CoreRole {
  bool generates = false;
  unsigned first_dimension = 0;  // routes along [first_dimension, end_dimension)
  unsigned end_dimension = 0;
  int updater = -1;  // index among the updating cores, -1 for none

  bool routes() const noexcept { return end_dimension > first_dimension; }
  // Applies what it is handed and passes nothing on (the paper's core 3).
  bool only_updates() const noexcept { return updater >= 0 && !routes(); }
  bool routes_along(unsigned d) const noexcept {
    return d >= first_dimension && d < end_dimension;
  }
};

class RolePlan {
 public:
  // Throws std::invalid_argument for zero cores or dimensions outside 1..6.
  RolePlan(unsigned cores, unsigned dimensions);

  unsigned cores() const noexcept { return static_cast<unsigned>(roles_.size()); }
  unsigned dimensions() const noexcept { return dimensions_; }
  unsigned updaters() const noexcept { return static_cast<unsigned>(updater_cores_.size()); }
  const CoreRole& role(unsigned core) const noexcept { return roles_[core]; }
  unsigned router_of(unsigned dimension) const noexcept { return router_of_dimension_[dimension]; }
  unsigned updater_core(unsigned updater) const noexcept { return updater_cores_[updater]; }
  const std::vector<unsigned>& updater_cores() const noexcept { return updater_cores_; }

  // The core of the receiving node that takes a message sent along d: the
  // router of d + 1, and after the last dimension the single updater, or
  // with several updaters the last router, which hands each update to the
  // updater of its slice (updaters never pass updates on, so no cycle of
  // waiting buffers can form).
  unsigned network_receiver(unsigned dimension) const noexcept;

  // Cores of the same node that `core` may hand updates to, and back.
  std::vector<unsigned> local_receivers(unsigned core) const;
  std::vector<unsigned> local_senders(unsigned core) const;
  // Dimensions whose messages `core` receives.
  std::vector<unsigned> incoming_dimensions(unsigned core) const;

  std::string describe(unsigned core) const;

 private:
  unsigned dimensions_;
  std::vector<CoreRole> roles_;
  std::vector<unsigned> router_of_dimension_;
  std::vector<unsigned> updater_cores_;
};

// The static buffers of a node under the look-ahead budget: every send
// bucket, inter-core bucket and posted receive holds at most `capacity`
// updates, so a node never holds more than buckets x capacity <= budget.
struct BucketSizing {
  static constexpr unsigned kReceivesPerDimension = 4;  // the paper's batch of 4 packets

  unsigned network_send = 0;  // one per line neighbour per routed dimension
  unsigned local_send = 0;    // one per (sender core, receiver core) pair
  unsigned network_receive = 0;
  unsigned local_receive = 0;
  unsigned capacity = 0;

  unsigned total() const noexcept {
    return network_send + local_send + network_receive + local_receive;
  }
};

// Buffers of one core, and of a whole node (core = -1).
BucketSizing size_buckets(const RolePlan& plan, const TorusShape& shape, std::uint64_t lookahead,
                          int core = -1);

}  // namespace gups
