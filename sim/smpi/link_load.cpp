#include "kernel/mpi/link_load.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "kernel/mpi/simulation.hpp"
#include "sim/smpi/simulated_network.hpp"
#include "topologies/platform_names.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <cstdio>

namespace gups {
namespace {

// The bytes carried by one link, kept on the link (SimGrid's extension
// mechanism), since every simulated rank adds to the links of its routes.
struct CarriedBytes {
  double bytes = 0;
};

simgrid::xbt::Extension<simgrid::s4u::Link, CarriedBytes>& carried_bytes() {
  static auto id = simgrid::s4u::Link::extension_create<CarriedBytes>();
  return id;
}

// A torus link joins nodes A and B, which differ in one coordinate.
bool torus_link_ends(const std::string& name, std::uint64_t& from, std::uint64_t& to) {
  static const std::string format = torus_link_prefix() + "%llu_to_%llu";
  unsigned long long a = 0, b = 0;
  if (std::sscanf(name.c_str(), format.c_str(), &a, &b) != 2) return false;
  from = a;
  to = b;
  return true;
}

simgrid::s4u::Host* host_of(std::uint64_t node) { return simgrid::s4u::Host::by_name(host_name(node)); }

}  // namespace

// The platform's physical links: at the levels other than flow the routes
// and bytes are kept here; at flow (fat-tree, dragonfly) only the classes of
// SimGrid's links are read from them.
struct LinkLoad::LevelLinks {
  std::shared_ptr<const PhysicalLinks> links;
  bool routes_here = false;
  double bandwidth = 0;
  std::vector<double> bytes;
  std::vector<std::uint32_t> route;  // reused by every rank in turn (the simulation runs one rank at a time)
};

LinkLoad::LinkLoad() {
  carried_bytes();
  static std::optional<LevelLinks> level = []() -> std::optional<LevelLinks> {
    auto links = platform_physical_links();
    if (!links) return std::nullopt;
    const bool routes_here = !platform_network_level().simgrid_links();
    const auto count = links->count();
    return LevelLinks{std::move(links), routes_here, routes_here ? platform_link_bandwidth() : 0.0,
                      std::vector<double>(count, 0.0), {}};
  }();
  if (level) level_ = &*level;
  ranks_per_host_ = simulation::ranks_per_host();
}

void LinkLoad::carry(int from_rank, int to_rank, double bytes) {
  const auto from_node = static_cast<std::uint64_t>(from_rank) / ranks_per_host_;
  const auto to_node = static_cast<std::uint64_t>(to_rank) / ranks_per_host_;
  if (from_node == to_node) return;
  if (level_ && level_->routes_here) {
    level_->links->route(from_node, to_node, level_->route);
    for (const auto link : level_->route) level_->bytes[link] += bytes;
    return;
  }
  auto [route, added] = routes_.try_emplace({from_node, to_node});
  if (added) host_of(from_node)->route_to(host_of(to_node), route->second, nullptr);
  for (auto* link : route->second) {
    auto* carried = link->extension(carried_bytes());
    if (carried == nullptr) {
      carried = new CarriedBytes;
      link->extension_set(carried_bytes(), carried);
    }
    carried->bytes += bytes;
  }
}

namespace {

void add_link(LinkClassLoad& load, double bytes, double bandwidth, double seconds) {
  const double utilisation = seconds > 0 ? bytes / (bandwidth * seconds) : 0.0;
  ++load.links;
  load.bytes += bytes;
  load.mean_utilisation += utilisation;
  load.max_utilisation = std::max(load.max_utilisation, utilisation);
}

}  // namespace

std::vector<LinkClassLoad> LinkLoad::finish(const TorusShape& kernel_shape, double seconds) const {
  const auto hosts = platform_torus_shape();
  const TorusShape& shape = hosts ? *hosts : kernel_shape;
  std::vector<LinkClassLoad> loads(shape.dimensions());
  for (unsigned d = 0; d < shape.dimensions(); ++d) loads[d].dimension = d;
  const PhysicalLinks* links = level_ ? level_->links.get() : nullptr;
  if (links && !links->classes_are_dimensions()) {  // loads by the network's link classes
    const auto names = links->class_names();
    loads.assign(names.size(), {});
    for (unsigned c = 0; c < names.size(); ++c) loads[c] = LinkClassLoad{.dimension = c, .link_class = names[c]};
  }
  if (level_ && level_->routes_here) {
    for (std::uint32_t link = 0; link < links->count(); ++link) {
      if (links->exists(link)) {
        add_link(loads[links->link_class(link)], level_->bytes[link], level_->bandwidth * links->bandwidth_factor(link),
                 seconds);
      }
    }
  } else if (links) {
    for (const auto* link : simgrid::s4u::Engine::get_instance()->get_all_links()) {
      std::uint32_t number = 0;
      if (!numbered_link(link->get_name(), number) || !links->exists(number)) continue;
      const auto* carried = link->extension(carried_bytes());
      add_link(loads[links->link_class(number)], carried ? carried->bytes : 0.0, link->get_bandwidth(), seconds);
    }
  } else {
    for (const auto* link : simgrid::s4u::Engine::get_instance()->get_all_links()) {
      std::uint64_t from = 0, to = 0;
      if (!torus_link_ends(link->get_name(), from, to) || from >= shape.nodes() || to >= shape.nodes()) continue;
      const unsigned d = shape.first_difference(from, to);
      if (d >= shape.dimensions()) continue;
      const auto* carried = link->extension(carried_bytes());
      add_link(loads[d], carried ? carried->bytes : 0.0, link->get_bandwidth(), seconds);
    }
  }
  for (auto& load : loads) {
    if (load.links > 0) load.mean_utilisation /= static_cast<double>(load.links);
  }
  return loads;
}

}  // namespace gups
