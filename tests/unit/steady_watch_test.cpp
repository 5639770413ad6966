#include "kernel/core/steady_watch.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace gups {
namespace {

// A run applying `rate(t)` updates per second, noted every `step` seconds
// up to `seconds`, as the updaters note theirs.
UpdateTimeline run_of(double seconds, const std::function<double(double)>& rate, double step = 1e-6) {
  UpdateTimeline timeline;
  for (double t = 0; t < seconds; t += step) timeline.add(t, rate(t) * step);
  return timeline;
}

TEST(SteadyState, AConstantRateHasAStandardErrorOfAlmostNothing) {
  const auto s = steady_state(run_of(1e-3, [](double) { return 1e9; }, 1e-8), 1e-3);
  ASSERT_TRUE(s.standard_error);
  EXPECT_LT(*s.standard_error, 1e-3);
}

TEST(SteadyState, ARateThatBreathesSlowerThanABatchHasAnErrorOfPercents) {
  // A 30% dip for a tenth of every 1/6 of the run: the batches hold
  // different numbers of dips, so their rates scatter.
  const double seconds = 1e-3;
  auto breathing = [seconds](double t) { return std::fmod(t, seconds / 6) < seconds / 60 ? 0.7e9 : 1e9; };
  const auto s = steady_state(run_of(seconds, breathing), seconds);
  ASSERT_TRUE(s.standard_error);
  EXPECT_GT(*s.standard_error, 0.005);
}

TEST(SteadyState, TooShortARunForBatchesHasNoError) {
  UpdateTimeline timeline;  // three bins in all
  for (int i = 0; i < 3; ++i) timeline.add(i * UpdateTimeline::kFirstWidth, 10);
  EXPECT_FALSE(steady_state(timeline, 3 * UpdateTimeline::kFirstWidth).standard_error);
}

TEST(CheckSettled, SettledOnlyWhenErrorQuartersAndTheHalfRunAgree) {
  const auto flat = run_of(1e-3, [](double) { return 1e9; });
  EXPECT_TRUE(check_settled(flat, 1e-3, 0.005).settled);
  // Climbing by 1.5% over the middle half: the quarters disagree.
  const auto climbing = run_of(1e-3, [](double t) { return 1e9 * (1 + 0.03 * t / 1e-3); });
  const auto check = check_settled(climbing, 1e-3, 0.005);
  EXPECT_FALSE(check.settled);
  EXPECT_GT(check.run.second_quarter, check.run.first_quarter);
  // Flat from 1/4 on, 5% higher before: the quarters agree at t, but a run of
  // half the length still sees the high start.
  auto high_start = [](double t) { return t < 0.25e-3 ? 1.05e9 : 1e9; };
  const auto settling = check_settled(run_of(1e-3, high_start), 1e-3, 0.005);
  EXPECT_LE(settling.run.spread(), 0.01);
  EXPECT_FALSE(settling.settled);
  EXPECT_GT(settling.half_run.rate, settling.run.rate * 1.005);
  // Twice as long, the half run starts after the high start too.
  EXPECT_TRUE(check_settled(run_of(2e-3, high_start), 2e-3, 0.005).settled);
}

TEST(SteadyWatch, FixesTheLeadersCountOnceSettledAndKeepsIt) {
  SteadyWatch watch(0.005, 100'000);  // a hundred notes at least: lumps of updates against bins
  const double step = 1e-6;
  std::uint64_t limit = SteadyWatch::kNoLimit;
  std::uint64_t generated = 0;
  double t = 0;
  for (; t < 1e-2 && limit == SteadyWatch::kNoLimit; t += step) {
    watch.applied(t, 1000);
    generated += 1000;
    watch.generated(generated);
    limit = watch.limit(t);
  }
  ASSERT_NE(limit, SteadyWatch::kNoLimit);
  ASSERT_TRUE(watch.decision());
  EXPECT_EQ(limit, generated);
  EXPECT_NEAR(watch.decision()->check.run.rate, 1e9, 1e7);
  EXPECT_TRUE(watch.decision()->check.settled);
  watch.generated(generated + 5000);
  EXPECT_EQ(watch.limit(t + 1), limit);  // fixed once decided
}

TEST(SteadyWatch, NeverSettlesBeforeTheLeastCountNorOnAClimb) {
  SteadyWatch least(0.005, std::uint64_t{1} << 40);
  SteadyWatch climb(0.005, 0);
  for (double t = 0; t < 1e-3; t += 1e-6) {
    least.applied(t, 1000);
    least.generated(1);
    EXPECT_EQ(least.limit(t), SteadyWatch::kNoLimit);
    climb.applied(t, 1000 * (1 + t / 1e-4));  // doubling every 100 us: never steady
    climb.generated(1);
    EXPECT_EQ(climb.limit(t), SteadyWatch::kNoLimit);
  }
  EXPECT_THROW(SteadyWatch(0, 1), std::invalid_argument);
  EXPECT_THROW(SteadyWatch(1, 1), std::invalid_argument);
}

}  // namespace
}  // namespace gups
