// Which core of a node does what. A plan has one or more pipelines, each a
// share of the node's stream with routing cores of its own: the pipeline's
// first core generates, and each of its cores routes a contiguous group of
// dimensions, in order. Pipeline p of one node sends only to pipeline p of
// its neighbours, so each pipeline is a virtual torus of its own. After the
// last dimension every update goes to the updater owning its slice of the
// node's table. Cores past the plan's are idle.
//
// RolePlan(k, d) is the fixed rule: one pipeline of k' = min(d, k-1) routing
// cores, the other k - k' cores updaters. k = 4, d = 3 is the paper's Blue
// Gene/P plan; k = 1 is the single-core routed algorithm, one core doing
// everything (a plan of one pipeline, one group and no separate updater).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/core/torus_shape.hpp"

namespace gups {

// Dimension d's letter in plans and role descriptions.
inline constexpr std::string_view kDimensionNames = "XYZUVW";

// A plan by its shape, as `--role-plan` spells it: "2xX/YZ+3" is two
// pipelines, each routing X on one core and YZ on another, then 3 updaters
// (cores 0-1 pipeline 1, cores 2-3 pipeline 2, cores 4-6 updaters).
// "1xXYZ+0" is one core doing everything.
struct PlanSpec {
  unsigned pipelines = 1;
  std::vector<unsigned> groups;  // dimensions routed by each core of a pipeline, in order
  unsigned updaters = 1;

  unsigned cores() const noexcept {
    return pipelines * static_cast<unsigned>(groups.size()) + updaters;
  }
  unsigned dimensions() const noexcept;
  std::string to_string() const;
  // Throws std::invalid_argument naming what is wrong.
  static PlanSpec parse(const std::string& text, unsigned dimensions);
  // The fixed rule's plan for k cores and d dimensions.
  static PlanSpec rule(unsigned cores, unsigned dimensions);
  // Throws std::invalid_argument unless the spec is one the kernel runs.
  void check(unsigned dimensions) const;

  bool operator==(const PlanSpec&) const = default;
};

struct CoreRole {
  bool generates = false;
  unsigned first_dimension = 0;  // routes along [first_dimension, end_dimension)
  unsigned end_dimension = 0;
  int updater = -1;   // index among the updating cores, -1 for none
  int pipeline = -1;  // the pipeline it routes in, -1 for none

  bool routes() const noexcept { return end_dimension > first_dimension; }
  // Applies what it is handed and passes nothing on (the paper's core 3).
  bool only_updates() const noexcept { return updater >= 0 && !routes(); }
  bool idle() const noexcept { return updater < 0 && !routes(); }
  bool routes_along(unsigned d) const noexcept {
    return d >= first_dimension && d < end_dimension;
  }
};

class RolePlan {
 public:
  // The fixed rule. Throws std::invalid_argument for zero cores or
  // dimensions outside 1..6.
  RolePlan(unsigned cores, unsigned dimensions);
  // `spec` on a node of `cores` cores; throws std::invalid_argument when it
  // needs more cores than there are.
  RolePlan(unsigned cores, unsigned dimensions, const PlanSpec& spec);

  unsigned cores() const noexcept { return static_cast<unsigned>(roles_.size()); }
  unsigned dimensions() const noexcept { return dimensions_; }
  const PlanSpec& spec() const noexcept { return spec_; }
  unsigned pipelines() const noexcept { return spec_.pipelines; }
  // Cores with a role; the rest are idle.
  unsigned busy_cores() const noexcept { return spec_.cores(); }
  unsigned updaters() const noexcept { return static_cast<unsigned>(updater_cores_.size()); }
  const CoreRole& role(unsigned core) const noexcept { return roles_[core]; }
  unsigned router_of(unsigned pipeline, unsigned dimension) const noexcept {
    return router_of_[pipeline][dimension];
  }
  unsigned updater_core(unsigned updater) const noexcept { return updater_cores_[updater]; }
  const std::vector<unsigned>& updater_cores() const noexcept { return updater_cores_; }

  // The core of the receiving node that takes a message `sender` sends
  // along d: its pipeline's router of d + 1, and after the last dimension
  // the single updater, or with several updaters the pipeline's last
  // router, which hands each update to the updater of its slice (updaters
  // never pass updates on, so no cycle of waiting buffers can form).
  unsigned network_receiver(unsigned sender, unsigned dimension) const noexcept;
  // The last router of a pipeline, when it hands every update it receives
  // along the last dimension on to an updater.
  bool dispatches(unsigned core) const noexcept;

  // Cores of the same node that `core` may hand updates to, and back.
  const std::vector<unsigned>& local_receivers(unsigned core) const;
  const std::vector<unsigned>& local_senders(unsigned core) const;
  // Dimensions whose messages `core` receives, and from how many pipelines
  // of each neighbour.
  std::vector<unsigned> incoming_dimensions(unsigned core) const;
  unsigned incoming_pipelines(unsigned core, unsigned dimension) const;

  // The share of the node's stream pipeline p generates: [begin, end) of
  // `total` updates.
  std::uint64_t stream_begin(unsigned pipeline, std::uint64_t total) const noexcept {
    return total * pipeline / spec_.pipelines;
  }

  std::string describe(unsigned core) const;

 private:
  unsigned dimensions_;
  PlanSpec spec_;
  std::vector<CoreRole> roles_;
  std::vector<std::vector<unsigned>> router_of_;  // [pipeline][dimension]
  std::vector<unsigned> updater_cores_;
  std::vector<std::vector<unsigned>> receivers_, senders_;  // local hand-offs, by core
  std::vector<unsigned> incoming_;  // [core * dimensions + d]: pipelines whose messages along d it receives
  void link_cores();
  void count_incoming();
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
