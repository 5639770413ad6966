#include "kernel/core/algorithm.hpp"

#include <algorithm>

namespace gups {

const std::vector<AlgorithmTraits>& algorithm_table() {
  static const std::vector<AlgorithmTraits> table{
#define GUPS_UPDATE_ALGORITHM(id, name, help, routes_over_torus, specialised_cores, run) \
  {Algorithm::id, name, help, routes_over_torus, specialised_cores},
#include "kernel/core/variants.def"
  };
  return table;
}

const AlgorithmTraits& traits(Algorithm algorithm) {
  const auto& table = algorithm_table();
  return *std::find_if(table.begin(), table.end(), [&](const auto& row) { return row.algorithm == algorithm; });
}

AlgorithmModel model_of(Algorithm algorithm) {
  const auto& row = traits(algorithm);
  if (!row.routes_over_torus) return AlgorithmModel::direct;
  return row.specialised_cores ? AlgorithmModel::multicore : AlgorithmModel::routed;
}

std::string_view to_string(AlgorithmModel model) {
  switch (model) {
    case AlgorithmModel::direct:
      return "direct";
    case AlgorithmModel::routed:
      return "routed";
    case AlgorithmModel::multicore:
      return "multicore";
  }
  return "";
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
