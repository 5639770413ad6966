#include "topologies/network/torus_links.hpp"

#include "topologies/network/platform_names.hpp"
#include "topologies/network/topology.hpp"

#include <algorithm>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace gups {

TorusLinks::TorusLinks(TorusShape shape, std::vector<bool> wraps) : shape_(std::move(shape)), wraps_(std::move(wraps)) {
  if (wraps_.size() != shape_.dimensions()) {
    throw std::invalid_argument("a torus of " + std::to_string(shape_.dimensions()) + " dimensions needs " +
                                std::to_string(shape_.dimensions()) + " wrap-around flags, not " +
                                std::to_string(wraps_.size()));
  }
}

bool TorusLinks::exists(std::uint32_t link) const noexcept {
  const std::uint64_t node = link / 2 / shape_.dimensions();
  const unsigned d = dimension(link);
  const auto side = shape_.size(d);
  if (node >= shape_.nodes() || side == 1) return false;
  return wraps_[d] || shape_.coordinate(node, d) + 1 < side;
}

std::vector<std::string> TorusLinks::class_names() const {
  std::vector<std::string> names;
  for (unsigned d = 0; d < shape_.dimensions(); ++d) names.push_back("dimension " + std::to_string(d));
  return names;
}

std::vector<std::unique_ptr<PhysicalLinks>> TorusLinks::independent_lines(const TorusShape& shape) const {
  std::vector<std::unique_ptr<PhysicalLinks>> lines;
  if (shape.sizes() != shape_.sizes()) return lines;
  for (unsigned d = 0; d < shape_.dimensions(); ++d) {
    lines.push_back(std::make_unique<TorusLinks>(TorusShape({shape_.size(d)}), std::vector<bool>{wraps_[d]}));
  }
  return lines;
}

void TorusLinks::route(std::uint64_t from, std::uint64_t to, std::vector<std::uint32_t>& links) const {
  links.clear();
  std::uint64_t here = from;
  for (unsigned d = 0; d < shape_.dimensions() && here != to; ++d) {
    const std::uint32_t k = shape_.size(d);
    const std::uint32_t mine = shape_.coordinate(from, d);
    const std::uint32_t target = shape_.coordinate(to, d);
    if (mine == target) continue;
    // SimGrid's TorusZone test, word for word: a tie (half-way round) goes +
    // except from the middle coordinate towards 0.
    const bool up = wraps_[d] ? (target > mine && target <= mine + k / 2) || (mine > k / 2 && (mine + k / 2) % k >= target)
                              : target > mine;
    for (std::uint32_t c = mine; c != target;) {
      const std::uint32_t next = up ? (c + 1 == k ? 0 : c + 1) : (c == 0 ? k - 1 : c - 1);
      const std::uint64_t next_node = shape_.with_coordinate(here, d, next);
      links.push_back(up ? link_of(here, d, true) : link_of(next_node, d, false));
      here = next_node;
      c = next;
    }
  }
}

namespace {

// At the levels that time messages themselves a torus platform gives its
// shape and, per dimension, whether it wraps around (a mesh where not).
std::shared_ptr<const PhysicalLinks> torus_platform_links(const PropertyReader& property) {
  auto shape = TorusShape::parse(property(kTorusShapeProperty));
  std::vector<bool> wraps;
  std::istringstream flags(property(kTorusWrapsProperty));
  for (std::string flag; std::getline(flags, flag, ',');) {
    if (flag != "0" && flag != "1") throw std::invalid_argument("the platform's torus wraps are 0 or 1: '" + flag + "'");
    wraps.push_back(flag == "1");
  }
  return std::make_shared<TorusLinks>(std::move(shape), std::move(wraps));
}

}  // namespace

extern const TopologyKind topology_torus{"torus", "torus", "TORUS", true, nullptr, nullptr, nullptr,
                                         torus_platform_links};

}  // namespace gups
