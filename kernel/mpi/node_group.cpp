#include "kernel/mpi/node_group.hpp"

namespace gups {

NodeGroup::NodeGroup(int rank, unsigned cores_per_node) {
  MPI_Comm_split(MPI_COMM_WORLD, rank / static_cast<int>(cores_per_node), rank, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  int node_size = 0, host_size = 0;
  MPI_Comm_size(comm_, &node_size);
  MPI_Comm host_comm;
  MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host_comm);
  MPI_Comm_size(host_comm, &host_size);
  MPI_Comm_free(&host_comm);
  // Every rank of the node sees the same sizes, so all decide alike.
  shares_host_ = host_size == node_size;
}

NodeGroup::~NodeGroup() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

}  // namespace gups
