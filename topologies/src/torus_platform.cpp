#include "torus_platform.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

namespace gups::topology {

std::string platform_xml(const model::Machine& machine, const TorusShape& shape, const PlatformOptions& options) {
  // SimGrid names a torus link by its ends, so two sides of size 1 would
  // both declare the link from a node to itself: leave them out. Host
  // numbering (dimension 0 fastest) is unchanged by it.
  std::vector<std::uint32_t> sides;
  for (const auto side : shape.sizes()) {
    if (side > 1) sides.push_back(side);
  }
  if (sides.empty()) sides.push_back(1);
  const double bandwidth = machine.link_bandwidth * options.bandwidth_scale;
  const double latency = options.zero_latency ? 0.0 : machine.link_latency;
  // Ranks of one node talk through a loopback link far faster than the
  // torus: the cost of a local hand-off is charged to the cores instead.
  return fmt::format(
      "<?xml version='1.0'?>\n"
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<!-- {} ({}): {} torus, {} cores per node, written by gups-topology -->\n"
      "<platform version=\"4.1\">\n"
      "  <cluster id=\"{}\" prefix=\"{}\" suffix=\"\" radical=\"0-{}\" speed=\"{:.17g}f\" core=\"{}\"\n"
      "           bw=\"{:.17g}Bps\" lat=\"{:.17g}s\" loopback_bw=\"1e15Bps\" loopback_lat=\"0s\"\n"
      "           topology=\"TORUS\" topo_parameters=\"{}\"/>\n"
      "</platform>\n",
      machine.name, machine.description, shape.to_string(), options.ranks_per_node, kTorusClusterId, kHostPrefix,
      shape.nodes() - 1,
      machine.clock_hz, options.ranks_per_node, bandwidth, latency, fmt::join(sides, ","));
}

std::string hostfile(const TorusShape& shape, unsigned ranks_per_node) {
  std::string text;
  for (std::uint64_t node = 0; node < shape.nodes(); ++node) {
    text += fmt::format("{}:{}\n", host_name(node), ranks_per_node);
  }
  return text;
}

}  // namespace gups::topology
