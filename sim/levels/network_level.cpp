#include "sim/levels/network_level.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace gups {

#define GUPS_NETWORK_LEVEL(name) extern const NetworkLevelKind network_level_##name;
#include "sim/levels/levels.def"
#undef GUPS_NETWORK_LEVEL

namespace {

const std::vector<const NetworkLevelKind*>& kinds() {
  static const std::vector<const NetworkLevelKind*> registered{
#define GUPS_NETWORK_LEVEL(name) &network_level_##name,
#include "sim/levels/levels.def"
#undef GUPS_NETWORK_LEVEL
  };
  return registered;
}

}  // namespace

OneHopAtLeast::OneHopAtLeast(const PhysicalLinks& links, LinkSpeeds speeds) : latency_(speeds.latency) {
  double fastest = 0;
  for (std::uint32_t link = 0; link < links.count(); ++link) {
    if (links.exists(link)) fastest = std::max(fastest, links.bandwidth_factor(link));
  }
  // No link at all (one node): no message crosses, and none is bounded.
  fastest_bandwidth_ = fastest > 0 ? speeds.bandwidth * fastest : std::numeric_limits<double>::infinity();
}

NetworkLevel::NetworkLevel() : kind_(nullptr) {
  for (const auto* kind : kinds()) {
    if (kind->make_timing == nullptr) {
      kind_ = kind;
      return;
    }
  }
  throw std::logic_error("levels.def registers no level on SimGrid's own links");
}

NetworkLevel NetworkLevel::named(const std::string& name) {
  for (const auto* kind : kinds()) {
    if (name == kind->name) return NetworkLevel(kind);
  }
  throw std::invalid_argument(
      fmt::format("unknown network level '{}' (give {})", name, fmt::join(network_level_names(), ", ")));
}

std::vector<NetworkLevel> NetworkLevel::all() {
  std::vector<NetworkLevel> levels;
  for (const auto* kind : kinds()) levels.push_back(NetworkLevel(kind));
  return levels;
}

void NetworkLevel::check(const LevelParameters& parameters) const {
  if (kind_->check != nullptr) kind_->check(parameters);
}

std::unique_ptr<MessageTiming> NetworkLevel::timing(std::shared_ptr<const PhysicalLinks> links, LinkSpeeds speeds,
                                                    const LevelParameters& parameters) const {
  if (simgrid_links()) {
    throw std::invalid_argument(fmt::format("the {} level is SimGrid's own: it times no message", name()));
  }
  if (!(speeds.bandwidth > 0) || !(speeds.latency >= 0)) {
    throw std::invalid_argument("a network level needs a link bandwidth above 0 and a latency of 0 or more");
  }
  check(parameters);
  return kind_->make_timing(std::move(links), speeds, parameters);
}

std::string to_string(NetworkLevel level) { return level.name(); }

NetworkLevel network_level_named(const std::string& name) { return NetworkLevel::named(name); }

std::vector<std::string> network_level_names() {
  std::vector<std::string> names;
  for (const auto* kind : kinds()) names.emplace_back(kind->name);
  return names;
}

std::string network_levels_json() {
  auto list = nlohmann::ordered_json::array();
  for (const auto* kind : kinds()) {
    list.push_back({{"name", kind->name}, {"help", kind->help}, {"simgrid_links", kind->make_timing == nullptr}});
  }
  return list.dump();
}

}  // namespace gups
