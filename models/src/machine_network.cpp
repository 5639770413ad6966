#include "models/src/machine_network.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>

#include "models/src/network_bound.hpp"
#include "models/src/object_reader.hpp"
#include "topologies/network/torus_links.hpp"

namespace gups::model {
namespace {

using nlohmann::json;

constexpr const char* kSections[] = {"torus", "fat_tree", "dragonfly"};

std::vector<unsigned> count_list(ObjectReader& reader, const std::string& key) {
  const auto& value = reader.child(key);
  if (!value.is_array() || value.empty()) ObjectReader::fail(reader.name(key), "must be a list of whole numbers >= 1");
  std::vector<unsigned> counts;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_number_integer() || value[i].get<long long>() < 1 || value[i].get<long long>() > (1 << 20)) {
      ObjectReader::fail(fmt::format("{}[{}]", reader.name(key), i), "must be a whole number from 1 to 2^20");
    }
    counts.push_back(value[i].get<unsigned>());
  }
  return counts;
}

void read_links(ObjectReader& section, Machine& machine) {
  machine.link_bandwidth = section.number("link_bandwidth_bytes_per_s", true);
  machine.link_latency = section.number("link_latency_s");
}

void read_virtual_dimensions(ObjectReader& section, Machine& machine) {
  machine.torus.dimensions = section.has("virtual_dimensions") ? section.count("virtual_dimensions") : 3;
  if (machine.torus.dimensions > kMaxDimensions) {
    ObjectReader::fail(section.name("virtual_dimensions"), fmt::format("must be at most {}", kMaxDimensions));
  }
  machine.torus.max_side = UINT32_MAX;
  machine.torus.mesh_below_nodes = 0;
}

// A topology's own check, its message under the section's name.
template <typename Check>
void checked(const char* section, Check check) {
  try {
    check();
  } catch (const std::invalid_argument& e) {
    ObjectReader::fail(section, fmt::format("does not describe a network: {}", e.what()));
  }
}

void read_torus(ObjectReader& torus, Machine& machine) {
  machine.torus.dimensions = torus.count("dimensions");
  if (machine.torus.dimensions > kMaxDimensions) {
    ObjectReader::fail("torus.dimensions", fmt::format("must be at most {}", kMaxDimensions));
  }
  machine.torus.max_side = torus.count("max_side");
  machine.torus.mesh_below_nodes = torus.count("mesh_below_nodes", 0);
  read_links(torus, machine);
}

void read_fat_tree(ObjectReader& tree, Machine& machine) {
  auto& p = machine.fat_tree;
  p.down = count_list(tree, "down");
  p.up = count_list(tree, "up");
  p.link_counts = count_list(tree, "link_counts");
  read_links(tree, machine);
  read_virtual_dimensions(tree, machine);
  checked("fat_tree", [&p] { FatTreeLinks{p}; });
}

void read_dragonfly(ObjectReader& fly, Machine& machine) {
  auto& p = machine.dragonfly;
  p.groups = fly.count("groups");
  p.group_links = fly.count("group_links");
  p.chassis = fly.count("chassis_per_group");
  p.chassis_links = fly.count("chassis_links");
  p.routers = fly.count("routers_per_chassis");
  p.router_links = fly.count("router_links");
  p.nodes_per_router = fly.count("nodes_per_router");
  read_links(fly, machine);
  read_virtual_dimensions(fly, machine);
  checked("dragonfly", [&p] { p.check(); });
}

// The first level, from the bottom, whose whole span holds `nodes`; its
// count becomes nodes over the span below it. Counts are bottom first.
std::vector<unsigned> partition_counts(const std::vector<unsigned>& counts, std::uint64_t nodes, const std::string& what,
                                       const std::string& machine) {
  if (nodes == 0) throw std::invalid_argument("the node count must be at least 1");
  std::uint64_t below = 1;
  for (std::size_t level = 0; level < counts.size(); ++level) {
    if (nodes <= below * counts[level]) {
      if (nodes % below != 0) {
        throw std::invalid_argument(fmt::format(
            "{} nodes do not fill whole {} of {} nodes on '{}' (give a multiple of {})", nodes,
            level == 0 ? "units" : what, below, machine, below));
      }
      std::vector<unsigned> kept(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(level) + 1);
      kept.back() = static_cast<unsigned>(nodes / below);
      return kept;
    }
    below *= counts[level];
  }
  throw std::invalid_argument(fmt::format("{} nodes exceed the {} nodes of '{}'", nodes, below, machine));
}

}  // namespace

std::string to_string(Topology topology) { return kSections[static_cast<int>(topology)]; }

