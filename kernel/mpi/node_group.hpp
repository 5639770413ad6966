// The ranks of one node (rank / cores_per_node, in rank order), and whether
// they share a host's memory: what the node's shared count and shared-memory
// hand-offs need. Open MPI places ranks by slot unless told otherwise, so a
// node's ranks share a host unless the launch maps them round-robin over
// hosts (--map-by node) or a host's slot count is not a multiple of the
// cores per node.
#pragma once

#include <mpi.h>

namespace gups {

class NodeGroup {
 public:
  // Collective over the ranks of `rank`'s node.
  NodeGroup(int rank, unsigned cores_per_node);
  ~NodeGroup();
  NodeGroup(const NodeGroup&) = delete;
  NodeGroup& operator=(const NodeGroup&) = delete;

  MPI_Comm comm() const noexcept { return comm_; }
  int rank() const noexcept { return rank_; }  // the core's number in the node
  bool shares_host() const noexcept { return shares_host_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  bool shares_host_ = false;
};

// Where `core`'s part of a node's MPI-3 shared window lies in this process.
template <typename T>
T* shared_window_base(MPI_Win window, int core) {
  MPI_Aint size = 0;
  int unit = 0;
  T* base = nullptr;
  MPI_Win_shared_query(window, core, &size, &unit, &base);
  return base;
}

}  // namespace gups
