#include "sim/plan/platform.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>
#include <vector>

#include "models/src/machine_network.hpp"

namespace gups::topology {

namespace {

// Every platform's opening and closing: SimGrid's header, a comment saying
// whose network it is and what is in it, the body.
std::string platform_document(const model::Machine& machine, const std::string& what, const std::string& body) {
  return fmt::format(
      "<?xml version='1.0'?>\n"
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<!-- {} ({}): {}, written by gups-topology -->\n"
      "<platform version=\"4.1\">\n{}</platform>\n",
      machine.name, machine.description, what, body);
}

// Links named as SimGrid names a torus cluster's, so that the link load finds
// their dimension the same way; one per neighbour pair, a direction each way.
std::string mesh_xml(const model::Machine& machine, const TorusShape& shape, const PlatformOptions& options,
                     double bandwidth, double latency) {
  std::string hosts, links, routes;
  for (std::uint64_t node = 0; node < shape.nodes(); ++node) {
    hosts += fmt::format("    <host id=\"{}\" speed=\"{:.17g}f\" core=\"{}\"/>\n", host_name(node), machine.clock_hz,
                         options.ranks_per_node);
    for (unsigned d = 0; d < shape.dimensions(); ++d) {
      const auto c = shape.coordinate(node, d);
      if (c + 1 >= shape.size(d)) continue;  // the end of a chain: no wrap-around link
      const auto next = shape.with_coordinate(node, d, c + 1);
      const auto link = fmt::format("{}{}_to_{}", torus_link_prefix(), node, next);
      links += fmt::format("    <link id=\"{}\" bandwidth=\"{:.17g}Bps\" latency=\"{:.17g}s\" "
                           "sharing_policy=\"SPLITDUPLEX\"/>\n",
                           link, bandwidth, latency);
      routes += fmt::format("    <route src=\"{0}\" dst=\"{1}\" symmetrical=\"NO\"><link_ctn id=\"{2}\" "
                            "direction=\"UP\"/></route>\n"
                            "    <route src=\"{1}\" dst=\"{0}\" symmetrical=\"NO\"><link_ctn id=\"{2}\" "
                            "direction=\"DOWN\"/></route>\n",
                            host_name(node), host_name(next), link);
    }
  }
  return platform_document(machine, fmt::format("{} mesh, {} cores per node", shape.to_string(), options.ranks_per_node),
                           fmt::format("  <config>\n"
                                       "    <prop id=\"network/loopback-bw\" value=\"1e15\"/>\n"
                                       "    <prop id=\"network/loopback-lat\" value=\"0\"/>\n"
                                       "  </config>\n"
                                       "  <zone id=\"{}\" routing=\"Floyd\">\n"
                                       "    <prop id=\"{}\" value=\"{}\"/>\n{}{}{}  </zone>\n",
                                       kNetworkZoneId, kTorusShapeProperty, shape.to_string(), hosts, links, routes));
}

// Each private link: a message spends its size over 1e15 B/s on it, which
// the latency the level sets leaves out again; its latency is only what the
// level's factor scales.
constexpr double kPrivateLinkBandwidth = 1e15;
constexpr double kPrivateLinkLatency = 1e-9;

// The level's parameters, as a property whose value is one line of JSON.
std::string level_parameters_xml(const model::Machine& machine, NetworkLevel level) {
  auto text = level_parameters(machine, level).dump();
  std::string escaped;
  for (const char c : text) {
    if (c == '"') escaped += "&quot;";
    else if (c == '&') escaped += "&amp;";
    else if (c == '<') escaped += "&lt;";
    else escaped += c;
  }
  return fmt::format("    <prop id=\"{}\" value=\"{}\"/>\n", kLevelParametersProperty, escaped);
}

std::string level_xml(const model::Machine& machine, const TorusShape& shape, const PlatformOptions& options,
                      double bandwidth, double latency) {
  std::vector<int> wraps;
  for (unsigned d = 0; d < shape.dimensions(); ++d) {
    wraps.push_back(options.wraps.empty() ? (options.mesh ? 0 : 1) : (options.wraps[d] ? 1 : 0));
  }
  const std::string kind = !options.wraps.empty() ? fmt::format("torus wrapping {}", fmt::join(wraps, ","))
                           : options.mesh         ? "mesh"
                                                  : "torus";
  return platform_document(
      machine,
      fmt::format("{} {}, {} cores per node, network level {}", shape.to_string(), kind, options.ranks_per_node,
                  to_string(options.level)),
      fmt::format("  <cluster id=\"{}\" prefix=\"{}\" suffix=\"\" radical=\"0-{}\" speed=\"{:.17g}f\" core=\"{}\"\n"
                  "           bw=\"{:.17g}Bps\" lat=\"{:.17g}s\" loopback_bw=\"1e15Bps\" loopback_lat=\"0s\">\n"
                  "    <prop id=\"{}\" value=\"{}\"/>\n"
                  "    <prop id=\"{}\" value=\"{}\"/>\n"
                  "    <prop id=\"{}\" value=\"{}\"/>\n"
                  "    <prop id=\"{}\" value=\"{:.17g}\"/>\n"
                  "    <prop id=\"{}\" value=\"{:.17g}\"/>\n"
                  "{}"
                  "  </cluster>\n",
                  kNetworkZoneId, kHostPrefix, shape.nodes() - 1, machine.clock_hz, options.ranks_per_node,
                  kPrivateLinkBandwidth, kPrivateLinkLatency, kNetworkLevelProperty, to_string(options.level),
                  kTorusShapeProperty, shape.to_string(), kTorusWrapsProperty, fmt::join(wraps, ","),
                  kLinkBandwidthProperty, bandwidth, kLinkLatencyProperty, latency,
                  level_parameters_xml(machine, options.level)));
}

// SimGrid's own FAT_TREE or DRAGONFLY cluster at the flow level; at the
// others the flat cluster of level_xml. Both carry the topology in their
// properties, which the simulation's link load and levels read.
std::string cluster_xml(const model::Machine& machine, const TorusShape& shape, const PlatformOptions& options,
                        double bandwidth, double latency) {
  const auto parameters = model::simgrid_parameters(machine, shape.nodes());
  const std::string topology = machine.topology->name;
  const bool flow = options.level.simgrid_links();
  std::string properties = fmt::format("    <prop id=\"{}\" value=\"{}\"/>\n    <prop id=\"{}\" value=\"{}\"/>\n",
                                       kTopologyProperty, topology, kTopologyParametersProperty, parameters);
  if (!flow) {
    properties += fmt::format(
        "    <prop id=\"{}\" value=\"{}\"/>\n    <prop id=\"{}\" value=\"{:.17g}\"/>\n"
        "    <prop id=\"{}\" value=\"{:.17g}\"/>\n",
        kNetworkLevelProperty, to_string(options.level), kLinkBandwidthProperty, bandwidth, kLinkLatencyProperty,
        latency);
    properties += level_parameters_xml(machine, options.level);
  }
  const auto network = flow ? fmt::format("bw=\"{:.17g}Bps\" lat=\"{:.17g}s\" loopback_bw=\"1e15Bps\" loopback_lat=\"0s\"\n"
                                          "           topology=\"{}\" topo_parameters=\"{}\"",
                                          bandwidth, latency, machine.topology->simgrid_name, parameters)
                            : fmt::format("bw=\"{:.17g}Bps\" lat=\"{:.17g}s\" loopback_bw=\"1e15Bps\" loopback_lat=\"0s\"",
                                          kPrivateLinkBandwidth, kPrivateLinkLatency);
  return platform_document(
      machine,
      fmt::format("{} {} ({}), virtual torus {}, {} cores per node, network level {}", shape.nodes(), topology,
                  parameters, shape.to_string(), options.ranks_per_node, to_string(options.level)),
      fmt::format("  <cluster id=\"{}\" prefix=\"{}\" suffix=\"\" radical=\"0-{}\" speed=\"{:.17g}f\" core=\"{}\"\n"
                  "           {}>\n"
                  "{}"
                  "  </cluster>\n",
                  kNetworkZoneId, kHostPrefix, shape.nodes() - 1, machine.clock_hz, options.ranks_per_node, network,
                  properties));
}

}  // namespace

LevelParameters level_parameters(const model::Machine& machine, NetworkLevel level) {
  LevelParameters parameters = machine.network_levels.value(level.name(), LevelParameters::object());
  parameters["topology"] = machine.topology->name;
  parameters["packet"] = {{"max_bytes", machine.packet.max_bytes},
                          {"granularity_bytes", machine.packet.granularity_bytes},
                          {"ack_bytes", machine.packet.ack_bytes}};
  return parameters;
}

void check_level_parameters(const model::Machine& machine, NetworkLevel level, const LevelParameters& parameters) {
  try {
    level.check(parameters);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("machine {}, network level {}: {}", machine.name, level.name(), e.what()));
  }
}

