// How much memory this host can still give, read before a table is allocated
// so that an oversized run stops with a message instead of being killed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gups {

// MemAvailable from /proc/meminfo, lowered to what the cgroup still allows
// when a limit is set. Empty when neither can be read.
std::optional<std::uint64_t> available_host_memory_bytes();

// "1.50 GiB", "12.0 MiB", "512 B".
std::string format_bytes(double bytes);

// A one-line error when `needed` does not fit in `available`, else empty.
// Needs are doubles: a size computed from user input may exceed 2^64 bytes,
// and must not wrap to a small one.
std::optional<std::string> memory_shortfall(double needed, std::uint64_t available,
                                            const std::string& what);

}  // namespace gups
