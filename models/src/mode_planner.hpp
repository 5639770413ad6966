// Which placement a node runs: the planner weighs every update algorithm of
// variants.def in every mapping mode HPCC permits (the paper's Table 1: 1, 6
// and 8) that it can run, with every processes-per-node count from 1 to the
// node's hardware threads (the powers of two, the core count and the thread
// count), each process under the look-ahead its mode gives it, and names
// the one with the highest model GUPS. On a node of many hardware threads
// the placement decides how many updates each buffer holds (a look-ahead a
// process in mode 1, a node's in 6 and 8) and so which resource binds.
//
// Mode 1 runs direct, routed (each process routes over a torus of
// processes: bounds.hpp) and hypercube; mode 6 direct; mode 8 multicore,
// the node's cores one group (the paper's), or split into groups of whole
// cores, each group a node of its own: its own table slice, stream and
// look-ahead, and its own role plan over its cores' threads.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/src/bounds.hpp"
#include "models/src/prediction_interval.hpp"

namespace gups::model {

struct ModeOption {
  unsigned mode = 0;
  unsigned processes_per_node = 1;  // multicore: groups of cores a node
  // The options that give its prediction: the algorithm, processes per
  // node or role plan, mapping_mode.
  ModelOptions options;
  std::string placement;  // "64 processes a node" or the role plan
  bool fits = false;      // false: no placement of this mode fits the look-ahead
  std::string why_not;
  double gups = 0;
  std::string binds;      // "cores", "messaging unit", "near-memory updates" or "network"
  // Why it reaches what it does (--explain): updates a message carries (a
  // bucket, a direct message, a hypercube stage's), the slowest core's or
  // thread's cycles per update, and the node's hardware threads it keeps busy.
  double updates_per_message = 0;
  double cycles = 0;
  unsigned busy_threads = 0;
  unsigned threads = 0;
  std::string role_plan;  // multicore: each group's plan (a simulation of the placement runs it)
};

struct ModeChoice {
  std::uint64_t nodes = 0;
  // Every (mode, algorithm, processes a node) weighed, in that order; one
  // that does not fit says why.
  std::vector<ModeOption> modes;
  std::size_t chosen_index = 0;  // of the best that fits, in modes
  const ModeOption& chosen() const { return modes.at(chosen_index); }
  // The chosen placement's interval over the machine file's ranges, when
  // asked for (interval_of_choice).
  std::optional<PredictionInterval> chosen_interval;
};

// The chosen placement's interval, `samples` draws (0: its ends only).
void interval_of_choice(const Machine& machine, const TorusShape& shape, ModeChoice& choice, unsigned samples);

// The modes HPCC permits, in order.
const std::vector<unsigned>& permitted_mapping_modes();

// Every placement on `shape` and the best of all (ties to the earlier).
ModeChoice choose_mapping_mode(const Machine& machine, const TorusShape& shape, const ModelOptions& options);

// The processes-per-node counts weighed on `machine`: the powers of two up
// to its hardware threads, its core count and its thread count.
std::vector<unsigned> process_counts(const Machine& machine, const ModelOptions& options);

// Every placement of one mode on `shape`, in algorithm and process order.
std::vector<ModeOption> placements_of_mode(const Machine& machine, const TorusShape& shape,
                                           const ModelOptions& options, unsigned mode);

}  // namespace gups::model

namespace gups::model {

// The planner's table: each size's modes, their placements and GUPS, the
// chosen one marked; and the same as JSON.
std::string format_mode_choices(const std::vector<ModeChoice>& choices);
// --explain: the best of each (mode, algorithm) of each size, best first,
// with what sets its figure, and by how much the chosen beats the next.
std::string explain_mode_choices(const std::vector<ModeChoice>& choices);
// Each size's chosen placement with its interval and leading inputs (where computed).
std::string chosen_intervals(const std::vector<ModeChoice>& choices);
nlohmann::ordered_json mode_choices_to_json(const std::vector<ModeChoice>& choices);

}  // namespace gups::model
