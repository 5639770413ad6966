// A node's table in memory its cores share (mapping modes 5 and 6): an
// MPI-3 shared window over the node in which each core's slice follows the
// one before, so the node's words are one array every core can update, and
// the striped locks beside it. Real runs whose node's ranks share a host.
#pragma once

#include <mpi.h>

#include <memory>

#include "kernel/core/local_table.hpp"
#include "kernel/core/shared_table.hpp"
#include "kernel/core/table_distribution.hpp"
#include "kernel/mpi/node_group.hpp"

namespace gups {

class SharedNodeTable {
 public:
  // Collective over the node; `mine` is this core's slice of the node's
  // table, which starts at node_start. Initialises the slice.
  SharedNodeTable(const NodeGroup& node, const TableSlice& mine, std::uint64_t node_start, Protection protection,
                  unsigned locks);
  ~SharedNodeTable();
  SharedNodeTable(const SharedNodeTable&) = delete;
  SharedNodeTable& operator=(const SharedNodeTable&) = delete;

  // This core's slice, as verification and checksums see it.
  LocalTable& slice() noexcept { return slice_; }
  // The node's whole table, written through the protection.
  ProtectedTable& node_table() noexcept { return node_table_; }

 private:
  MPI_Win table_window_ = MPI_WIN_NULL;
  MPI_Win lock_window_ = MPI_WIN_NULL;
  std::unique_ptr<StripedLocks> locks_;
  LocalTable slice_;
  ProtectedTable node_table_;
};

}  // namespace gups
