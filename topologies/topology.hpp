// The physical networks, each registered once under its name
// (topologies.def), each with one table of operations: what the machine
// file's section, the model, the plan, the platform and the simulation ask
// of a network without knowing which one it is.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "topologies/physical_links.hpp"

namespace gups {

// A platform's property by name; throws std::invalid_argument when the
// platform has none.
using PropertyReader = std::function<std::string(const char* name)>;

struct TopologyKind {
  const char* name;          // the machine file's section, the plan's and the platform's: "fat_tree"
  const char* label;         // for people: "fat-tree"
  const char* simgrid_name;  // SimGrid's cluster topology: "FAT_TREE"
  // The network is itself the virtual torus the routed algorithms route
  // over (the paper's mapping): its partitions are the shapes of the
  // machine's shape rule, its network bound the paper's 4B/b. Else the
  // virtual torus is a balanced grid laid on its nodes in order, and a
  // partition is given by SimGrid's topo_parameters.
  bool is_virtual_torus;
  // The SimGrid parameters of the first `nodes` nodes of a machine whose
  // whole network has SimGrid parameters `whole`; throws
  // std::invalid_argument naming `machine` and the multiple to give. Null
  // where the partitions are shapes.
  std::string (*partition)(const std::string& whole, std::uint64_t nodes, const std::string& machine);
  // One-way bandwidth across the cut that halves the nodes of the network
  // of SimGrid parameters `parameters`. Null where the partitions are shapes
  // (the model takes the bisection from the shape).
  double (*bisection)(const std::string& parameters, double link_bandwidth);
  // The links of the network of SimGrid parameters `parameters`; null where
  // the partitions are shapes (TorusLinks from the shape instead).
  std::shared_ptr<const PhysicalLinks> (*links)(const std::string& parameters);
  // The links a simulated platform describes in its own properties
  // (gups/..., platform_names.hpp); null where the platform gives SimGrid's
  // parameters (gups/topology-parameters), read by `links`.
  std::shared_ptr<const PhysicalLinks> (*platform_links)(const PropertyReader& property);
};

// The links a simulated platform of `kind` describes in its properties, at
// the levels that time messages themselves. Throws std::invalid_argument.
std::shared_ptr<const PhysicalLinks> platform_links(const TopologyKind& kind, const PropertyReader& property);

// Throws std::invalid_argument naming every topology.
const TopologyKind& topology_named(const std::string& name);
// In topologies.def's order.
const std::vector<const TopologyKind*>& topologies();

}  // namespace gups
