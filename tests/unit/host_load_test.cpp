#include "kernel/core/host_load.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace gups {
namespace {

TEST(HostLoad, OthersShareIsWhatTheHostSpentBeyondTheRunsOwnOverItsCores) {
  // 2 s on 4 cores: the host spent 5 CPU seconds, the run's ranks 3: others took a quarter of the cores.
  EXPECT_DOUBLE_EQ(others_share(5.0, 3.0, 2.0, 4), 0.25);
  // The host's counters and the ranks' clocks tick apart: never below 0, never above every core.
  EXPECT_DOUBLE_EQ(others_share(2.9, 3.0, 2.0, 4), 0.0);
  EXPECT_DOUBLE_EQ(others_share(20.0, 0.0, 2.0, 4), 1.0);
  EXPECT_DOUBLE_EQ(others_share(5.0, 3.0, 0.0, 4), 0.0);
}

TEST(HostLoad, APhaseOfAFewTicksIsNotMeasured) {
  // The counters tick every 10 ms: a 2 ms run's share would be rounding, a second's is not.
  EXPECT_FALSE(load_measurable(0.002));
  EXPECT_FALSE(load_measurable(0.05));
  EXPECT_TRUE(load_measurable(1.0));
}

TEST(HostLoad, TheReportSaysABusyHostOnlyAboveTheThreshold) {
  EXPECT_EQ(host_load_line(std::nullopt), "");
  EXPECT_EQ(host_load_line(kBusyHostShare), "");
  const auto line = host_load_line(0.48);
  EXPECT_NE(line.find("other processes used 48% of the busiest host's cores"), std::string::npos) << line;
  EXPECT_TRUE(host_load_json(std::nullopt).is_null());
  EXPECT_DOUBLE_EQ(host_load_json(0.12345).at("others_cpu_share").get<double>(), 0.123);
  EXPECT_DOUBLE_EQ(host_load_json(0.12345).at("busy_above").get<double>(), kBusyHostShare);
}

TEST(HostLoad, ThisHostsCountersMoveWithWork) {
  const auto before = host_busy_seconds();
  ASSERT_TRUE(before.has_value()) << "/proc/stat unreadable";
  const double own_before = own_cpu_seconds();
  // Work until this process has had 0.2 s of CPU, however busy the host keeps
  // its cores: a loaded host stretches the wall time, not the CPU time. The
  // wall-time limit only stops a host that gives no CPU at all.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  volatile double sink = 0;
  while (own_cpu_seconds() - own_before < 0.2 && std::chrono::steady_clock::now() < give_up)
    for (int i = 0; i < 10000; ++i) sink = sink + 1;
  const double own = own_cpu_seconds() - own_before;
  ASSERT_GE(own, 0.2) << "the host gave this process under 0.2 s of CPU in 30 s";
  // This process's own work is part of what the host spent (the kernel counts in ticks of 10 ms).
  EXPECT_GE(*host_busy_seconds() - *before, own - 0.05);
}

}  // namespace
}  // namespace gups
