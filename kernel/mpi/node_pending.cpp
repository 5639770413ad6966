#include "node_pending.hpp"

#include <algorithm>
#include <atomic>

namespace gups {

NodePending::NodePending([[maybe_unused]] int rank, [[maybe_unused]] unsigned cores_per_node) {
#ifndef GUPS_SIMULATED  // simulated cores pay the machine file's costs, not shared memory's
  MPI_Comm_split(MPI_COMM_WORLD, rank / static_cast<int>(cores_per_node), rank, &node_comm_);
  int node_size = 0, host_size = 0;
  MPI_Comm_size(node_comm_, &node_size);
  MPI_Comm host_comm;
  MPI_Comm_split_type(node_comm_, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host_comm);
  MPI_Comm_size(host_comm, &host_size);
  MPI_Comm_free(&host_comm);
  if (host_size != node_size) return;  // every rank of the node sees the same sizes
  int node_rank = 0;
  MPI_Comm_rank(node_comm_, &node_rank);
  std::int64_t* base = nullptr;
  const MPI_Aint bytes = node_rank == 0 ? 2 * sizeof(std::int64_t) : 0;
  MPI_Win_allocate_shared(bytes, sizeof(std::int64_t), MPI_INFO_NULL, node_comm_, &base, &window_);
  MPI_Aint size = 0;
  int unit = 0;
  MPI_Win_shared_query(window_, 0, &size, &unit, &cells_);
  if (node_rank == 0) cells_[0] = cells_[1] = 0;
  MPI_Barrier(node_comm_);
#endif
}

NodePending::~NodePending() {
  if (window_ != MPI_WIN_NULL) MPI_Win_free(&window_);
  if (node_comm_ != MPI_COMM_NULL) MPI_Comm_free(&node_comm_);
}

void NodePending::add(std::int64_t delta) noexcept {
  if (!cells_ || delta == 0) return;
  const std::int64_t now = std::atomic_ref<std::int64_t>(cells_[0]).fetch_add(delta) + delta;
  std::atomic_ref<std::int64_t> peak(cells_[1]);
  std::int64_t seen = peak.load(std::memory_order_relaxed);
  while (now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
}

std::int64_t NodePending::peak() {
  if (!cells_) return -1;
  MPI_Barrier(node_comm_);
  return std::atomic_ref<std::int64_t>(cells_[1]).load();
}

}  // namespace gups
