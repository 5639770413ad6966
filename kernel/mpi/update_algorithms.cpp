#include "kernel/mpi/update_algorithm.hpp"

namespace gups {

const std::vector<AlgorithmEntry>& update_algorithms() {
  static const std::vector<AlgorithmEntry> entries{
#define GUPS_UPDATE_ALGORITHM(id, name, help, routes_over_torus, specialised_cores, in_stages, run) {Algorithm::id, &run},
#include "kernel/core/variants.def"
  };
  return entries;
}

std::vector<std::string> update_algorithm_names() {
  std::vector<std::string> names;
  for (const auto& entry : update_algorithms()) names.emplace_back(to_string(entry.algorithm));
  return names;
}

}  // namespace gups
