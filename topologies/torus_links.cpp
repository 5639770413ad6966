#include "topologies/torus_links.hpp"

#include "topologies/platform_names.hpp"
#include "topologies/topology.hpp"

#include <algorithm>
#include <limits>
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

bool TorusLinks::goes_up(unsigned d, std::uint32_t mine, std::uint32_t target) const noexcept {
  const std::uint32_t k = shape_.size(d);
  // SimGrid's TorusZone test, word for word.
  return wraps_[d] ? (target > mine && target <= mine + k / 2) || (mine > k / 2 && (mine + k / 2) % k >= target)
                   : target > mine;
}

PhysicalLinks::Hop TorusLinks::step(std::uint64_t here, unsigned d, bool up) const noexcept {
  const std::uint32_t k = shape_.size(d);
  const std::uint32_t c = shape_.coordinate(here, d);
  const std::uint32_t next = up ? (c + 1 == k ? 0 : c + 1) : (c == 0 ? k - 1 : c - 1);
  const std::uint64_t next_node = shape_.with_coordinate(here, d, next);
  return {up ? link_of(here, d, true) : link_of(next_node, d, false), next_node};
}

void TorusLinks::route(std::uint64_t from, std::uint64_t to, std::vector<std::uint32_t>& links) const {
  links.clear();
  std::uint64_t here = from;
  for (unsigned d = 0; d < shape_.dimensions() && here != to; ++d) {
    const std::uint32_t mine = shape_.coordinate(from, d);
    const std::uint32_t target = shape_.coordinate(to, d);
    if (mine == target) continue;
    const bool up = goes_up(d, mine, target);
    for (std::uint32_t c = mine; c != target; c = shape_.coordinate(here, d)) {
      const auto hop = step(here, d, up);
      links.push_back(hop.link);
      here = hop.node;
    }
  }
}

void TorusLinks::minimal_hops(std::uint64_t here, std::uint64_t to, std::vector<Hop>& hops) const {
  hops.clear();
  for (unsigned d = 0; d < shape_.dimensions(); ++d) {
    const std::uint32_t mine = shape_.coordinate(here, d);
    const std::uint32_t target = shape_.coordinate(to, d);
    if (mine == target) continue;
    const bool up = goes_up(d, mine, target);
    hops.push_back(step(here, d, up));
    // Half-way round a ring both ways are shortest.
    const std::uint32_t k = shape_.size(d);
    if (wraps_[d] && 2 * (target > mine ? target - mine : mine - target) == k) hops.push_back(step(here, d, !up));
  }
}
double uniform_peak_rate(const TorusLinks& links, double link_bandwidth) {
  double peak = std::numeric_limits<double>::infinity();
  const auto& shape = links.shape();
  for (unsigned d = 0; d < shape.dimensions(); ++d) {
    const double k = shape.size(d);
    if (k < 2) continue;
    peak = std::min(peak, (links.wraps(d) ? 8.0 : 4.0) * link_bandwidth / k);
  }
  return peak;
}

double bisection_peak_rate(const TorusLinks& links, double link_bandwidth) {
  // r -> r + n/2 crosses the cut of the last dimension (node numbering puts
  // dimension 0 fastest): the lower half's n/2 senders share the links
  // across it, one way: 2 per line of that dimension on a ring, 1 on a chain.
  const auto& shape = links.shape();
  const unsigned last = shape.dimensions() - 1;
  const double lines = static_cast<double>(shape.nodes()) / shape.size(last);
  const double across = lines * (links.wraps(last) && shape.size(last) > 2 ? 2.0 : 1.0) * link_bandwidth;
  return across / (static_cast<double>(shape.nodes()) / 2);
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
