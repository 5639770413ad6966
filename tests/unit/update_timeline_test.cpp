#include "kernel/core/update_timeline.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace gups {
namespace {

double total(const UpdateTimeline& t) { return std::accumulate(t.counts().begin(), t.counts().end(), 0.0); }

TEST(UpdateTimeline, WidensByDoublingAndKeepsEveryUpdate) {
  UpdateTimeline t;
  t.add(0.0, 3);
  t.add(10 * UpdateTimeline::kFirstWidth, 2);
  EXPECT_DOUBLE_EQ(t.width(), UpdateTimeline::kFirstWidth);
  t.add(1e-3, 5);  // far past 64 bins: widens until it fits
  EXPECT_GT(t.width() * UpdateTimeline::kBins, 1e-3);
  EXPECT_LE(t.width() * UpdateTimeline::kBins / 2, 1e-3);
  EXPECT_DOUBLE_EQ(total(t), 10);
  EXPECT_DOUBLE_EQ(t.counts()[0], 5);  // the first two fell into the first bin
}

TEST(UpdateTimeline, WidenToAnotherTimelinesWidthGivesTheSameBins) {
  UpdateTimeline narrow, wide;
  for (int i = 0; i < 1000; ++i) {
    narrow.add(i * 1e-8, 1);
    wide.add(i * 1e-8, 1);
  }
  wide.add(5e-5, 0);  // only widens
  narrow.widen_to(wide.width());
  EXPECT_EQ(narrow.counts(), wide.counts());
  EXPECT_THROW(wide.widen_to(narrow.width() / 2), std::invalid_argument);
  EXPECT_THROW(wide.widen_to(wide.width() * 3), std::invalid_argument);
}

TEST(UpdateTimeline, SteadyStateOfAConstantRateIsThatRate) {
  UpdateTimeline t;
  const double seconds = 1e-3, rate = 4e9;
  for (int i = 0; i < 10000; ++i) t.add((i + 0.5) * seconds / 10000, rate * seconds / 10000);
  const auto s = steady_state(t, seconds);
  EXPECT_NEAR(s.rate, rate, rate * 0.02);
  EXPECT_LE(s.spread(), 0.02);
}

TEST(UpdateTimeline, SteadyStateIgnoresFillAndDrainAndSeesARamp) {
  UpdateTimeline t;
  const double seconds = 1.0;
  // Nothing in the first and last 10% (filling and draining); 100/s between.
  for (int i = 0; i < 1000; ++i) {
    const double at = (i + 0.5) / 1000;
    if (at > 0.1 && at < 0.9) t.add(at, 0.1);
  }
  auto s = steady_state(t, seconds);
  EXPECT_NEAR(s.rate, 100, 3);
  EXPECT_LE(s.spread(), 0.05);

  UpdateTimeline ramp;  // rate rising through the run: not converged
  for (int i = 0; i < 1000; ++i) ramp.add((i + 0.5) / 1000, i * 1e-3);
  s = steady_state(ramp, seconds);
  EXPECT_GT(s.spread(), 0.01);
  EXPECT_GT(s.second_quarter, s.first_quarter);
}

TEST(UpdateTimeline, NoRunNoRate) {
  UpdateTimeline t;
  EXPECT_EQ(steady_state(t, 0).rate, 0);
  EXPECT_EQ(steady_state(t, 0).spread(), 0);
  EXPECT_THROW(UpdateTimeline::from(1e-9, std::vector<double>(3, 0)), std::invalid_argument);
}

}  // namespace
}  // namespace gups
