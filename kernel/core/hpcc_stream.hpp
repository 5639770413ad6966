// The HPC Challenge RandomAccess update stream: a GF(2) shift register,
// as in the HPCC 1.5 reference code, so tables compare word for word.
#pragma once

#include <cstdint>

namespace gups {

inline constexpr std::uint64_t kPoly = 0x0000000000000007ULL;
inline constexpr std::uint64_t kPeriod = 1317624576693539401ULL;

// One step of the register: multiply by x modulo the stream polynomial.
constexpr std::uint64_t next_random(std::uint64_t a) noexcept {
  return (a << 1) ^ ((a >> 63) != 0 ? kPoly : 0);
}

// The register value after k steps from 1 (starts(0) == 1), in O(64^2).
std::uint64_t starts(std::uint64_t k) noexcept;

}  // namespace gups
