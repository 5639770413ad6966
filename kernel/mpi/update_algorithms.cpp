#include "update_algorithm.hpp"

namespace gups {

const std::vector<AlgorithmEntry>& update_algorithms() {
  static const std::vector<AlgorithmEntry> entries{
      {"direct", &run_direct},
      {"routed", &run_routed},
      {"multicore", &run_routed},
  };
  return entries;
}

std::vector<std::string> update_algorithm_names() {
  std::vector<std::string> names;
  for (const auto& entry : update_algorithms()) names.push_back(entry.name);
  return names;
}

}  // namespace gups
