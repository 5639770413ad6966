#include "topologies/dragonfly_links.hpp"

#include "topologies/topology.hpp"
#include "topologies/topology_parameters.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace gups {
namespace {

constexpr std::uint32_t kNone = UINT32_MAX;

unsigned count_of(const std::string& item, const char* what) {
  return topology_count(item, fmt::format("dragonfly {}", what));
}

std::pair<unsigned, unsigned> pair_of(const std::string& text, const char* what) {
  const auto comma = text.find(',');
  if (comma == std::string::npos) throw std::invalid_argument(fmt::format("dragonfly {}: '{}' is not 'count,links'", what, text));
  return {count_of(text.substr(0, comma), what), count_of(text.substr(comma + 1), what)};
}

}  // namespace

std::string DragonflyParameters::to_simgrid() const {
  return fmt::format("{},{};{},{};{},{};{}", groups, group_links, chassis, chassis_links, routers, router_links,
                     nodes_per_router);
}

DragonflyParameters DragonflyParameters::parse(const std::string& text) {
  const auto parts = topology_parts(text, ';');
  if (parts.size() != 4) {
    throw std::invalid_argument("a dragonfly is 'groups,links;chassis,links;routers,links;nodes': '" + text + "'");
  }
  DragonflyParameters p;
  std::tie(p.groups, p.group_links) = pair_of(parts[0], "groups");
  std::tie(p.chassis, p.chassis_links) = pair_of(parts[1], "chassis");
  std::tie(p.routers, p.router_links) = pair_of(parts[2], "routers");
  p.nodes_per_router = count_of(parts[3], "nodes per router");
  p.check();
  return p;
}

void DragonflyParameters::check() const {
  for (const auto value : {groups, group_links, chassis, chassis_links, routers, router_links, nodes_per_router}) {
    if (value == 0) throw std::invalid_argument("a dragonfly's counts must all be at least 1");
  }
  if (groups > routers) {
    throw std::invalid_argument(fmt::format(
        "a dragonfly of {} groups needs at least as many routers per chassis (has {}): SimGrid links router r of "
        "each group to group r and reaches it from blade r of a chassis",
        groups, routers));
  }
  if (nodes() > (1u << 24)) throw std::invalid_argument("a dragonfly of more than 2^24 nodes");
}

DragonflyLinks::DragonflyLinks(DragonflyParameters parameters) : parameters_(parameters) {
  parameters_.check();
  const auto& p = parameters_;
  const std::uint64_t routers = std::uint64_t{p.groups} * p.chassis * p.routers;
  node_up_.assign(routers * p.nodes_per_router, kNone);
  node_down_.assign(routers * p.nodes_per_router, kNone);
  green_.assign(routers * p.routers, kNone);
  black_.assign(routers * p.chassis, kNone);
  blue_.assign(routers, kNone);
  auto cable = [this](unsigned char link_class) {
    cables_.push_back(link_class);
    return static_cast<std::uint32_t>((cables_.size() - 1) * 2);
  };
  for (std::uint64_t r = 0; r < routers; ++r) {
    for (unsigned n = 0; n < p.nodes_per_router; ++n) {
      const auto up = cable(0);
      node_up_[r * p.nodes_per_router + n] = up;
      node_down_[r * p.nodes_per_router + n] = up + 1;
    }
  }
  for (std::uint64_t c = 0; c < std::uint64_t{p.groups} * p.chassis; ++c) {
    for (unsigned j = 0; j < p.routers; ++j) {
      for (unsigned k = j + 1; k < p.routers; ++k) {
        const auto up = cable(1);
        green_[(c * p.routers + j) * p.routers + k] = up;
        green_[(c * p.routers + k) * p.routers + j] = up + 1;
      }
    }
  }
  for (unsigned g = 0; g < p.groups; ++g) {
    for (unsigned j = 0; j < p.chassis; ++j) {
      for (unsigned k = j + 1; k < p.chassis; ++k) {
        for (unsigned l = 0; l < p.routers; ++l) {
          const auto up = cable(2);
          black_[router(g, j, l) * p.chassis + k] = up;
          black_[router(g, k, l) * p.chassis + j] = up + 1;
        }
      }
    }
  }
  const std::uint64_t per_group = std::uint64_t{p.chassis} * p.routers;
  for (unsigned i = 0; i < p.groups; ++i) {
    for (unsigned j = i + 1; j < p.groups; ++j) {
      const auto up = cable(3);
      blue_[i * per_group + j] = up;
      blue_[j * per_group + i] = up + 1;
    }
  }
  if (cables_.size() * 2 > UINT32_MAX) throw std::invalid_argument("a dragonfly of more than 2^31 cables");
}

