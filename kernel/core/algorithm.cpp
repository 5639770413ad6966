#include "kernel/core/algorithm.hpp"

#include <algorithm>

namespace gups {

const std::vector<AlgorithmTraits>& algorithm_table() {
  static const std::vector<AlgorithmTraits> table{
#define GUPS_UPDATE_ALGORITHM(id, name, help, routes_over_torus, specialised_cores, in_stages, run) \
  {Algorithm::id, name, help, routes_over_torus, specialised_cores, in_stages},
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
  if (row.in_stages) return AlgorithmModel::hypercube;
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
    case AlgorithmModel::hypercube:
      return "hypercube";
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

bool has(const AlgorithmTraits& row, AlgorithmTrait trait) noexcept {
  switch (trait) {
    case AlgorithmTrait::routes_over_torus:
      return row.routes_over_torus;
    case AlgorithmTrait::specialised_cores:
      return row.specialised_cores;
    case AlgorithmTrait::in_stages:
      return row.in_stages;
  }
  return false;
}

std::string_view to_string(AlgorithmTrait trait) {
  switch (trait) {
    case AlgorithmTrait::routes_over_torus:
      return "routes_over_torus";
    case AlgorithmTrait::specialised_cores:
      return "specialised_cores";
    case AlgorithmTrait::in_stages:
      return "in_stages";
  }
  return "";
}

std::string algorithms_with(AlgorithmTrait trait, std::string_view last_separator) {
  std::vector<std::string_view> names;
  for (const auto& row : algorithm_table()) {
    if (has(row, trait)) names.push_back(row.name);
  }
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? last_separator : std::string_view(", ");
    text += names[i];
  }
  return text;
}

}  // namespace gups
