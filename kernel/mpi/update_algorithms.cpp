#include "kernel/mpi/update_algorithm.hpp"

namespace gups {

const std::vector<AlgorithmEntry>& update_algorithms() {
  static const std::vector<AlgorithmEntry> entries{
      {Algorithm::direct, &run_direct},
      {Algorithm::routed, &run_routed},
      {Algorithm::multicore, &run_routed},
  };
  return entries;
}

std::vector<std::string> update_algorithm_names() {
  std::vector<std::string> names;
  for (const auto& entry : update_algorithms()) names.emplace_back(to_string(entry.algorithm));
  return names;
}

}  // namespace gups
