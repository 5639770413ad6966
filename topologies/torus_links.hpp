// The physical links of a torus (or mesh) of 1 to 6 dimensions.
//
// Links are numbered as SimGrid numbers a TORUS cluster's: node n owns, in
// each dimension d, the link joining it to its + neighbour; the link's UP
// direction carries n -> n+1, its DOWN direction n+1 -> n. Routes follow
// SimGrid's TorusZone rule (dimension 0 first, each dimension the shorter
// way round), so each network level puts a message on the very links flow does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernel/core/torus_shape.hpp"
#include "topologies/physical_links.hpp"

namespace gups {

class TorusLinks final : public PhysicalLinks {
 public:
  // `wraps[d]`: dimension d has wrap-around links (a torus), else a mesh.
  // Throws std::invalid_argument when wraps does not give one per dimension.
  TorusLinks(TorusShape shape, std::vector<bool> wraps);

  // Directed links, UP and DOWN of each node's link in each dimension; some
  // exist only in numbering (a mesh's last node, a side of 1).
  std::uint64_t nodes() const noexcept override { return shape_.nodes(); }
  std::uint32_t count() const noexcept override {
    return static_cast<std::uint32_t>(shape_.nodes() * shape_.dimensions() * 2);
  }
  unsigned dimension(std::uint32_t link) const noexcept { return (link / 2) % shape_.dimensions(); }
  bool exists(std::uint32_t link) const noexcept override;
  unsigned link_class(std::uint32_t link) const noexcept override { return dimension(link); }
  std::vector<std::string> class_names() const override;
  const TorusShape& shape() const noexcept { return shape_; }
  bool wraps(unsigned dimension) const noexcept { return wraps_[dimension]; }

  bool classes_are_dimensions() const noexcept override { return true; }
  std::vector<std::unique_ptr<PhysicalLinks>> independent_lines(const TorusShape& shape) const override;

  void route(std::uint64_t from, std::uint64_t to, std::vector<std::uint32_t>& links) const override;
  bool has_minimal_hops() const noexcept override { return true; }
  void minimal_hops(std::uint64_t here, std::uint64_t to, std::vector<Hop>& hops) const override;

 private:
  // SimGrid's TorusZone choice of way round in dimension d from coordinate
  // `mine` to `target`: a tie (half-way round) goes + except from the middle
  // coordinate towards 0.
  bool goes_up(unsigned d, std::uint32_t mine, std::uint32_t target) const noexcept;
  Hop step(std::uint64_t here, unsigned d, bool up) const noexcept;

  std::uint32_t link_of(std::uint64_t node, unsigned dimension, bool up) const noexcept {
    return static_cast<std::uint32_t>((node * shape_.dimensions() + dimension) * 2 + (up ? 0 : 1));
  }

  TorusShape shape_;
  std::vector<bool> wraps_;
};

// The per-node injection rate at which uniform (or all-to-all) traffic
// loads the busiest directed link fully: 8 b / k for a ring of k nodes, 4 b /
// k for a chain (its middle link), the least over the dimensions of more
// than one node. Bisection traffic has its own: the links across the cut.
double uniform_peak_rate(const TorusLinks& links, double link_bandwidth);
double bisection_peak_rate(const TorusLinks& links, double link_bandwidth);

}  // namespace gups
