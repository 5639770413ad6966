// Which rank holds which words: the table is spread over nodes by the HPCC
// layout, and a node's words over its updating cores in contiguous slices
// (rank = node * cores_per_node + core). For `direct` a node is a rank.
#pragma once

#include <cstdint>
#include <vector>

#include "kernel/core/table_layout.hpp"

namespace gups {

struct TableSlice {
  std::uint64_t global_start = 0;
  std::uint64_t words = 0;
};

class TableDistribution {
 public:
  TableDistribution(const TableLayout& node_layout, unsigned cores_per_node,
                    std::vector<unsigned> updater_cores);

  const TableLayout& node_layout() const noexcept { return *layout_; }
  std::uint64_t ranks() const noexcept { return layout_->owners() * cores_per_node_; }

  TableSlice slice_of_rank(std::uint64_t rank) const noexcept;
  // Index among the node's updaters of the one holding global index g.
  unsigned updater_of(std::uint64_t node, std::uint64_t global_index) const noexcept;
  std::uint64_t rank_holding(std::uint64_t global_index) const noexcept;

 private:
  const TableLayout* layout_;
  unsigned cores_per_node_;
  std::vector<unsigned> updater_cores_;
  std::vector<int> updater_index_of_core_;
};

}  // namespace gups
