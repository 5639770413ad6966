// The model's count-only replay takes the same bucket, of the same size, as the kernel's DestinationBuckets,
// whatever the destinations (scanned, listed by count, segmented or pooled) and the capacity.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernel/core/destination_buckets.hpp"
#include "kernel/core/hpcc_stream.hpp"
#include "models/src/bucket_counts.hpp"

namespace gups::model {
namespace {

TEST(BucketCounts, TakesTheSameSizesAsTheKernelsBucketsOnTheHpccStream) {
  for (const std::uint32_t destinations : {1u, 3u, 64u, 65u, 1000u, 100000u, 7630848u}) {
    for (const std::uint32_t capacity : {1u, 7u, 64u, 1024u}) {
      DestinationBuckets kernel(destinations, capacity);
      BucketCounts counts(capacity);
      std::vector<std::uint64_t> message;
      std::uint64_t value = starts(0);
      std::uint64_t taken = 0, updates = 0;
      for (int i = 0; i < 200000; ++i) {
        value = next_random(value);
        const auto destination = static_cast<std::uint32_t>(value % destinations);
        kernel.insert(destination, value);
        counts.insert(destination);
        ASSERT_EQ(kernel.full(), counts.full());
        if (!kernel.full()) continue;
        message.clear();
        kernel.take_fullest(message);
        ASSERT_EQ(counts.take_fullest(), message.size())
            << destinations << " destinations, capacity " << capacity << ", update " << i;
        ++taken;
        updates += message.size();
      }
      EXPECT_GT(taken, 0u);
      EXPECT_GE(updates, taken);
    }
  }
}

TEST(BucketCounts, RefusesWhatTheKernelsBucketsRefuse) {
  EXPECT_THROW(BucketCounts(0), std::invalid_argument);
  BucketCounts counts(2);
  EXPECT_THROW(counts.take_fullest(), std::logic_error);
  counts.insert(5);
  counts.insert(5);
  EXPECT_TRUE(counts.full());
  EXPECT_THROW(counts.insert(6), std::logic_error);
  EXPECT_EQ(counts.take_fullest(), 2u);
}

}  // namespace
}  // namespace gups::model