const char* network_section_name(Topology topology) { return kSections[static_cast<int>(topology)]; }

void read_network_section(const json& document, Machine& machine) {
  std::vector<int> present;
  for (int i = 0; i < 3; ++i) {
    if (document.contains(kSections[i])) present.push_back(i);
  }
  if (present.size() != 1) {
    ObjectReader::fail("torus", present.empty() ? "is missing (or give a 'fat_tree' or 'dragonfly' section)"
                                                : "and 'fat_tree', 'dragonfly': give exactly one network section");
  }
  machine.topology = static_cast<Topology>(present.front());
  const char* name = kSections[present.front()];
  ObjectReader section(document.at(name), name);
  switch (machine.topology) {
    case Topology::torus:
      read_torus(section, machine);
      break;
    case Topology::fat_tree:
      read_fat_tree(section, machine);
      break;
    case Topology::dragonfly:
      read_dragonfly(section, machine);
      break;
  }
  section.reject_unknown();
}

void write_network_section(const Machine& machine, nlohmann::ordered_json& document) {
  using ordered = nlohmann::ordered_json;
  ordered section;
  switch (machine.topology) {
    case Topology::torus:
      section = {{"dimensions", machine.torus.dimensions},
                 {"max_side", machine.torus.max_side},
                 {"mesh_below_nodes", machine.torus.mesh_below_nodes}};
      break;
    case Topology::fat_tree:
      section = {{"down", machine.fat_tree.down}, {"up", machine.fat_tree.up}, {"link_counts", machine.fat_tree.link_counts}};
      break;
    case Topology::dragonfly: {
      const auto& p = machine.dragonfly;
      section = {{"groups", p.groups},
                 {"group_links", p.group_links},
                 {"chassis_per_group", p.chassis},
                 {"chassis_links", p.chassis_links},
                 {"routers_per_chassis", p.routers},
                 {"router_links", p.router_links},
                 {"nodes_per_router", p.nodes_per_router}};
      break;
    }
  }
  section["link_bandwidth_bytes_per_s"] = machine.link_bandwidth;
  section["link_latency_s"] = machine.link_latency;
  if (machine.topology != Topology::torus) section["virtual_dimensions"] = machine.torus.dimensions;
  document[network_section_name(machine.topology)] = section;
}

FatTreeParameters fat_tree_partition(const Machine& machine, std::uint64_t nodes) {
  const auto& whole = machine.fat_tree;
  FatTreeParameters p;
  p.down = partition_counts(whole.down, nodes, "leaf switches", machine.name);
  p.up.assign(whole.up.begin(), whole.up.begin() + static_cast<std::ptrdiff_t>(p.down.size()));
  p.link_counts.assign(whole.link_counts.begin(), whole.link_counts.begin() + static_cast<std::ptrdiff_t>(p.down.size()));
  return p;
}

DragonflyParameters dragonfly_partition(const Machine& machine, std::uint64_t nodes) {
  auto p = machine.dragonfly;
  const auto kept = partition_counts({p.nodes_per_router, p.routers, p.chassis, p.groups}, nodes,
                                     "routers, chassis or groups", machine.name);
  unsigned* counts[] = {&p.nodes_per_router, &p.routers, &p.chassis, &p.groups};
  for (std::size_t level = 0; level < 4; ++level) *counts[level] = level < kept.size() ? kept[level] : 1;
  p.check();
  return p;
}

std::string simgrid_parameters(const Machine& machine, std::uint64_t nodes) {
  return machine.topology == Topology::fat_tree ? fat_tree_partition(machine, nodes).to_simgrid()
                                                : dragonfly_partition(machine, nodes).to_simgrid();
}

double partition_bisection(const Machine& machine, std::uint64_t nodes) {
  return machine.topology == Topology::fat_tree
             ? fat_tree_bisection(fat_tree_partition(machine, nodes), machine.link_bandwidth)
             : dragonfly_bisection(dragonfly_partition(machine, nodes), machine.link_bandwidth);
}

std::shared_ptr<const PhysicalLinks> physical_links(const Machine& machine, const TorusShape& shape, bool mesh) {
  switch (machine.topology) {
    case Topology::fat_tree:
      return std::make_shared<FatTreeLinks>(fat_tree_partition(machine, shape.nodes()));
    case Topology::dragonfly:
      return std::make_shared<DragonflyLinks>(dragonfly_partition(machine, shape.nodes()));
    case Topology::torus:
      break;
  }
  return std::make_shared<TorusLinks>(shape, std::vector<bool>(shape.dimensions(), !mesh));
}

}  // namespace gups::model
