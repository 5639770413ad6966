#include "kernel/core/destination_buckets.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <stdexcept>

namespace gups {
namespace {

TEST(DestinationBuckets, TakesTheFullestBucketInInsertionOrder) {
  DestinationBuckets buckets(4, 16);
  buckets.insert(1, 10);
  buckets.insert(2, 20);
  buckets.insert(2, 21);
  buckets.insert(3, 30);
  buckets.insert(2, 22);
  buckets.insert(1, 11);
  EXPECT_EQ(buckets.pending(), 6u);

  std::vector<std::uint64_t> out;
  EXPECT_EQ(buckets.take_fullest(out), 2u);
  EXPECT_EQ(out, (std::vector<std::uint64_t>{20, 21, 22}));
  EXPECT_EQ(buckets.pending(), 3u);
  EXPECT_EQ(buckets.count(2), 0u);

  out.clear();
  EXPECT_EQ(buckets.take_fullest(out), 1u);
  EXPECT_EQ(out, (std::vector<std::uint64_t>{10, 11}));
}

TEST(DestinationBuckets, RefusesToOverflowOrUnderflow) {
  DestinationBuckets buckets(2, 2);
  std::vector<std::uint64_t> out;
  EXPECT_THROW(buckets.take_fullest(out), std::logic_error);
  buckets.insert(0, 1);
  buckets.insert(1, 2);
  EXPECT_TRUE(buckets.full());
  EXPECT_THROW(buckets.insert(0, 3), std::logic_error);
  EXPECT_THROW(DestinationBuckets(0, 4), std::invalid_argument);
}

// Against a plain map under a random mix of inserts and takes: same
// contents, and the taken bucket is always one of the fullest.
TEST(DestinationBuckets, AgreesWithASimpleModel) {
  constexpr std::uint32_t kDestinations = 37;
  constexpr std::uint32_t kCapacity = 64;
  DestinationBuckets buckets(kDestinations, kCapacity);
  std::map<std::uint32_t, std::vector<std::uint64_t>> model;
  std::mt19937 rng(3);
  std::uint64_t next_value = 0;
  for (int step = 0; step < 200000; ++step) {
    if (!buckets.full() && rng() % 3 != 0) {
      const std::uint32_t destination = rng() % kDestinations;
      buckets.insert(destination, next_value);
      model[destination].push_back(next_value++);
    } else if (buckets.pending() > 0) {
      std::size_t fullest = 0;
      for (const auto& [destination, values] : model) fullest = std::max(fullest, values.size());
      std::vector<std::uint64_t> out;
      const auto destination = buckets.take_fullest(out);
      ASSERT_EQ(out.size(), fullest);
      ASSERT_EQ(out, model[destination]);
      model.erase(destination);
    }
    std::size_t modelled = 0;
    for (const auto& entry : model) modelled += entry.second.size();
    ASSERT_EQ(buckets.pending(), modelled);
  }
}

// One random mix of inserts (to `used` destinations) and takes on two sets of
// buckets, `first` the one of less capacity: both must take the same buckets,
// ties included (the bucket that reached the count last), with the same
// updates in the same order.
void expect_same_takes(DestinationBuckets& first, DestinationBuckets& second, std::uint32_t used, unsigned seed) {
  std::mt19937 rng(seed);
  int takes = 0;
  for (int step = 0; step < 100000; ++step) {
    if (!first.full() && rng() % 4 != 0) {
      const std::uint32_t destination = rng() % used;
      first.insert(destination, static_cast<std::uint64_t>(step));
      second.insert(destination, static_cast<std::uint64_t>(step));
    } else if (first.pending() > 0) {
      std::vector<std::uint64_t> from_first, from_second;
      ASSERT_EQ(first.take_fullest(from_first), second.take_fullest(from_second));
      ASSERT_EQ(from_first, from_second);
      ++takes;
    }
    ASSERT_EQ(first.pending(), second.pending());
  }
  EXPECT_GT(takes, 10000);
}

constexpr std::uint32_t kFewUsed = 5;  // few destinations: ties are common

// Few destinations are scanned for the fullest, many kept in lists by count.
TEST(DestinationBuckets, ScannedAndListedDestinationsTakeTheSameBuckets) {
  DestinationBuckets scanned(kFewUsed, 32);
  DestinationBuckets listed(DestinationBuckets::kScannedDestinations + 1, 32);
  expect_same_takes(scanned, listed, kFewUsed, 11);
}

// Few destinations with the reference's look-ahead have a segment each; more
// share a pool of linked slots, scanned or listed.
TEST(DestinationBuckets, SegmentedAndPooledBucketsTakeTheSame) {
  DestinationBuckets segmented(kFewUsed, 32);
  DestinationBuckets pooled(kFewUsed, static_cast<std::uint32_t>(DestinationBuckets::kSegmentedWords / kFewUsed + 1));
  ASSERT_TRUE(segmented.segmented());
  ASSERT_FALSE(pooled.segmented());
  expect_same_takes(segmented, pooled, kFewUsed, 5);

  constexpr std::uint32_t kListed = DestinationBuckets::kScannedDestinations + 1;
  DestinationBuckets scanned_segments(kFewUsed, 32);
  DestinationBuckets listed_pool(kListed, static_cast<std::uint32_t>(DestinationBuckets::kSegmentedWords / kListed + 1));
  ASSERT_FALSE(listed_pool.segmented());
  expect_same_takes(scanned_segments, listed_pool, kFewUsed, 7);
}

}  // namespace
}  // namespace gups
