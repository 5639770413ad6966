// The update algorithms and what each one asks of a run: one table, read
// by the command lines, the set-up, the models, the simulation's charges and
// the run plan, so that adding an algorithm means adding a row here and its
// implementation behind the one signature (update_algorithm.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gups {

enum class Algorithm { direct, routed, multicore };

struct AlgorithmTraits {
  Algorithm algorithm;
  std::string_view name;
  std::string_view summary;
  // Updates travel hop by hop over a torus of nodes (--shape, buckets per
  // line); otherwise each goes straight to its owner's process.
  bool routes_over_torus;
  // The cores of a node take different roles (one rank per core); routed
  // runs one rank per node, direct one independent process per rank.
  bool specialised_cores;
};

// Every algorithm, in the order they are listed to users.
const std::vector<AlgorithmTraits>& algorithm_table();
const AlgorithmTraits& traits(Algorithm algorithm);
std::string_view to_string(Algorithm algorithm);
std::optional<Algorithm> algorithm_named(std::string_view name);
std::vector<std::string> algorithm_names();

}  // namespace gups
