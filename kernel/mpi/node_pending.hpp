// The updates a node holds, counted in memory its cores share (an MPI-3
// shared window per node): generated or received from the torus, and not yet
// applied or handed to the torus. Each core adds what it changed after each
// batch of work, so the count and its peak are the node's own, not the sum
// of its cores' peaks at different times; they lag the truth by at most one
// batch of each core. Real runs only, when a node's ranks share a host.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "kernel/mpi/node_group.hpp"

namespace gups {

class NodePending {
 public:
  // Collective over the node; counts nothing unless its ranks share a host.
  explicit NodePending(const NodeGroup& node);
  ~NodePending();
  NodePending(const NodePending&) = delete;
  NodePending& operator=(const NodePending&) = delete;

  bool shared() const noexcept { return cells_ != nullptr; }
  void add(std::int64_t delta) noexcept;
  // The node's peak; collective over the node, after its cores are done.
  std::int64_t peak();

 private:
  MPI_Comm node_comm_ = MPI_COMM_NULL;
  MPI_Win window_ = MPI_WIN_NULL;
  std::int64_t* cells_ = nullptr;  // [0] held now, [1] peak
};

}  // namespace gups
