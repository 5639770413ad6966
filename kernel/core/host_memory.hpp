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

// a * b, or the largest uint64 when the product does not fit: a size too
// large to count is too large to allocate, and must not wrap to a small one.
constexpr std::uint64_t saturating_product(std::uint64_t a, std::uint64_t b) noexcept {
  std::uint64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

// "1.50 GiB", "12.0 MiB", "512 B".
std::string format_bytes(std::uint64_t bytes);

// A one-line error when `needed` does not fit in `available`, else empty.
std::optional<std::string> memory_shortfall(std::uint64_t needed, std::uint64_t available,
                                            const std::string& what);

}  // namespace gups
