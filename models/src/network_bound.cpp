#include "models/src/network_bound.hpp"


#include <algorithm>
#include <stdexcept>
#include <vector>

namespace gups::model {
namespace {

// Destinations a direct update goes to from one node: every node up to this
// many, else this many drawn by a fixed hash (evenly spaced ones would share
// a residue, which fat-tree routes choose their up-links by).
constexpr std::uint64_t kDirectDestinations = 1024;

// On a torus every line of a dimension carries the same traffic, and a
// software hop along d never leaves its line: the bound is that of the
// busiest ring, found on one ring of each dimension (sides squared routes,
// not nodes times sides; the model's crossover search goes to millions of nodes).
NetworkBound line_bound(const PhysicalLinks& links, const std::vector<std::unique_ptr<PhysicalLinks>>& lines,
                        const TorusShape& shape, double bytes_per_update, double link_bandwidth) {
  NetworkBound bound;
  std::vector<std::uint32_t> route;
  double link_crossings = 0;
  for (unsigned d = 0; d < shape.dimensions(); ++d) {
    const auto side = shape.size(d);
    if (side < 2) continue;
    const PhysicalLinks& ring = *lines.at(d);
    std::vector<double> load(ring.count(), 0.0);
    for (std::uint32_t from = 0; from < side; ++from) {
      for (std::uint32_t to = 0; to < side; ++to) {
        if (from == to) continue;
        ring.route(from, to, route);
        for (const auto link : route) load[link] += 1.0 / side;
        link_crossings += static_cast<double>(route.size()) / side / side;  // per node: its own hops along d
      }
    }
    bound.software_hops += 1.0 - 1.0 / side;
    const double busiest = *std::max_element(load.begin(), load.end());
    if (busiest > bound.busiest_link_load) {
      bound.busiest_link_load = busiest;
      bound.busiest_class = links.class_names().at(d);
    }
  }
  bound.physical_hops_per_software_hop = bound.software_hops > 0 ? link_crossings / bound.software_hops : 0;
  if (bound.busiest_link_load > 0) {
    bound.gups = static_cast<double>(shape.nodes()) * link_bandwidth / (bound.busiest_link_load * bytes_per_update) * 1e-9;
  }
  return bound;
}

}  // namespace

BusiestLink busiest_link(const PhysicalLinks& links, const std::vector<double>& load) {
  BusiestLink busiest;
  std::uint32_t found = 0;
  for (std::uint32_t link = 0; link < links.count(); ++link) {
    if (load[link] <= 0 || !links.exists(link)) continue;  // an idle link cannot be the busiest: no lookup
    const double relative = load[link] / links.bandwidth_factor(link);
    if (relative > busiest.load) {
      busiest.load = relative;
      found = link;
    }
  }
  if (busiest.load > 0) busiest.link_class = links.class_names().at(links.link_class(found));
  return busiest;
}

NetworkBound network_bound(const PhysicalLinks& links, const TorusShape& shape, bool software_routing,
                           double bytes_per_update, double link_bandwidth) {
  if (links.nodes() != shape.nodes()) throw std::invalid_argument("the virtual torus and the network differ in nodes");
  if (software_routing) {
    if (const auto lines = links.independent_lines(shape); !lines.empty()) {
      return line_bound(links, lines, shape, bytes_per_update, link_bandwidth);
    }
  }
  NetworkBound bound;
  const std::uint64_t nodes = shape.nodes();
  std::vector<double> load(links.count(), 0.0);
  std::vector<std::uint32_t> route;
  double crossings = 0, link_crossings = 0;  // per update made on a node, summed over nodes
  auto carry = [&](std::uint64_t from, std::uint64_t to, double weight) {
    if (from == to || weight == 0) return;
    links.route(from, to, route);
    for (const auto link : route) load[link] += weight;
    crossings += weight;
    link_crossings += weight * static_cast<double>(route.size());
  };
  if (software_routing) {
    // A software hop along d takes an update straight to the node of its
    // owner's coordinate on that line, each of the line's k with odds 1/k.
    for (unsigned d = 0; d < shape.dimensions(); ++d) {
      const auto side = shape.size(d);
      for (std::uint64_t node = 0; node < nodes; ++node) {
        for (std::uint32_t c = 0; c < side; ++c) carry(node, shape.with_coordinate(node, d, c), 1.0 / side);
      }
    }
  } else {
    if (nodes <= kDirectDestinations) {
      for (std::uint64_t node = 0; node < nodes; ++node) {
        for (std::uint64_t to = 0; to < nodes; ++to) carry(node, to, 1.0 / static_cast<double>(nodes));
      }
    } else {
      const double weight = (1.0 - 1.0 / static_cast<double>(nodes)) / kDirectDestinations;  // remote ones
      for (std::uint64_t node = 0; node < nodes; ++node) {
        for (std::uint64_t t = 0; t < kDirectDestinations; ++t) {
          const std::uint64_t offset = 1 + (t * 2654435761u + node * 40503u + (t >> 3) * 97u) % (nodes - 1);
          carry(node, (node + offset) % nodes, weight);
        }
      }
    }
  }
  bound.software_hops = crossings / static_cast<double>(nodes);
  bound.physical_hops_per_software_hop = crossings > 0 ? link_crossings / crossings : 0;
  const auto busiest = busiest_link(links, load);
  bound.busiest_link_load = busiest.load;
  bound.busiest_class = busiest.link_class;
  if (bound.busiest_link_load > 0) {
    bound.gups = static_cast<double>(nodes) * link_bandwidth / (bound.busiest_link_load * bytes_per_update) * 1e-9;
  }
  return bound;
}

}  // namespace gups::model
