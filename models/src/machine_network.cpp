#include "models/src/machine_network.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <stdexcept>

#include "models/src/object_reader.hpp"
#include "topologies/dragonfly_links.hpp"
#include "topologies/fat_tree_links.hpp"
#include "topologies/torus_links.hpp"

namespace gups::model {
namespace {

using nlohmann::json;


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
  section.skip("efficiency");
  if (section.has("efficiency")) {
    machine.network_efficiency = section.number("efficiency", true);
    machine.network_efficiency_given = true;
    if (machine.network_efficiency > 1) {
      ObjectReader::fail(section.name("efficiency"),
                         fmt::format("must be at most 1 (a share of the bound), not {}", machine.network_efficiency));
    }
  }
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

// "tttmtm": t where dimension d wraps around, m where it is a mesh.
std::vector<bool> wraps_named(const std::string& field, const std::string& text, unsigned dimensions) {
  const auto wraps = wraps_from_letters(text, dimensions);
  if (!wraps) {
    ObjectReader::fail(field, fmt::format("must give one letter per dimension ({}), t where it wraps around and m "
                                          "where it is a mesh, such as \"{}\"",
                                          dimensions, std::string(dimensions, 't')));
  }
  return *wraps;
}

void read_torus(ObjectReader& torus, Machine& machine) {
  machine.torus.dimensions = torus.count("dimensions");
  if (machine.torus.dimensions > kMaxDimensions) {
    ObjectReader::fail("torus.dimensions", fmt::format("must be at most {}", kMaxDimensions));
  }
  // A shape rule, not a fact: absent, sides up to 128 (Blue Gene/P's file), named as left out.
  torus.skip("max_side");
  machine.torus.max_side = torus.has("max_side") ? torus.count("max_side") : 128;
  if (!torus.has("max_side")) machine.defaulted.emplace_back("torus.max_side");
  // Optional (docs/machine-files.md): absent, every partition wraps; misspelt, the unknown-field check names it.
  torus.skip("mesh_below_nodes");  // known, so that a misspelling of it is named
  machine.torus.mesh_below_nodes = torus.has("mesh_below_nodes") ? torus.count("mesh_below_nodes", 0) : 0;
  torus.skip("wraps");
  if (torus.has("wraps")) {
    machine.torus.wraps = wraps_named("torus.wraps", torus.text("wraps"), machine.torus.dimensions);
  }
  if (torus.has("partitions")) {
    const auto& listed = torus.child("partitions");
    if (!listed.is_object()) ObjectReader::fail("torus.partitions", "must map node counts to shapes such as \"8x8x16\"");
    for (const auto& [count, entry] : listed.items()) {
      const auto field = "torus.partitions." + count;
      char* end = nullptr;
      const auto nodes = std::strtoull(count.c_str(), &end, 10);
      if (count.empty() || *end != '\0' || nodes == 0) ObjectReader::fail(field, "must be keyed by a node count");
      // A shape, or {"shape": ..., "wraps": "tttmt"} for a partition whose wrap-around differs.
      auto shape_text = entry;
      if (entry.is_object()) {
        ObjectReader partition(entry, field);
        shape_text = partition.text("shape");
        machine.torus.partition_wraps[nodes] =
            wraps_named(field + ".wraps", partition.text("wraps"), machine.torus.dimensions);
        partition.reject_unknown();
      }
      if (!shape_text.is_string()) ObjectReader::fail(field, "must be a shape such as \"8x8x16\", or {\"shape\", \"wraps\"}");
      try {
        auto shape = TorusShape::parse(shape_text.get<std::string>());
        if (shape.nodes() != nodes || shape.dimensions() != machine.torus.dimensions) {
          ObjectReader::fail(field, fmt::format("is {}: {} nodes in {} dimensions, not {} in {}", shape.to_string(),
                                                shape.nodes(), shape.dimensions(), nodes, machine.torus.dimensions));
        }
        for (const auto side : shape.sizes()) {
          if (side > machine.torus.max_side) ObjectReader::fail(field, "has a side longer than torus.max_side");
        }
        machine.torus.partitions.emplace(nodes, std::move(shape));
      } catch (const std::invalid_argument& e) {
        if (std::string(e.what()).find(field) != std::string::npos) throw;
        ObjectReader::fail(field, e.what());
      }
    }
  }
  read_links(torus, machine);
}

void read_fat_tree(ObjectReader& tree, Machine& machine) {
  FatTreeParameters p;
  p.down = count_list(tree, "down");
  p.up = count_list(tree, "up");
  p.link_counts = count_list(tree, "link_counts");
  read_links(tree, machine);
  read_virtual_dimensions(tree, machine);
  checked("fat_tree", [&p] { FatTreeLinks{p}; });
  machine.network_parameters = p.to_simgrid();
}

void read_dragonfly(ObjectReader& fly, Machine& machine) {
  DragonflyParameters p;
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
  machine.network_parameters = p.to_simgrid();
}

nlohmann::ordered_json write_torus(const Machine& machine) {
  nlohmann::ordered_json section{{"dimensions", machine.torus.dimensions},
                                 {"max_side", machine.torus.max_side},
                                 {"mesh_below_nodes", machine.torus.mesh_below_nodes}};
  if (!machine.torus.wraps.empty()) section["wraps"] = wraps_letters(machine.torus.wraps);
  if (!machine.torus.partitions.empty()) {
    auto& listed = section["partitions"] = nlohmann::ordered_json::object();
    for (const auto& [nodes, shape] : machine.torus.partitions) {
      const auto wraps = machine.torus.partition_wraps.find(nodes);
      listed[std::to_string(nodes)] =
          wraps == machine.torus.partition_wraps.end()
              ? nlohmann::ordered_json(shape.to_string())
              : nlohmann::ordered_json{{"shape", shape.to_string()}, {"wraps", wraps_letters(wraps->second)}};
    }
  }
  return section;
}

nlohmann::ordered_json write_fat_tree(const Machine& machine) {
  const auto p = FatTreeParameters::parse(machine.network_parameters);
  return {{"down", p.down}, {"up", p.up}, {"link_counts", p.link_counts}};
}

nlohmann::ordered_json write_dragonfly(const Machine& machine) {
  const auto p = DragonflyParameters::parse(machine.network_parameters);
  return {{"groups", p.groups},
          {"group_links", p.group_links},
          {"chassis_per_group", p.chassis},
          {"chassis_links", p.chassis_links},
          {"routers_per_chassis", p.routers},
          {"router_links", p.router_links},
          {"nodes_per_router", p.nodes_per_router}};
}

// A machine file's network section of each topology (topologies.def): its
// fields, read into the machine's SimGrid parameters and written back.
struct NetworkSection {
  const char* topology;
  void (*read)(ObjectReader& section, Machine& machine);
  nlohmann::ordered_json (*write)(const Machine& machine);
};
constexpr NetworkSection kSections[] = {
    {"torus", read_torus, write_torus},
    {"fat_tree", read_fat_tree, write_fat_tree},
    {"dragonfly", read_dragonfly, write_dragonfly},
};

const NetworkSection& section_of(const TopologyKind& topology) {
  for (const auto& section : kSections) {
    if (topology.name == std::string(section.topology)) return section;
  }
  throw std::logic_error(std::string("no machine-file section for the topology ") + topology.name);
}

}  // namespace

void read_network_section(const json& document, Machine& machine) {
  std::vector<const NetworkSection*> present;
  std::vector<std::string> others;
  for (const auto& section : kSections) {
    if (document.contains(section.topology)) present.push_back(&section);
    if (&section != &kSections[0]) others.push_back(fmt::format("'{}'", section.topology));
  }
  if (present.size() != 1) {
    ObjectReader::fail(kSections[0].topology,
                       present.empty() ? fmt::format("is missing (or give a {} section)", fmt::join(others, " or "))
                                       : fmt::format("and {}: give exactly one network section", fmt::join(others, ", ")));
  }
  const auto& found = *present.front();
  machine.topology = &topology_named(found.topology);
  ObjectReader section(document.at(found.topology), found.topology);
  found.read(section, machine);
  section.reject_unknown();
}

void write_network_section(const Machine& machine, nlohmann::ordered_json& document) {
  auto section = section_of(*machine.topology).write(machine);
  section["link_bandwidth_bytes_per_s"] = machine.link_bandwidth;
  section["link_latency_s"] = machine.link_latency;
  if (machine.network_efficiency_given) section["efficiency"] = machine.network_efficiency;
  if (!machine.topology->is_virtual_torus) section["virtual_dimensions"] = machine.torus.dimensions;
  document[machine.topology->name] = section;
}

std::string simgrid_parameters(const Machine& machine, std::uint64_t nodes) {
  if (machine.topology->partition == nullptr) {
    throw std::logic_error(fmt::format("a {}'s partitions are shapes, not SimGrid parameters", machine.topology->label));
  }
  return machine.topology->partition(machine.network_parameters, nodes, machine.name);
}

double partition_bisection(const Machine& machine, std::uint64_t nodes) {
  return machine.topology->bisection(simgrid_parameters(machine, nodes), machine.link_bandwidth);
}

std::optional<std::vector<bool>> wraps_from_letters(const std::string& text, unsigned dimensions) {
  if (text.size() != dimensions || text.find_first_not_of("tm") != std::string::npos) return std::nullopt;
  std::vector<bool> wraps;
  for (const char c : text) wraps.push_back(c == 't');
  return wraps;
}

std::string wraps_letters(const std::vector<bool>& wraps) {
  std::string text;
  for (const bool w : wraps) text += w ? 't' : 'm';
  return text;
}

std::shared_ptr<const PhysicalLinks> physical_links(const Machine& machine, const TorusShape& shape, bool mesh) {
  return physical_links(machine, shape, std::vector<bool>(shape.dimensions(), !mesh));
}

std::shared_ptr<const PhysicalLinks> physical_links(const Machine& machine, const TorusShape& shape,
                                                    const std::vector<bool>& wraps) {
  if (machine.topology->links) return machine.topology->links(simgrid_parameters(machine, shape.nodes()));
  return std::make_shared<TorusLinks>(shape, wraps);
}

}  // namespace gups::model
