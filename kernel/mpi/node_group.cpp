#include "kernel/mpi/node_group.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernel/mpi/patient_collectives.hpp"

namespace gups {

namespace {
constexpr int kNodeGroupTag = 7;
}

// Collective over the node's ranks only (MPI_Comm_create_group, not
// MPI_Comm_split over all ranks), and the host compared by number, not
// by MPI_Comm_split_type: with more ranks than cores, each is slow under
// MPICH, where every waiting rank spins.
NodeGroup::NodeGroup(int rank, unsigned cores_per_node) {
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int cores = static_cast<int>(cores_per_node);
  const int first = rank / cores * cores;
  int range[1][3] = {{first, std::min(first + cores, ranks) - 1, 1}};
  MPI_Group world_group, node_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Group_range_incl(world_group, 1, range, &node_group);
  MPI_Comm_create_group(MPI_COMM_WORLD, node_group, kNodeGroupTag, &comm_);
  MPI_Group_free(&node_group);
  MPI_Group_free(&world_group);
  MPI_Comm_rank(comm_, &rank_);
  int node_size = 0;
  MPI_Comm_size(comm_, &node_size);
  const std::uint64_t mine = patient::host_number();
  std::vector<std::uint64_t> hosts(static_cast<std::size_t>(node_size));
  patient::allgather(&mine, 1, MPI_UINT64_T, hosts.data(), comm_);
  // Every rank of the node sees the same numbers, so all decide alike.
  shares_host_ = std::all_of(hosts.begin(), hosts.end(), [&](std::uint64_t host) { return host == hosts[0]; });
}

NodeGroup::~NodeGroup() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

}  // namespace gups
