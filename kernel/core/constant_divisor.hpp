// Division of 32-bit numbers by a divisor fixed at run time, with two
// multiplications instead of a divide instruction (Lemire, Kaser and Kurz,
// "Faster Remainder by Direct Computation", 2019): exact for every 32-bit
// numerator. Software routing asks for a node's coordinates on every hop of
// every update; a torus with a side that is not a power of two would
// otherwise pay two divisions each time, even with owner prediction.
#pragma once

#include <cstdint>

namespace gups {

class ConstantDivisor {
 public:
  ConstantDivisor() noexcept = default;
  explicit ConstantDivisor(std::uint32_t divisor) noexcept
      : divisor_(divisor), inverse_(divisor > 1 ? UINT64_MAX / divisor + 1 : 0) {}

  std::uint32_t quotient(std::uint32_t n) const noexcept {
    if (divisor_ <= 1) return n;
    return static_cast<std::uint32_t>((static_cast<unsigned __int128>(inverse_) * n) >> 64);
  }
  std::uint32_t remainder(std::uint32_t n) const noexcept {
    if (divisor_ <= 1) return 0;
    const std::uint64_t fraction = inverse_ * n;  // n / divisor's fractional part, in 64 bits
    return static_cast<std::uint32_t>((static_cast<unsigned __int128>(fraction) * divisor_) >> 64);
  }

 private:
  std::uint32_t divisor_ = 1;
  std::uint64_t inverse_ = 0;  // ceil(2^64 / divisor)
};

}  // namespace gups