double DragonflyLinks::bandwidth_factor(std::uint32_t link) const noexcept {
  switch (cables_[link / 2]) {
    case 1:
      return parameters_.router_links;
    case 2:
      return parameters_.chassis_links;
    case 3:
      return parameters_.group_links;
    default:
      return 1.0;
  }
}

std::vector<std::string> DragonflyLinks::class_names() const {
  return {"node-router", "green (routers of a chassis)", "black (chassis of a group)", "blue (groups)"};
}

void DragonflyLinks::route(std::uint64_t from, std::uint64_t to, std::vector<std::uint32_t>& links) const {
  links.clear();
  const auto& p = parameters_;
  struct Coordinates {
    std::uint64_t group, chassis, blade, node;
  };
  auto coordinates = [&p](std::uint64_t rank) {
    const std::uint64_t per_blade = p.nodes_per_router, per_chassis = per_blade * p.routers,
                        per_group = per_chassis * p.chassis;
    return Coordinates{rank / per_group, rank % per_group / per_chassis, rank % per_chassis / per_blade,
                       rank % per_blade};
  };
  const auto mine = coordinates(from);
  const auto target = coordinates(to);
  const std::uint64_t my_router = router(mine.group, mine.chassis, mine.blade);
  const std::uint64_t target_router = router(target.group, target.chassis, target.blade);
  const std::uint64_t per_group = std::uint64_t{p.chassis} * p.routers;
  // DragonflyZone::get_local_route; a router's group, chassis and blade
  // follow from its index.
  auto group_of = [&](std::uint64_t r) { return r / per_group; };
  auto chassis_of = [&](std::uint64_t r) { return r % per_group / p.routers; };
  auto blade_of = [&](std::uint64_t r) { return r % p.routers; };
  links.push_back(node_up_[my_router * p.nodes_per_router + mine.node]);
  std::uint64_t current = my_router;
  if (target_router != my_router) {
    if (group_of(target_router) != group_of(current)) {
      if (blade_of(current) != target.group) {
        links.push_back(green_[current * p.routers + target.group]);
        current = router(mine.group, mine.chassis, target.group);
      }
      if (chassis_of(current) != 0) {
        links.push_back(black_[current * p.chassis]);
        current = router(mine.group, 0, target.group);
      }
      links.push_back(blue_[current]);
      current = router(target.group, 0, mine.group);
    }
    if (target.blade != blade_of(current)) {
      links.push_back(green_[current * p.routers + target.blade]);
      current = router(target.group, 0, target.blade);  // SimGrid's: chassis 0, wherever the message is
    }
    if (target.chassis != chassis_of(current)) links.push_back(black_[current * p.chassis + target.chassis]);
  }
  links.push_back(node_down_[target_router * p.nodes_per_router + target.node]);
}

namespace {

std::string dragonfly_partition(const std::string& whole, std::uint64_t nodes, const std::string& machine) {
  auto p = DragonflyParameters::parse(whole);
  const auto kept = partition_counts({p.nodes_per_router, p.routers, p.chassis, p.groups}, nodes,
                                     "routers, chassis or groups", machine);
  unsigned* counts[] = {&p.nodes_per_router, &p.routers, &p.chassis, &p.groups};
  for (std::size_t level = 0; level < 4; ++level) *counts[level] = level < kept.size() ? kept[level] : 1;
  p.check();
  return p.to_simgrid();
}

// The groups' global links, else the chassis', else the routers'.
double dragonfly_bisection(const std::string& parameters, double link_bandwidth) {
  const auto fly = DragonflyParameters::parse(parameters);
  auto halves = [](double n) { return std::floor(n / 2) * std::ceil(n / 2); };
  const double node_links = std::floor(static_cast<double>(fly.nodes()) / 2);
  double cut = node_links;
  if (fly.groups > 1) {
    cut = halves(fly.groups) * fly.group_links;
  } else if (fly.chassis > 1) {
    cut = halves(fly.chassis) * fly.routers * fly.chassis_links;
  } else if (fly.routers > 1) {
    cut = halves(fly.routers) * fly.router_links;
  }
  return std::min(cut, node_links) * link_bandwidth;
}

std::shared_ptr<const PhysicalLinks> dragonfly_links(const std::string& parameters) {
  return std::make_shared<DragonflyLinks>(DragonflyParameters::parse(parameters));
}

}  // namespace

extern const TopologyKind topology_dragonfly{
    "dragonfly", "dragonfly", "DRAGONFLY", false, dragonfly_partition, dragonfly_bisection, dragonfly_links,
    nullptr};

}  // namespace gups
