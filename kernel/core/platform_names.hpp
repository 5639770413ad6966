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

}  // namespace gups
