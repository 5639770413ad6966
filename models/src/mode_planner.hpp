// Which mapping mode (the paper's Table 1) a node runs: the planner weighs
// the modes HPCC permits (1, 6 and 8), each with its best placement under
// its own look-ahead, and names the one with the highest model GUPS. On a
// node of many hardware threads the mode decides how many updates each
// buffer holds (a look-ahead a process in mode 1, a node's in 6 and 8) and
// so which resource binds.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/src/bounds.hpp"

namespace gups::model {

struct ModeOption {
  unsigned mode = 0;
  // The options that give its prediction: the algorithm, processes per
  // node or role plan, mapping_mode.
  ModelOptions options;
  std::string placement;  // "64 processes a node" or the role plan
  bool fits = false;      // false: no placement of this mode fits the look-ahead
  std::string why_not;
  double gups = 0;
  std::string binds;      // "cores", "messaging unit", "near-memory updates" or "network"
};

struct ModeChoice {
  std::uint64_t nodes = 0;
  ModeOption chosen;
  std::vector<ModeOption> modes;  // each permitted mode's best, in mode order
};

// The modes HPCC permits, in order.
const std::vector<unsigned>& permitted_mapping_modes();

// Each permitted mode's best on `shape` (direct's processes per node from
// one thread of every core to all of them; multicore's role plan by the
// role planner), and the best of all (ties to the lower mode).
ModeChoice choose_mapping_mode(const Machine& machine, const TorusShape& shape, const ModelOptions& options);

// The best of one mode on `shape`.
ModeOption best_of_mode(const Machine& machine, const TorusShape& shape, const ModelOptions& options, unsigned mode);

}  // namespace gups::model

namespace gups::model {

// The planner's table: each size's modes, their placements and GUPS, the
// chosen one marked; and the same as JSON.
std::string format_mode_choices(const std::vector<ModeChoice>& choices);
nlohmann::ordered_json mode_choices_to_json(const std::vector<ModeChoice>& choices);

}  // namespace gups::model
