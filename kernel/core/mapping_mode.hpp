// The paper's Table 1: how the benchmark maps onto the cores of a node, by
// whether the table, the generation of updates and the 1024 look-ahead limit
// are one per core (C) or one per node (N). Which algorithm runs which mode,
// and why the others are refused, in one place.
#pragma once

#include <cstdint>
#include <string>

#include "kernel/core/algorithm.hpp"

namespace gups {

struct MappingMode {
  unsigned number = 0;
  bool table_per_node = false;
  bool generation_per_node = false;
  bool limit_per_node = false;

  // "table N, generation C, limit C"
  std::string describe() const;
  // Several cores of a node update one table: the protection matters.
  bool cores_share_table() const noexcept { return table_per_node && !generation_per_node; }
};

// Mode 1 to 8 of Table 1; std::invalid_argument otherwise.
MappingMode mapping_mode(unsigned number);

// The mode an algorithm runs when none is asked for: direct and routed run
// a process per core (1), multicore the paper's choice (8).
unsigned default_mapping_mode(Algorithm algorithm) noexcept;

// Throws std::invalid_argument with the reason when `algorithm` cannot run
// mode `number` (modes 2-4 are refused for every algorithm, as the paper
// rules them out).
void check_mapping_mode(unsigned number, Algorithm algorithm);

// The look-ahead each core and each node of k cores may hold in a mode,
// given --lookahead L: the limit applies where the mode puts it, and a node
// whose limit is its own shares it among its cores.
struct LookaheadLimits {
  std::uint64_t per_core = 0;
  std::uint64_t per_node = 0;
};
LookaheadLimits lookahead_limits(const MappingMode& mode, std::uint64_t lookahead, unsigned cores_per_node);

}  // namespace gups
