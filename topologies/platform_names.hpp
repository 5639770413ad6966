// The names of the simulated platform: gups-topology writes them into the
// SimGrid platform, and the simulation looks hosts and torus links up by
// them, so both read them from here.
#pragma once

#include <cstdint>
#include <string>

namespace gups {

// The zone (a SimGrid cluster) that holds every host and link of a
// platform, whatever its topology; named "torus" since the first platforms
// were tori, and kept so that every platform written before stays valid.
inline constexpr const char* kNetworkZoneId = "torus";
inline constexpr const char* kHostPrefix = "node-";

inline std::string host_name(std::uint64_t node) { return kHostPrefix + std::to_string(node); }

// SimGrid names a torus cluster's link "<zone>_link_from_A_to_B" (with
// _UP and _DOWN for its two directions).
inline std::string torus_link_prefix() { return std::string(kNetworkZoneId) + "_link_from_"; }

// SimGrid names a fat-tree's or dragonfly's directed link "..._<i>_UP" or
// "..._<i>_DOWN", i counting the cables in creation order: PhysicalLinks'
// link 2i or 2i + 1. False for any other name.
inline bool numbered_link(const std::string& name, std::uint32_t& link) {
  const bool up = name.ends_with("_UP");
  if (!up && !name.ends_with("_DOWN")) return false;
  const auto end = name.size() - (up ? 3 : 5);
  if (end == 0) return false;
  const auto start = name.rfind('_', end - 1);
  if (start == std::string::npos || start + 1 >= end || end - start - 1 > 9) return false;
  const auto number = name.substr(start + 1, end - start - 1);
  if (number.find_first_not_of("0123456789") != std::string::npos) return false;
  link = static_cast<std::uint32_t>(std::stoul(number) * 2 + (up ? 0 : 1));
  return true;
}

// Properties of the network zone at the network levels other than flow
// (simulated_network.hpp): the level and the torus it models.
inline constexpr const char* kNetworkLevelProperty = "gups/network-level";
inline constexpr const char* kTorusShapeProperty = "gups/torus-shape";
inline constexpr const char* kTorusWrapsProperty = "gups/torus-wraps";  // "1,1,0": wrap-around per dimension
// The level's own parameters as one line of JSON (level_parameters).
inline constexpr const char* kLevelParametersProperty = "gups/level-parameters";
inline constexpr const char* kLinkBandwidthProperty = "gups/link-bandwidth";  // bytes per second, each way
inline constexpr const char* kLinkLatencyProperty = "gups/link-latency";      // seconds per hop
// Off the torus (any level): the physical topology, "fat_tree" or
// "dragonfly", and its SimGrid topo_parameters. Absent: the torus above.
inline constexpr const char* kTopologyProperty = "gups/topology";
inline constexpr const char* kTopologyParametersProperty = "gups/topology-parameters";

}  // namespace gups
