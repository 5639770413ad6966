#include "models/src/host_placement.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <stdexcept>

namespace gups::model {

HostPlacement place_on_hosts(const Machine& machine, std::uint64_t nodes, unsigned ranks_per_node,
                             unsigned updaters_per_node, unsigned requested) {
  if (ranks_per_node == 0) throw std::invalid_argument("a torus node has at least one rank");
  const std::uint64_t fits = std::max(1u, machine.hardware_threads() / ranks_per_node);
  HostPlacement placement;
  placement.nodes_per_host =
      static_cast<unsigned>(std::min<std::uint64_t>(nodes, requested == kFillHost ? fits : requested));
  const std::uint64_t ranks = std::uint64_t{placement.nodes_per_host} * ranks_per_node;
  if (placement.nodes_per_host > 1 && ranks > machine.hardware_threads()) {
    throw std::invalid_argument(fmt::format(
        "{} torus nodes of {} rank(s) each need {} cores on one node of '{}', which has {}: more ranks than "
        "cores would time-share them, which the model does not describe",
        placement.nodes_per_host, ranks_per_node, ranks, machine.name, machine.hardware_threads()));
  }
  placement.updating_cores = placement.nodes_per_host * updaters_per_node;
  return placement;
}

unsigned nodes_per_host_named(const std::string& text) {
  if (text == "fill") return kFillHost;
  unsigned value = 0;
  const auto [last, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || last != text.data() + text.size() || value == 0) {
    throw std::invalid_argument("nodes per host: '" + text + "' is neither a count from 1 nor 'fill'");
  }
  return value;
}

}  // namespace gups::model
