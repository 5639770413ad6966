#include "kernel/core/mapping_mode.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace gups {

std::string MappingMode::describe() const {
  auto where = [](bool per_node) { return per_node ? "N" : "C"; };
  return fmt::format("table {}, generation {}, limit {}", where(table_per_node), where(generation_per_node),
                     where(limit_per_node));
}

MappingMode mapping_mode(unsigned number) {
  if (number < 1 || number > 8) throw std::invalid_argument(fmt::format("mapping mode {}: modes are 1 to 8", number));
  // Table 1 counts in binary: table, generation, limit; C = 0, N = 1.
  const unsigned bits = number - 1;
  return {number, (bits & 4) != 0, (bits & 2) != 0, (bits & 1) != 0};
}

unsigned default_mapping_mode(Algorithm algorithm) noexcept {
  return traits(algorithm).specialised_cores ? 8 : 1;
}

void check_mapping_mode(unsigned number, Algorithm algorithm) {
  const auto mode = mapping_mode(number);
  if (!mode.table_per_node && (mode.generation_per_node || mode.limit_per_node)) {
    throw std::invalid_argument(fmt::format(
        "mapping mode {} ({}) is ruled out: a table of each core's own needs the core's own generation and "
        "limit (the paper, section 3.2, rules out modes 2, 3 and 4)",
        number, mode.describe()));
  }
  switch (model_of(algorithm)) {
    case AlgorithmModel::direct:
      if (mode.generation_per_node) {
        throw std::invalid_argument(fmt::format(
            "mapping mode {} ({}): direct generates on every core; one stream per node (modes 7 and 8) is "
            "multicore's",
            number, mode.describe()));
      }
      return;
    case AlgorithmModel::routed:
      if (number != 1) {
        throw std::invalid_argument(fmt::format(
            "mapping mode {} ({}): routed runs one rank per node, whose core has its own table, stream and "
            "limit (mode 1); direct runs modes 1, 5 and 6, multicore 7 and 8",
            number, mode.describe()));
      }
      return;
    case AlgorithmModel::hypercube:
      if (number != 1) {
        throw std::invalid_argument(fmt::format(
            "mapping mode {} ({}): hypercube runs every process with its own table, stream and limit (mode 1); "
            "one process a node is its one-stream, one-limit placement",
            number, mode.describe()));
      }
      return;
    case AlgorithmModel::multicore:
      if (!mode.generation_per_node) {
        throw std::invalid_argument(fmt::format(
            "mapping mode {} ({}): multicore generates one stream per node (modes 7 and 8); direct runs modes 1, "
            "5 and 6",
            number, mode.describe()));
      }
      return;
  }
}

LookaheadLimits lookahead_limits(const MappingMode& mode, std::uint64_t lookahead, unsigned cores_per_node) {
  if (!mode.table_per_node) return {lookahead, lookahead};  // a core is its own node
  if (mode.limit_per_node) return {lookahead / cores_per_node, lookahead};
  return {lookahead, lookahead * cores_per_node};
}

}  // namespace gups
