// Which stretch of the stream each generator generates. HPCC's run is the
// whole stream; a run stopped once its steady state settled (--settle-to) is
// every generator's stretch cut to the same count, and its table is checked
// against those stretches.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "kernel/core/local_table.hpp"
#include "kernel/core/role_plan.hpp"
#include "kernel/core/run_config.hpp"
#include "kernel/core/table_layout.hpp"

namespace gups {

struct StreamStretch {
  std::uint64_t first = 0;  // stream step
  std::uint64_t count = 0;
};

inline constexpr std::uint64_t kWholeStretch = std::numeric_limits<std::uint64_t>::max();

// Routed and multicore: pipeline `pipeline` of node `node` generates this
// share of the node's stretch of the stream.
StreamStretch pipeline_stretch(const RunConfig& config, const TableLayout& layout, const RolePlan& plan,
                               std::uint64_t node, unsigned pipeline);

// What the run generated, in stream order: the whole stream in one stretch
// when `limit` is kWholeStretch; else routed and multicore's every pipeline's
// stretch cut to `limit` updates.
std::vector<StreamStretch> run_stretches(const RunConfig& config, const TableLayout& layout, const RolePlan& plan,
                                         std::uint64_t limit);

std::uint64_t total_count(const std::vector<StreamStretch>& stretches) noexcept;

// The stream's values over the stretches in order, from the `skip`-th on.
class StretchWalk {
 public:
  StretchWalk(const std::vector<StreamStretch>& stretches, std::uint64_t skip);
  std::uint64_t next() noexcept;

 private:
  const std::vector<StreamStretch>& stretches_;
  std::size_t stretch_ = 0;
  std::uint64_t left_ = 0;  // values left in this stretch
  std::uint64_t random_ = 0;
};

// The checksums of the whole table after the stretches, computed in this
// process alone (serial_checksums of one stretch, for several).
TableChecksums serial_checksums(const TableLayout& layout, const std::vector<StreamStretch>& stretches);

}  // namespace gups
