#include "kernel/core/hpcc_stream.hpp"

#include <array>

namespace gups {
namespace {

// x^(2j) modulo the polynomial: squaring in GF(2)[x] maps bit j to bit 2j,
// so these 64 values square any register value with one XOR per set bit.
constexpr std::array<std::uint64_t, 64> make_square_table() {
  std::array<std::uint64_t, 64> table{};
  std::uint64_t power = 1;
  for (auto& entry : table) {
    entry = power;
    power = next_random(next_random(power));
  }
  return table;
}

constexpr auto kSquareOf = make_square_table();

std::uint64_t square(std::uint64_t a) noexcept {
  std::uint64_t result = 0;
  for (int bit = 0; a != 0; ++bit, a >>= 1) {
    if ((a & 1) != 0) {
      result ^= kSquareOf[bit];
    }
  }
  return result;
}

}  // namespace

std::uint64_t starts(std::uint64_t k) noexcept {
  k %= kPeriod;
  std::uint64_t result = 1;
  for (int bit = 63; bit >= 0; --bit) {
    result = square(result);
    if (((k >> bit) & 1) != 0) {
      result = next_random(result);
    }
  }
  return result;
}

}  // namespace gups
