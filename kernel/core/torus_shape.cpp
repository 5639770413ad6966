#include "kernel/core/torus_shape.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <stdexcept>

namespace gups {

TorusShape::TorusShape(std::vector<std::uint32_t> sizes) : sizes_(std::move(sizes)) {
  if (sizes_.empty() || sizes_.size() > kMaxDimensions) {
    throw std::invalid_argument("a torus shape has 1 to 6 dimensions, not " +
                                std::to_string(sizes_.size()));
  }
  for (const auto size : sizes_) {
    if (size == 0) throw std::invalid_argument("a torus dimension cannot have size 0");
    const auto d = stride_.size();
    shift_[d] = static_cast<unsigned>(std::countr_zero(nodes_));
    mask_[d] = size - 1;
    power_of_two_sides_ &= std::has_single_bit(size);
    stride_.push_back(nodes_);
    nodes_ *= size;
    if (nodes_ > kMaxNodes) {
      throw std::invalid_argument("torus shape has more than 2^40 nodes");
    }
    if (nodes_ <= kFastNodes) {
      by_stride_[d] = ConstantDivisor(static_cast<std::uint32_t>(stride_.back()));
      by_size_[d] = ConstantDivisor(size);
    }
  }
  if (power_of_two_sides_) {
    for (unsigned d = 0; d < dimensions(); ++d) {
      const auto bits = static_cast<unsigned>(std::countr_zero(sizes_[d]));
      for (unsigned b = shift_[d]; b < shift_[d] + bits; ++b) dimension_of_bit_[b] = static_cast<std::uint8_t>(d);
    }
    dimension_of_bit_[63] = static_cast<std::uint8_t>(dimensions());
  }
}

TorusShape TorusShape::parse(const std::string& text) {
  std::vector<std::uint32_t> sizes;
  std::size_t begin = 0;
  while (true) {
    const auto end = text.find('x', begin);
    const auto part = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    std::uint32_t value = 0;
    const auto [last, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.empty() || error != std::errc{} || last != part.data() + part.size()) {
      throw std::invalid_argument("shape '" + text +
                                  "' is not sizes joined by 'x', such as 8x8x8");
    }
    sizes.push_back(value);
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return TorusShape(std::move(sizes));
}

TorusShape TorusShape::balanced(std::uint64_t nodes, unsigned dimensions) {
  if (nodes == 0) throw std::invalid_argument("a torus needs at least one node");
  std::vector<std::uint64_t> factors;
  for (std::uint64_t rest = nodes, p = 2; rest > 1;) {
    if (p * p > rest) {
      factors.push_back(rest);
      break;
    }
    if (rest % p == 0) {
      factors.push_back(p);
      rest /= p;
    } else {
      ++p;
    }
  }
  // Largest factors first, each onto the smallest dimension so far.
  std::sort(factors.rbegin(), factors.rend());
  std::vector<std::uint64_t> sizes(dimensions, 1);
  for (const auto factor : factors) {
    *std::min_element(sizes.begin(), sizes.end()) *= factor;
  }
  std::sort(sizes.begin(), sizes.end());
  if (sizes.back() > UINT32_MAX) {
    throw std::invalid_argument("no torus shape for " + std::to_string(nodes) + " nodes");
  }
  return TorusShape(std::vector<std::uint32_t>(sizes.begin(), sizes.end()));
}

std::string TorusShape::to_string() const {
  std::string text;
  for (const auto size : sizes_) {
    if (!text.empty()) text.push_back('x');
    text.append(std::to_string(size));
  }
  return text;
}

unsigned TorusShape::first_difference_by_coordinates(std::uint64_t here, std::uint64_t target) const noexcept {
  for (unsigned d = 0; d < dimensions(); ++d) {
    if (coordinate(here, d) != coordinate(target, d)) return d;
  }
  return dimensions();
}

std::vector<std::uint64_t> TorusShape::line_neighbours(std::uint64_t node, unsigned dimension) const {
  std::vector<std::uint64_t> result;
  for (std::uint32_t c = 0; c < sizes_[dimension]; ++c) {
    if (c != coordinate(node, dimension)) result.push_back(with_coordinate(node, dimension, c));
  }
  return result;
}

unsigned TorusShape::dimensions_within_host(std::uint64_t node, std::uint64_t nodes_per_host) const {
  unsigned within = 0;
  if (nodes_per_host <= 1) return within;
  for (unsigned d = 0; d < dimensions(); ++d) {
    for (const auto other : line_neighbours(node, d)) {
      if (other / nodes_per_host == node / nodes_per_host) within |= 1u << d;
    }
  }
  return within;
}

double TorusShape::expected_hops() const noexcept {
  double hops = 0.0;
  for (const auto size : sizes_) hops += 1.0 - 1.0 / size;
  return hops;
}

}  // namespace gups
