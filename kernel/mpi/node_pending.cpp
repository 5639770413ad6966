#include "kernel/mpi/node_pending.hpp"

#include <algorithm>
#include <atomic>

#include "kernel/mpi/patient_collectives.hpp"

namespace gups {

NodePending::NodePending(const NodeGroup& node) : node_comm_(node.comm()) {
  if (!node.shares_host()) return;
  std::int64_t* base = nullptr;
  const MPI_Aint bytes = node.rank() == 0 ? 2 * sizeof(std::int64_t) : 0;
  MPI_Win_allocate_shared(bytes, sizeof(std::int64_t), MPI_INFO_NULL, node_comm_, &base, &window_);
  cells_ = shared_window_base<std::int64_t>(window_, 0);
  if (node.rank() == 0) cells_[0] = cells_[1] = 0;
  patient::barrier(node_comm_);
}

NodePending::~NodePending() {
  if (window_ != MPI_WIN_NULL) MPI_Win_free(&window_);
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
  patient::barrier(node_comm_);
  return std::atomic_ref<std::int64_t>(cells_[1]).load();
}

}  // namespace gups
