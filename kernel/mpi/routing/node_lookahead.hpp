// The node's look-ahead, as one core sees it: the updates this core holds
// (generated or received, not yet applied or sent on and acknowledged), the
// most it held, and what it changed of the node's shared pending count
// (real runs whose cores share a host), passed on in batches.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernel/core/update_stats.hpp"
#include "kernel/mpi/node_pending.hpp"

namespace gups::routing {

class NodeLookahead {
 public:
  NodeLookahead(NodePending* node_pending, UpdateStats& stats) : node_pending_(node_pending), stats_(stats) {}

  void entered_core(std::uint64_t count) noexcept { occupancy_ += count; }
  void left_core(std::uint64_t count) noexcept { occupancy_ -= count; }
  // Updates that arrived over the torus or were generated here, and those
  // that left over the torus or were applied.
  void entered_node(std::uint64_t count) noexcept { node_delta_ += static_cast<std::int64_t>(count); }
  void left_node(std::uint64_t count) noexcept { node_delta_ -= static_cast<std::int64_t>(count); }

  void note_occupancy() noexcept { stats_.max_pending = std::max(stats_.max_pending, occupancy_); }
  // What this core changed of its node's holding, into the node's shared count.
  void flush() noexcept {
    if (node_pending_) node_pending_->add(node_delta_);
    node_delta_ = 0;
  }

 private:
  NodePending* const node_pending_;
  UpdateStats& stats_;
  std::uint64_t occupancy_ = 0;
  std::int64_t node_delta_ = 0;  // since the last flush()
};

}  // namespace gups::routing