std::string platform_xml(const model::Machine& machine, const TorusShape& shape, const PlatformOptions& options) {
  check_level_parameters(machine, options.level, level_parameters(machine, options.level));
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
  if (!machine.topology->is_virtual_torus) return cluster_xml(machine, shape, options, bandwidth, latency);
  if (!options.level.simgrid_links()) return level_xml(machine, shape, options, bandwidth, latency);
  if (!options.wraps.empty()) {
    throw std::invalid_argument(fmt::format(
        "a torus that wraps in some dimensions only needs a network level that routes messages itself (queue, "
        "latency or packet), not {}",
        to_string(options.level)));
  }
  if (options.mesh) return mesh_xml(machine, shape, options, bandwidth, latency);
  // Ranks of one node talk through a loopback link far faster than the
  // torus: the cost of a local hand-off is charged to the cores instead.
  return platform_document(
      machine, fmt::format("{} torus, {} cores per node", shape.to_string(), options.ranks_per_node),
      fmt::format("  <cluster id=\"{}\" prefix=\"{}\" suffix=\"\" radical=\"0-{}\" speed=\"{:.17g}f\" core=\"{}\"\n"
                  "           bw=\"{:.17g}Bps\" lat=\"{:.17g}s\" loopback_bw=\"1e15Bps\" loopback_lat=\"0s\"\n"
                  "           topology=\"{}\" topo_parameters=\"{}\">\n"
                  "    <prop id=\"{}\" value=\"{}\"/>\n"
                  "  </cluster>\n",
                  kNetworkZoneId, kHostPrefix, shape.nodes() - 1, machine.clock_hz, options.ranks_per_node, bandwidth,
                  latency, machine.topology->simgrid_name, fmt::join(sides, ","), kTorusShapeProperty,
                  shape.to_string()));
}

// One line a rank, not "host:k": smpirun unrolls that form with a Python
// process of its own, started for every simulation.
std::string hostfile(const TorusShape& shape, unsigned ranks_per_node) {
  std::string text;
  for (std::uint64_t node = 0; node < shape.nodes(); ++node) {
    const std::string line = host_name(node) + "\n";
    for (unsigned core = 0; core < ranks_per_node; ++core) text += line;
  }
  return text;
}

}  // namespace gups::topology
