#include "kernel/core/stream_stretches.hpp"

#include <algorithm>

#include "kernel/core/hpcc_stream.hpp"

namespace gups {

StreamStretch pipeline_stretch(const RunConfig& config, const TableLayout& layout, const RolePlan& plan,
                               std::uint64_t node, unsigned pipeline) {
  const std::uint64_t node_updates = config.updates_per_word * layout.local_words(node);
  const std::uint64_t begin = plan.stream_begin(pipeline, node_updates);
  return {config.stream_offset + config.updates_per_word * layout.global_start(node) + begin,
          plan.stream_begin(pipeline + 1, node_updates) - begin};
}

std::vector<StreamStretch> run_stretches(const RunConfig& config, const TableLayout& layout, const RolePlan& plan,
                                         std::uint64_t limit) {
  if (limit == kWholeStretch) return {{config.stream_offset, config.total_updates()}};
  std::vector<StreamStretch> stretches;
  stretches.reserve(layout.owners() * plan.pipelines());
  for (std::uint64_t node = 0; node < layout.owners(); ++node) {
    for (unsigned p = 0; p < plan.pipelines(); ++p) {
      auto stretch = pipeline_stretch(config, layout, plan, node, p);
      stretch.count = std::min(stretch.count, limit);
      if (stretch.count > 0) stretches.push_back(stretch);
    }
  }
  return stretches;
}

std::uint64_t total_count(const std::vector<StreamStretch>& stretches) noexcept {
  std::uint64_t total = 0;
  for (const auto& s : stretches) total += s.count;
  return total;
}

StretchWalk::StretchWalk(const std::vector<StreamStretch>& stretches, std::uint64_t skip) : stretches_(stretches) {
  while (stretch_ < stretches_.size() && skip >= stretches_[stretch_].count) skip -= stretches_[stretch_++].count;
  if (stretch_ == stretches_.size()) return;
  left_ = stretches_[stretch_].count - skip;
  random_ = starts(stretches_[stretch_].first + skip);
}

std::uint64_t StretchWalk::next() noexcept {
  while (left_ == 0 && stretch_ + 1 < stretches_.size()) {
    left_ = stretches_[++stretch_].count;
    random_ = starts(stretches_[stretch_].first);
  }
  --left_;
  random_ = next_random(random_);
  return random_;
}

TableChecksums serial_checksums(const TableLayout& layout, const std::vector<StreamStretch>& stretches) {
  LocalTable table(0, layout.total_words());
  table.initialise();
  for (const auto& stretch : stretches) apply_stream_segment(table, layout, stretch.first, stretch.count);
  return table.checksums();
}

}  // namespace gups
