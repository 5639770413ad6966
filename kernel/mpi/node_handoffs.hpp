// The hand-off slots of a node's cores, in one MPI-3 shared window over the
// node: each core holds, in its own part of the window, one slot for each
// core it hands updates to. Real runs whose node's ranks share a host.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "kernel/core/handoff_slot.hpp"
#include "kernel/core/role_plan.hpp"
#include "kernel/mpi/node_group.hpp"

namespace gups {

class NodeHandoffs {
 public:
  // Collective over the node's ranks; `capacity`: updates per bucket.
  NodeHandoffs(const NodeGroup& node, const RolePlan& plan, std::size_t capacity);
  ~NodeHandoffs();
  NodeHandoffs(const NodeHandoffs&) = delete;
  NodeHandoffs& operator=(const NodeHandoffs&) = delete;

  // This core's slot towards `receiver`, and the slot `sender` fills for it.
  HandoffSlot outgoing(unsigned receiver) const;
  HandoffSlot incoming(unsigned sender) const;
  // The cores this one hands updates to, and those handing updates to it.
  const std::vector<unsigned>& receivers() const noexcept { return receivers_; }
  const std::vector<unsigned>& senders() const noexcept { return senders_; }

 private:
  HandoffSlot slot_of(unsigned sender, unsigned receiver) const;

  const RolePlan& plan_;
  unsigned core_;
  std::size_t capacity_;
  std::vector<unsigned> receivers_;
  std::vector<unsigned> senders_;
  MPI_Win window_ = MPI_WIN_NULL;
  std::vector<std::byte*> bases_;  // each core's part of the window
};

}  // namespace gups
