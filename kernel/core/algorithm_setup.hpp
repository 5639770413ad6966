// How an algorithm maps the ranks of a run onto nodes, cores and a torus:
// checked before anything is allocated, so a rank count, shape or budget
// that does not fit gives one clear error.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernel/core/mapping_mode.hpp"
#include "kernel/core/role_plan.hpp"
#include "kernel/core/run_config.hpp"
#include "kernel/core/torus_shape.hpp"

namespace gups {

struct AlgorithmSetup {
  std::uint64_t nodes = 0;
  unsigned cores_per_node = 1;
  std::optional<TorusShape> shape;  // routed and multicore
  RolePlan plan{1, 1};
  BucketSizing node_buckets;  // routed and multicore
  MappingMode mode = mapping_mode(1);
  LookaheadLimits limits;
  // Mapping modes 5 and 6: the k ranks of a node update one table they share.
  bool cores_share_table() const noexcept { return mode.cores_share_table(); }
  // The cores of a node holding a slice of its table.
  std::vector<unsigned> updater_cores() const;

  // What each core does and how the budget is split, for --explain.
  std::string explain(std::uint64_t lookahead) const;
};

// Throws std::invalid_argument with a message naming the option at fault.
AlgorithmSetup plan_algorithm(const RunConfig& config, std::uint64_t ranks);

}  // namespace gups
