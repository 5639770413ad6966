#include "topologies/torus_links.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <tuple>
#include <vector>

namespace gups {
namespace {

std::vector<bool> all_wrap(unsigned dimensions) { return std::vector<bool>(dimensions, true); }

// SimGrid 3.32's TorusZone::get_local_route, transcribed with its own
// variables (node ids, dim_product), sides of 1 left out as the platform
// leaves them out: (node owning the link, dimension, UP?) per hop.
std::vector<std::tuple<std::uint64_t, unsigned, bool>> simgrid_route(const std::vector<std::uint32_t>& sides,
                                                                    std::uint64_t src, std::uint64_t dst) {
  std::vector<unsigned long> dims;
  std::vector<unsigned> ours;  // our dimension of each of SimGrid's
  for (unsigned d = 0; d < sides.size(); ++d) {
    if (sides[d] > 1) {
      dims.push_back(sides[d]);
      ours.push_back(d);
    }
  }
  std::vector<unsigned long> my(dims.size()), target(dims.size());
  unsigned long product = 1;
  for (unsigned long i = 0; i < dims.size(); i++) {
    my[i] = (src / product) % dims[i];
    target[i] = (dst / product) % dims[i];
    product *= dims[i];
  }
  std::vector<std::tuple<std::uint64_t, unsigned, bool>> hops;
  unsigned long current = src;
  while (current != dst) {
    unsigned long next = 0, dim_product = 1;
    for (unsigned long j = 0; j < dims.size(); j++) {
      const unsigned long k = dims[j];
      if ((current / dim_product) % k != (dst / dim_product) % k) {
        if ((target[j] > my[j] && target[j] <= my[j] + k / 2) || (my[j] > k / 2 && (my[j] + k / 2) % k >= target[j])) {
          next = (current / dim_product) % k == k - 1 ? current + dim_product - dim_product * k : current + dim_product;
          hops.emplace_back(current, ours[j], true);
        } else {
          next = (current / dim_product) % k == 0 ? current - dim_product + dim_product * k : current - dim_product;
          hops.emplace_back(next, ours[j], false);
        }
        break;
      }
      dim_product *= k;
    }
    current = next;
  }
  return hops;
}

TEST(TorusLinks, RoutesCrossTheLinksSimGridsTorusZoneGivesInItsOrder) {
  for (const auto& sides : std::vector<std::vector<std::uint32_t>>{
           {4, 4, 4}, {3, 5, 2}, {2, 2, 2}, {8, 1, 3}, {6}, {4, 6, 1, 2}}) {
    const TorusShape shape(sides);
    const TorusLinks links(shape, all_wrap(shape.dimensions()));
    std::vector<std::uint32_t> route;
    for (std::uint64_t a = 0; a < shape.nodes(); ++a) {
      for (std::uint64_t b = 0; b < shape.nodes(); ++b) {
        links.route(a, b, route);
        const auto expected = simgrid_route(sides, a, b);
        ASSERT_EQ(route.size(), expected.size()) << shape.to_string() << " " << a << " -> " << b;
        for (std::size_t h = 0; h < route.size(); ++h) {
          const auto [node, dimension, up] = expected[h];
          EXPECT_EQ(route[h], (node * shape.dimensions() + dimension) * 2 + (up ? 0 : 1))
              << shape.to_string() << " " << a << " -> " << b << " hop " << h;
          EXPECT_TRUE(links.exists(route[h]));
          EXPECT_EQ(links.dimension(route[h]), dimension);
        }
      }
    }
  }
}

TEST(TorusLinks, AMeshLineIsCrossedTheOnlyWayEvenWhereWrappingWouldBeShorter) {
  const TorusShape shape({8});
  const TorusLinks mesh(shape, {false});
  const TorusLinks torus(shape, {true});
  std::vector<std::uint32_t> route;
  mesh.route(0, 7, route);
  EXPECT_EQ(route.size(), 7u);
  torus.route(0, 7, route);
  EXPECT_EQ(route.size(), 1u);
  mesh.route(7, 0, route);
  ASSERT_EQ(route.size(), 7u);
  EXPECT_EQ(route.front(), 6u * 2 + 1);  // the DOWN direction of node 6's link
}

TEST(TorusLinks, OnlyLinksThePlatformDeclaresExist) {
  const TorusShape shape({4, 1, 2});
  const TorusLinks mesh(shape, {false, false, false});
  const TorusLinks torus(shape, all_wrap(3));
  EXPECT_EQ(torus.count(), 8u * 3 * 2);
  std::uint32_t in_torus = 0, in_mesh = 0;
  for (std::uint32_t link = 0; link < torus.count(); ++link) {
    in_torus += torus.exists(link);
    in_mesh += mesh.exists(link);
  }
  // Torus: 8 nodes x 2 sides above 1 x 2 directions; mesh: 3 links per line of 4 (2 lines) and 1 per line of 2 (4).
  EXPECT_EQ(in_torus, 32u);
  EXPECT_EQ(in_mesh, (3 * 2 + 1 * 4) * 2u);
  EXPECT_THROW(TorusLinks(shape, {true}), std::invalid_argument);
}

TEST(TorusLinks, MinimalHopsAreEveryHopOneNearerTheFirstBeingTheRoutesOwn) {
  // Every node to every node of a 4x6x3 torus with a meshed last dimension:
  // each offered hop leaves on an existing link, shortens the distance by
  // one, and the first one is the hop route() takes.
  const TorusShape shape({4, 6, 3});
  const TorusLinks links(shape, {true, true, false});
  std::vector<std::uint32_t> route, rest;
  std::vector<PhysicalLinks::Hop> hops;
  ASSERT_TRUE(links.has_minimal_hops());
  std::size_t ties = 0;
  for (std::uint64_t from = 0; from < shape.nodes(); ++from) {
    for (std::uint64_t to = 0; to < shape.nodes(); ++to) {
      if (from == to) continue;
      links.route(from, to, route);
      links.minimal_hops(from, to, hops);
      ASSERT_FALSE(hops.empty());
      EXPECT_EQ(hops.front().link, route.front());
      unsigned differing = 0;
      for (unsigned d = 0; d < 3; ++d) differing += shape.coordinate(from, d) != shape.coordinate(to, d);
      EXPECT_GE(hops.size(), differing);
      ties += hops.size() - differing;
      for (const auto& hop : hops) {
        EXPECT_TRUE(links.exists(hop.link));
        if (hop.node == to) continue;
        links.route(hop.node, to, rest);
        EXPECT_EQ(rest.size() + 1, route.size()) << from << " -> " << to << " via " << hop.node;
      }
    }
  }
  EXPECT_GT(ties, 0u);  // half-way round the rings of 4 and 6 both ways are shortest
}

}  // namespace
}  // namespace gups
