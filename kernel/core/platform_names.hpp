// The names of the simulated platform: gups-topology writes them into the
// SimGrid platform, and the simulation looks hosts and torus links up by
// them, so both read them from here.
#pragma once

#include <cstdint>
#include <string>

namespace gups {

inline constexpr const char* kTorusClusterId = "torus";
inline constexpr const char* kHostPrefix = "node-";

inline std::string host_name(std::uint64_t node) { return kHostPrefix + std::to_string(node); }

// SimGrid names a torus cluster's link "<cluster>_link_from_A_to_B" (with
// _UP and _DOWN for its two directions).
inline std::string torus_link_prefix() { return std::string(kTorusClusterId) + "_link_from_"; }

// Properties of the torus zone at the network levels other than flow
// (simulated_network.hpp): the level and the torus it models.
inline constexpr const char* kNetworkLevelProperty = "gups/network-level";
inline constexpr const char* kTorusShapeProperty = "gups/torus-shape";
inline constexpr const char* kTorusWrapsProperty = "gups/torus-wraps";  // "1,1,0": wrap-around per dimension
inline constexpr const char* kLinkBandwidthProperty = "gups/link-bandwidth";  // bytes per second, each way
inline constexpr const char* kLinkLatencyProperty = "gups/link-latency";      // seconds per hop
// Off the torus (any level): the physical topology, "fat_tree" or
// "dragonfly", and its SimGrid topo_parameters. Absent: the torus above.
inline constexpr const char* kTopologyProperty = "gups/topology";
inline constexpr const char* kTopologyParametersProperty = "gups/topology-parameters";

}  // namespace gups
