#include "kernel/core/table_layout.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

namespace gups {
namespace {

// Walks the table owner by owner: every index's owner is known without
// any formula.
void expect_owners_by_walking(const TableLayout& layout) {
  std::uint64_t g = 0;
  for (std::uint64_t p = 0; p < layout.owners(); ++p) {
    ASSERT_EQ(layout.global_start(p), g);
    for (std::uint64_t i = 0; i < layout.local_words(p); ++i, ++g) {
      ASSERT_EQ(layout.owner_by_division(g), p) << "g=" << g;
      if (layout.prediction_valid()) {
        ASSERT_EQ(layout.owner_by_prediction(g), p) << "g=" << g;
      }
    }
  }
  ASSERT_EQ(g, layout.total_words());
}

TEST(TableLayout, PredictionEqualsDivisionForAllSmallTables) {
  for (unsigned n = 0; n <= 12; ++n) {
    for (std::uint64_t owners = 1; owners <= std::min<std::uint64_t>(1ULL << n, 200); ++owners) {
      expect_owners_by_walking(TableLayout(n, owners));
    }
  }
}

TEST(TableLayout, SizesFollowTheReferenceRule) {
  const TableLayout layout(10, 3);  // 1024 = 342 + 341 + 341
  EXPECT_EQ(layout.min_local_words(), 341u);
  EXPECT_EQ(layout.local_words(0), 342u);
  EXPECT_EQ(layout.local_words(1), 341u);
  EXPECT_EQ(layout.global_start(2), 683u);
  EXPECT_EQ(layout.local_words(2), 341u);
  EXPECT_EQ(TableLayout(10, 8).owner_by_division(1023), 7u);
  EXPECT_EQ(TableLayout(10, 8).owner_by_division(128), 1u);
}

TEST(TableLayout, PredictionEqualsDivisionOnLargeTablesAndOddOwnerCounts) {
  std::mt19937_64 rng(7);
  for (unsigned n : {20u, 31u, 40u, 52u, 62u}) {
    for (std::uint64_t owners : {3ULL, 96ULL, 768ULL, 1000ULL, 4095ULL, 98304ULL, 131071ULL}) {
      const TableLayout layout(n, owners);
      if (!layout.prediction_valid()) {
        ASSERT_LT(layout.min_local_words(), owners + 1) << "n=" << n << " P=" << owners;
        continue;
      }
      for (int trial = 0; trial < 20000; ++trial) {
        const std::uint64_t g = layout.index_of(rng());
        ASSERT_EQ(layout.owner_by_prediction(g), layout.owner_by_division(g))
            << "n=" << n << " P=" << owners << " g=" << g;
      }
      // Both sides of every boundary near the top, where rounding is tightest.
      for (std::uint64_t p = owners > 3 ? owners - 3 : 1; p < owners; ++p) {
        const auto first = layout.global_start(p);
        EXPECT_EQ(layout.owner_by_prediction(first), p);
        EXPECT_EQ(layout.owner_by_prediction(first - 1), p - 1);
      }
    }
  }
}

TEST(TableLayout, RejectsTablesSmallerThanOwnerCount) {
  EXPECT_THROW(TableLayout(3, 9), std::invalid_argument);
  EXPECT_THROW(TableLayout(10, 0), std::invalid_argument);
  EXPECT_THROW(TableLayout(63, 1), std::invalid_argument);
  EXPECT_NO_THROW(TableLayout(3, 8));
}

TEST(OwnerFinder, FallsBackToDivisionWhenTheTheoremDoesNotHold) {
  const TableLayout crowded(6, 9);  // mlts = 7 < 9 owners
  ASSERT_FALSE(crowded.prediction_valid());
  const OwnerFinder finder(crowded, OwnerMode::predict);
  EXPECT_TRUE(finder.fell_back());
  EXPECT_EQ(finder.effective(), OwnerMode::division);
  for (std::uint64_t g = 0; g < crowded.total_words(); ++g) {
    EXPECT_EQ(finder(g), crowded.owner_by_division(g));
  }
  const TableLayout roomy(12, 9);
  EXPECT_FALSE(OwnerFinder(roomy, OwnerMode::predict).fell_back());
  EXPECT_EQ(OwnerFinder(roomy, OwnerMode::predict).effective(), OwnerMode::predict);
}

}  // namespace
}  // namespace gups
