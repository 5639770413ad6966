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

// Few destinations are scanned for the fullest, many kept in lists by
// count: under one random mix both take the same buckets, ties included
// (the bucket that reached the count last).
TEST(DestinationBuckets, ScannedAndListedDestinationsTakeTheSameBuckets) {
  constexpr std::uint32_t kUsed = 5;  // few destinations: ties are common
  DestinationBuckets scanned(kUsed, 32);
  DestinationBuckets listed(DestinationBuckets::kScannedDestinations + 1, 32);
  std::mt19937 rng(11);
  int takes = 0;
  for (int step = 0; step < 100000; ++step) {
    if (!scanned.full() && rng() % 4 != 0) {
      const std::uint32_t destination = rng() % kUsed;
      scanned.insert(destination, static_cast<std::uint64_t>(step));
      listed.insert(destination, static_cast<std::uint64_t>(step));
    } else if (scanned.pending() > 0) {
      std::vector<std::uint64_t> from_scanned, from_listed;
      ASSERT_EQ(scanned.take_fullest(from_scanned), listed.take_fullest(from_listed));
      ASSERT_EQ(from_scanned, from_listed);
      ++takes;
    }
    ASSERT_EQ(scanned.pending(), listed.pending());
  }
  EXPECT_GT(takes, 10000);
}

// Few destinations with the reference's look-ahead have a segment each,
// more share a pool of linked slots: under one random mix both hold and take
// the same buckets.
TEST(DestinationBuckets, SegmentedAndPooledBucketsTakeTheSame) {
  constexpr std::uint32_t kUsed = 5;
  constexpr std::uint32_t kHeld = 32;  // the mix never holds more than the segments' capacity
  DestinationBuckets segmented(kUsed, kHeld);
  const auto pooled_capacity = static_cast<std::uint32_t>(DestinationBuckets::kSegmentedWords / kUsed + 1);
  DestinationBuckets pooled(kUsed, pooled_capacity);
  ASSERT_TRUE(segmented.segmented());
  ASSERT_FALSE(pooled.segmented());
  std::mt19937 rng(5);
  int takes = 0;
  for (int step = 0; step < 100000; ++step) {
    if (!segmented.full() && rng() % 4 != 0) {
      const std::uint32_t destination = rng() % kUsed;
      segmented.insert(destination, static_cast<std::uint64_t>(step));
      pooled.insert(destination, static_cast<std::uint64_t>(step));
    } else if (segmented.pending() > 0) {
      std::vector<std::uint64_t> from_segments, from_pool;
      ASSERT_EQ(segmented.take_fullest(from_segments), pooled.take_fullest(from_pool));
      ASSERT_EQ(from_segments, from_pool);
      ++takes;
    }
    ASSERT_EQ(segmented.pending(), pooled.pending());
  }
  EXPECT_GT(takes, 10000);
}

}  // namespace
}  // namespace gups
