#include "kernel/mpi/node_handoffs.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernel/mpi/patient_collectives.hpp"

namespace gups {

NodeHandoffs::NodeHandoffs(const NodeGroup& node, const RolePlan& plan, std::size_t capacity)
    : plan_(plan),
      core_(static_cast<unsigned>(node.rank())),
      capacity_(capacity),
      receivers_(plan.local_receivers(core_)),
      senders_(plan.local_senders(core_)) {
  if (!node.shares_host()) throw std::logic_error("shared-memory hand-offs on a node spread over hosts");
  const auto bytes = static_cast<MPI_Aint>(receivers_.size() * HandoffSlot::bytes(capacity));
  // Each part on its own pages, near the core that writes most of it.
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  std::byte* mine = nullptr;
  MPI_Win_allocate_shared(bytes, 1, info, node.comm(), &mine, &window_);
  MPI_Info_free(&info);
  int cores = 0;
  MPI_Comm_size(node.comm(), &cores);
  bases_.resize(static_cast<std::size_t>(cores));
  for (int c = 0; c < cores; ++c) bases_[static_cast<std::size_t>(c)] = shared_window_base<std::byte>(window_, c);
  // Slots are used through atomics only; the window's epoch lets MPI know.
  MPI_Win_lock_all(MPI_MODE_NOCHECK, window_);
  for (const auto receiver : receivers_) outgoing(receiver).clear();
  MPI_Win_sync(window_);
  patient::barrier(node.comm());
  MPI_Win_sync(window_);
}

NodeHandoffs::~NodeHandoffs() {
  MPI_Win_unlock_all(window_);
  MPI_Win_free(&window_);
}

HandoffSlot NodeHandoffs::slot_of(unsigned sender, unsigned receiver) const {
  const auto receivers = plan_.local_receivers(sender);
  const auto at = std::find(receivers.begin(), receivers.end(), receiver);
  if (at == receivers.end() || sender >= bases_.size()) {
    throw std::logic_error("core " + std::to_string(sender) + " hands nothing to core " + std::to_string(receiver));
  }
  const auto index = static_cast<std::size_t>(at - receivers.begin());
  return HandoffSlot(bases_[sender] + index * HandoffSlot::bytes(capacity_), capacity_);
}

HandoffSlot NodeHandoffs::outgoing(unsigned receiver) const { return slot_of(core_, receiver); }

HandoffSlot NodeHandoffs::incoming(unsigned sender) const { return slot_of(sender, core_); }

}  // namespace gups
