#include "kernel/core/algorithm.hpp"

#include <algorithm>

namespace gups {

const std::vector<AlgorithmTraits>& algorithm_table() {
  static const std::vector<AlgorithmTraits> table{
      {Algorithm::direct, "direct", "HPCC's: each update sent straight to its owner, buckets per destination", false,
       false},
      {Algorithm::routed, "routed", "one core per node routes updates along the torus dimensions in turn", true,
       false},
      {Algorithm::multicore, "multicore",
       "the node's cores specialised: core d routes dimension d, the last core applies", true, true},
  };
  return table;
}

const AlgorithmTraits& traits(Algorithm algorithm) {
  const auto& table = algorithm_table();
  return *std::find_if(table.begin(), table.end(), [&](const auto& row) { return row.algorithm == algorithm; });
}

std::string_view to_string(Algorithm algorithm) { return traits(algorithm).name; }

std::optional<Algorithm> algorithm_named(std::string_view name) {
  for (const auto& row : algorithm_table()) {
    if (row.name == name) return row.algorithm;
  }
  return std::nullopt;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const auto& row : algorithm_table()) names.emplace_back(row.name);
  return names;
}

}  // namespace gups
