#include "kernel/core/hpcc_stream.hpp"

#include <gtest/gtest.h>

#include <random>

namespace gups {
namespace {

TEST(HpccStream, StartsMatchesReferenceValues) {
  EXPECT_EQ(starts(0), 0x1ULL);
  EXPECT_EQ(starts(1), 0x2ULL);
  EXPECT_EQ(starts(63), 0x8000000000000000ULL);
  EXPECT_EQ(starts(64), 0x7ULL);
  EXPECT_EQ(starts(1000), 0xb6b6db0000000103ULL);
  EXPECT_EQ(starts(4194304), 0x0000000100010013ULL);
  EXPECT_EQ(starts(1099511640121ULL), 0x640000f13a00fc0eULL);
}

TEST(HpccStream, StartsEqualsSingleStepsForTheFirstTenThousand) {
  std::uint64_t stepped = 1;
  for (std::uint64_t k = 0; k < 10000; ++k) {
    ASSERT_EQ(starts(k), stepped) << "k = " << k;
    stepped = next_random(stepped);
  }
}

TEST(HpccStream, StartsEqualsStepsFromRandomJumpPoints) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 200; ++trial) {
    const std::uint64_t k = rng() % kPeriod;
    std::uint64_t stepped = starts(k);
    for (std::uint64_t j = 1; j <= 300; ++j) {
      stepped = next_random(stepped);
      ASSERT_EQ(starts(k + j), stepped) << "k = " << k << ", j = " << j;
    }
  }
}

TEST(HpccStream, PeriodWrapsTheStream) {
  EXPECT_EQ(starts(kPeriod), starts(0));
  for (std::uint64_t k : {1ULL, 2ULL, 63ULL, 1000ULL, 4194304ULL}) {
    EXPECT_EQ(starts(kPeriod + k), starts(k)) << "k = " << k;
  }
  // The step before the period end leads back to 1.
  EXPECT_EQ(next_random(starts(kPeriod - 1)), 1ULL);
}

}  // namespace
}  // namespace gups
