#include "kernel/mpi/shared_node_table.hpp"

#include <stdexcept>

#include "kernel/mpi/patient_collectives.hpp"

namespace gups {
namespace {

std::uint64_t* allocate_slice(const NodeGroup& node, const TableSlice& mine, MPI_Win& window) {
  if (!node.shares_host()) throw std::logic_error("a shared node table on a node spread over hosts");
  std::uint64_t* mine_base = nullptr;
  // Contiguous (MPI's default): core c's slice follows core c-1's.
  MPI_Win_allocate_shared(static_cast<MPI_Aint>(mine.words * sizeof(std::uint64_t)), sizeof(std::uint64_t),
                          MPI_INFO_NULL, node.comm(), &mine_base, &window);
  return mine_base;
}

}  // namespace

SharedNodeTable::SharedNodeTable(const NodeGroup& node, const TableSlice& mine, std::uint64_t node_start,
                                 Protection protection, unsigned locks)
    : slice_(mine.global_start, mine.words, allocate_slice(node, mine, table_window_)),
      node_table_(nullptr, node_start, protection, nullptr) {
  auto* node_words = shared_window_base<std::uint64_t>(table_window_, 0);
  if (mine.words > 0 && node_words + (mine.global_start - node_start) != slice_.words().data()) {
    throw std::logic_error("the node's table slices are not one array in its shared window");
  }
  const unsigned lock_count = protection == Protection::locks ? locks : 0;
  const auto lock_bytes = node.rank() == 0 ? static_cast<MPI_Aint>(StripedLocks::bytes(lock_count)) : 0;
  std::byte* lock_memory = nullptr;
  MPI_Win_allocate_shared(lock_bytes, 1, MPI_INFO_NULL, node.comm(), &lock_memory, &lock_window_);
  if (lock_count > 0) {
    locks_ = std::make_unique<StripedLocks>(shared_window_base<std::byte>(lock_window_, 0), lock_count);
    if (node.rank() == 0) locks_->clear();
  }
  node_table_ = ProtectedTable(node_words, node_start, protection, locks_.get());
  // Updated through atomics or locks only; the windows' epochs let MPI know.
  MPI_Win_lock_all(MPI_MODE_NOCHECK, table_window_);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, lock_window_);
  slice_.initialise();
  MPI_Win_sync(table_window_);
  MPI_Win_sync(lock_window_);
  patient::barrier(node.comm());
  MPI_Win_sync(table_window_);
  MPI_Win_sync(lock_window_);
}

SharedNodeTable::~SharedNodeTable() {
  MPI_Win_unlock_all(lock_window_);
  MPI_Win_unlock_all(table_window_);
  MPI_Win_free(&lock_window_);
  MPI_Win_free(&table_window_);
}

}  // namespace gups
