// A virtual torus of 1 to 6 dimensions over the nodes, dimension 0 varying
// fastest in node numbering (as SimGrid numbers torus hosts), and the
// dimension-order software routing over it.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "kernel/core/constant_divisor.hpp"

namespace gups {

inline constexpr unsigned kMaxDimensions = 6;
inline constexpr std::uint64_t kMaxNodes = std::uint64_t{1} << 40;

class TorusShape {
 public:
  // Throws std::invalid_argument for 0 or more than 6 dimensions, or a size 0.
  explicit TorusShape(std::vector<std::uint32_t> sizes);

  // "8x8x8" -> {8, 8, 8}; throws std::invalid_argument with a clear message.
  static TorusShape parse(const std::string& text);

  // A balanced shape of `dimensions` sizes multiplying to `nodes`, sizes
  // ascending: 64 -> 4x4x4, 128 -> 4x4x8, 96 -> 4x4x6, 7 -> 1x1x7.
  static TorusShape balanced(std::uint64_t nodes, unsigned dimensions = 3);

  unsigned dimensions() const noexcept { return static_cast<unsigned>(sizes_.size()); }
  std::uint32_t size(unsigned dimension) const noexcept { return sizes_[dimension]; }
  const std::vector<std::uint32_t>& sizes() const noexcept { return sizes_; }
  std::uint64_t nodes() const noexcept { return nodes_; }
  std::string to_string() const;

  // Shifts and masks when every side is a power of two (Blue Gene's shapes),
  // multiplications otherwise: software routing asks for coordinates on
  // every hop of every update.
  // `dimension` may be dimensions(), where first_difference() says two nodes
  // are one: that has a single coordinate, 0, so that a routing step can
  // look its next place up without a branch.
  std::uint32_t coordinate(std::uint64_t node, unsigned dimension) const noexcept {
    if (power_of_two_sides_) return static_cast<std::uint32_t>((node >> shift_[dimension]) & mask_[dimension]);
    if (nodes_ <= kFastNodes) {
      const auto line = by_stride_[dimension].quotient(static_cast<std::uint32_t>(node));
      return by_size_[dimension].remainder(line);
    }
    if (dimension == dimensions()) return 0;
    return static_cast<std::uint32_t>((node / stride_[dimension]) % sizes_[dimension]);
  }

  // The node reached from `node` by setting one coordinate.
  std::uint64_t with_coordinate(std::uint64_t node, unsigned dimension,
                                std::uint32_t value) const noexcept {
    return node + (static_cast<std::int64_t>(value) - coordinate(node, dimension)) *
                      static_cast<std::int64_t>(stride_[dimension]);
  }

  // The first dimension in which two nodes differ, or dimensions() if none:
  // the dimension of the next software-routing hop from `here` to `target`.
  // Every routing step of every update asks, so with power-of-two sides it
  // is the dimension of the lowest differing bit, one lookup and no branch
  // (whether an update is at its node cannot be predicted).
  unsigned first_difference(std::uint64_t here, std::uint64_t target) const noexcept {
    // Bit 63 is no node's (kMaxNodes): set, it stands for "no difference",
    // and the count needs no test for zero.
    if (power_of_two_sides_) return dimension_of_bit_[std::countr_zero((here ^ target) | kNoDifferenceBit)];
    if (here == target) return dimensions();
    return first_difference_by_coordinates(here, target);
  }

  // The other nodes on `node`'s line along `dimension`, in coordinate order.
  std::vector<std::uint64_t> line_neighbours(std::uint64_t node, unsigned dimension) const;

  // The dimensions (bit d for dimension d) along which `node`'s line holds
  // another node of its host, where each host holds `nodes_per_host`
  // consecutive nodes (a torus of processes: the node's processes first).
  unsigned dimensions_within_host(std::uint64_t node, std::uint64_t nodes_per_host) const;

  // Mean number of software-routing hops of a uniformly random update:
  // the sum over dimensions of (1 - 1/size).
  double expected_hops() const noexcept;

 private:
  unsigned first_difference_by_coordinates(std::uint64_t here, std::uint64_t target) const noexcept;

  std::vector<std::uint32_t> sizes_;
  std::vector<std::uint64_t> stride_;
  std::uint64_t nodes_ = 1;
  bool power_of_two_sides_ = true;
  // One past the dimensions: that of no difference (see coordinate()).
  std::array<unsigned, kMaxDimensions + 1> shift_{};
  std::array<std::uint64_t, kMaxDimensions + 1> mask_{};
  // Power-of-two sides: which dimension a node bit encodes; [63], that of
  // two equal nodes' difference, is dimensions().
  static constexpr std::uint64_t kNoDifferenceBit = std::uint64_t{1} << 63;
  static_assert(kMaxNodes <= kNoDifferenceBit);
  std::array<std::uint8_t, 64> dimension_of_bit_{};
  // Node numbers below 2^32 divide by multiplication.
  static constexpr std::uint64_t kFastNodes = std::uint64_t{1} << 32;
  std::array<ConstantDivisor, kMaxDimensions + 1> by_stride_{};
  std::array<ConstantDivisor, kMaxDimensions + 1> by_size_{};
};

}  // namespace gups
