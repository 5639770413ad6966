#include "kernel/core/table_distribution.hpp"

#include <stdexcept>

namespace gups {
namespace {

// Slice u of w words split in n parts, the first w % n one word larger.
std::uint64_t slice_start(std::uint64_t words, std::uint64_t parts, std::uint64_t part) {
  const std::uint64_t base = words / parts;
  const std::uint64_t extra = words % parts;
  return part * base + (part < extra ? part : extra);
}

}  // namespace

TableDistribution::TableDistribution(const TableLayout& node_layout, unsigned cores_per_node,
                                     std::vector<unsigned> updater_cores)
    : layout_(&node_layout),
      cores_per_node_(cores_per_node),
      updater_cores_(std::move(updater_cores)),
      updater_index_of_core_(cores_per_node, -1) {
  if (updater_cores_.empty()) throw std::invalid_argument("a node needs an updating core");
  for (unsigned u = 0; u < updater_cores_.size(); ++u) {
    if (updater_cores_[u] >= cores_per_node) throw std::invalid_argument("updater core out of range");
    updater_index_of_core_[updater_cores_[u]] = static_cast<int>(u);
  }
}

TableSlice TableDistribution::slice_of_rank(std::uint64_t rank) const noexcept {
  const std::uint64_t node = rank / cores_per_node_;
  const int updater = updater_index_of_core_[rank % cores_per_node_];
  if (updater < 0) return {layout_->global_start(node), 0};
  const std::uint64_t words = layout_->local_words(node);
  const std::uint64_t parts = updater_cores_.size();
  const auto u = static_cast<std::uint64_t>(updater);
  const std::uint64_t start = slice_start(words, parts, u);
  return {layout_->global_start(node) + start, slice_start(words, parts, u + 1) - start};
}

unsigned TableDistribution::updater_of(std::uint64_t node, std::uint64_t g) const noexcept {
  const std::uint64_t parts = updater_cores_.size();
  if (parts == 1) return 0;
  const std::uint64_t offset = g - layout_->global_start(node);
  const std::uint64_t words = layout_->local_words(node);
  const std::uint64_t base = words / parts;
  const std::uint64_t extra = words % parts;
  const std::uint64_t big_part_end = (base + 1) * extra;
  return static_cast<unsigned>(offset < big_part_end ? offset / (base + 1)
                                                     : extra + (offset - big_part_end) / base);
}

std::uint64_t TableDistribution::rank_holding(std::uint64_t g) const noexcept {
  const std::uint64_t node = layout_->owner_by_division(g);
  return node * cores_per_node_ + updater_cores_[updater_of(node, g)];
}

}  // namespace gups
