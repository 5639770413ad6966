#include "kernel/core/torus_shape.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

namespace gups {
namespace {

TEST(TorusShape, ParsesAndRejectsShapes) {
  EXPECT_EQ(TorusShape::parse("8x8x8").nodes(), 512u);
  EXPECT_EQ(TorusShape::parse("2x2x2x2x2x2").dimensions(), 6u);
  EXPECT_EQ(TorusShape::parse("5").nodes(), 5u);
  for (const char* bad : {"", "8x", "x8", "8xx8", "8*8", "0x4", "2x2x2x2x2x2x2", "-1x2", "a"}) {
    EXPECT_THROW(TorusShape::parse(bad), std::invalid_argument) << bad;
  }
}

TEST(TorusShape, BalancedShapesFollowBlueGeneStyle) {
  EXPECT_EQ(TorusShape::balanced(64).to_string(), "4x4x4");
  EXPECT_EQ(TorusShape::balanced(128).to_string(), "4x4x8");
  EXPECT_EQ(TorusShape::balanced(512).to_string(), "8x8x8");
  EXPECT_EQ(TorusShape::balanced(32768).to_string(), "32x32x32");
  EXPECT_EQ(TorusShape::balanced(1).to_string(), "1x1x1");
  for (std::uint64_t nodes : {96ULL, 768ULL, 7ULL, 1000ULL, 192ULL, 384ULL, 65537ULL}) {
    const auto shape = TorusShape::balanced(nodes);
    EXPECT_EQ(shape.nodes(), nodes) << shape.to_string();
    EXPECT_EQ(shape.dimensions(), 3u);
  }
  EXPECT_EQ(TorusShape::balanced(96).to_string(), "4x4x6");
  EXPECT_EQ(TorusShape::balanced(7).to_string(), "1x1x7");
}

TEST(TorusShape, CoordinatesRoundTripWithDimensionZeroFastest) {
  const TorusShape shape({3, 4, 5});
  EXPECT_EQ(shape.coordinate(1, 0), 1u);
  EXPECT_EQ(shape.coordinate(3, 1), 1u);
  EXPECT_EQ(shape.coordinate(12, 2), 1u);
  for (std::uint64_t node = 0; node < shape.nodes(); ++node) {
    std::uint64_t rebuilt = 0;
    for (unsigned d = 0; d < shape.dimensions(); ++d) rebuilt = shape.with_coordinate(rebuilt, d, shape.coordinate(node, d));
    EXPECT_EQ(rebuilt, node);
  }
}

// Power-of-two sides take shifts and masks, others divisions: both give the
// mixed-radix digits of the node number.
TEST(TorusShape, CoordinatesAreTheMixedRadixDigitsOfEveryShape) {
  for (const char* text : {"4x8x2", "32x32x32", "1x16x1", "3x4x5", "4x6x8", "2x2x2x2x2x2", "128"}) {
    const auto shape = TorusShape::parse(text);
    for (std::uint64_t node = 0; node < shape.nodes(); node += 1 + shape.nodes() / 4096) {
      std::uint64_t rest = node;
      for (unsigned d = 0; d < shape.dimensions(); ++d) {
        EXPECT_EQ(shape.coordinate(node, d), rest % shape.size(d)) << text << " node " << node << " dim " << d;
        rest /= shape.size(d);
      }
    }
  }
}

TEST(TorusShape, DimensionOrderRoutingReachesEveryNodeInAtMostDHops) {
  const TorusShape shape({3, 2, 4, 2});
  for (std::uint64_t from = 0; from < shape.nodes(); ++from) {
    for (std::uint64_t to = 0; to < shape.nodes(); ++to) {
      std::uint64_t here = from;
      unsigned hops = 0;
      unsigned last_dimension = 0;
      while (here != to) {
        const unsigned d = shape.first_difference(here, to);
        ASSERT_GE(d, last_dimension);  // dimension order
        const auto next = shape.with_coordinate(here, d, shape.coordinate(to, d));  // the hop a router takes
        ASSERT_EQ(shape.first_difference(here, next), d);
        ASSERT_EQ(shape.coordinate(next, d), shape.coordinate(to, d));
        here = next;
        last_dimension = d + 1;
        ASSERT_LE(++hops, shape.dimensions());
      }
    }
  }
}

TEST(TorusShape, FirstDifferenceIsTheLowestDimensionWhoseCoordinatesDiffer) {
  // Power-of-two sides (a lookup by bit, a side of 1 among them) and others (coordinates).
  for (const auto* text : {"4x1x8x2", "2x2x2", "1x1x1", "3x4x5", "6x1x2"}) {
    const auto shape = TorusShape::parse(text);
    for (std::uint64_t here = 0; here < shape.nodes(); ++here) {
      for (std::uint64_t target = 0; target < shape.nodes(); ++target) {
        unsigned expected = 0;
        const auto same = [&](unsigned d) { return shape.coordinate(here, d) == shape.coordinate(target, d); };
        while (expected < shape.dimensions() && same(expected)) ++expected;
        ASSERT_EQ(shape.first_difference(here, target), expected) << text << " " << here << " -> " << target;
        ASSERT_EQ(shape.coordinate(target, shape.dimensions()), 0u);  // the place of no difference has one
      }
    }
  }
}

TEST(TorusShape, LineNeighboursAreTheOtherNodesOfTheLine) {
  const TorusShape shape({4, 3, 2});
  const auto line = shape.line_neighbours(5, 0);  // node 5 = (1, 1, 0)
  EXPECT_EQ(line, (std::vector<std::uint64_t>{4, 6, 7}));
  const auto column = shape.line_neighbours(5, 1);
  EXPECT_EQ(column, (std::vector<std::uint64_t>{1, 9}));
  EXPECT_TRUE(TorusShape({1, 4}).line_neighbours(2, 0).empty());
  EXPECT_DOUBLE_EQ(TorusShape::balanced(64).expected_hops(), 2.25);
}

namespace gups {
namespace {

TEST(ConstantDivisor, AgreesWithDivisionOnEdgesAndAStreamOfNumerators) {
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  for (const std::uint32_t d : {1u, 2u, 3u, 6u, 7u, 12u, 96u, 641u, 65537u, 0x7fffffffu, 0xfffffffeu, 0xffffffffu}) {
    const ConstantDivisor divisor(d);
    for (const std::uint32_t n : {0u, 1u, d - 1, d, d + 1, 0x7fffffffu, 0xfffffffeu, 0xffffffffu}) {
      EXPECT_EQ(divisor.quotient(n), n / d) << n << " / " << d;
      EXPECT_EQ(divisor.remainder(n), n % d) << n << " % " << d;
    }
    for (int i = 0; i < 20000; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      const auto n = static_cast<std::uint32_t>(x);
      ASSERT_EQ(divisor.quotient(n), n / d) << n << " / " << d;
      ASSERT_EQ(divisor.remainder(n), n % d) << n << " % " << d;
    }
  }
}

TEST(TorusShape, CoordinatesOfSidesThatAreNotPowersOfTwoMatchDivision) {
  for (const char* text : {"4x4x6", "6x8x8", "8x8x12", "3x5x7", "1x1x7", "5x3"}) {
    const auto shape = TorusShape::parse(text);
    std::uint64_t stride = 1;
    for (unsigned d = 0; d < shape.dimensions(); ++d) {
      for (std::uint64_t node = 0; node < shape.nodes(); ++node) {
        ASSERT_EQ(shape.coordinate(node, d), (node / stride) % shape.size(d)) << text << " node " << node;
      }
      stride *= shape.size(d);
    }
  }
}

}  // namespace
}  // namespace gups

// A torus of processes: a host's processes are its first dimension, so only
// that dimension's channel takes messages from the host itself; folded into
// a longer first dimension (6-D), that one still does; one node a host, none.
TEST(TorusShape, OnlyTheProcessesDimensionStaysWithinAHost) {
  const TorusShape processes({4, 3, 2});  // 4 processes on each of 3x2 hosts
  for (std::uint64_t node = 0; node < processes.nodes(); ++node) {
    EXPECT_EQ(processes.dimensions_within_host(node, 4), 1u) << node;
    EXPECT_EQ(processes.dimensions_within_host(node, 1), 0u) << node;
  }
  const TorusShape folded({6, 2, 2, 2, 2, 2});  // 3 hosts along X, 2 processes each
  EXPECT_EQ(folded.dimensions_within_host(0, 2), 1u);
  EXPECT_EQ(folded.dimensions_within_host(5, 2), 1u);
  // Hosts that hold a whole line (4 nodes of a 2x2 torus each): both dimensions.
  EXPECT_EQ(TorusShape({2, 2}).dimensions_within_host(3, 4), 3u);
}

}  // namespace
}  // namespace gups
