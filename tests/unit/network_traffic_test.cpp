// Global-exchange traffic (kernel/core/exchange_pattern, sim/network_traffic):
// who sends to whom, the peak a partition allows, and what a level delivers.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <vector>

#include "kernel/core/exchange_pattern.hpp"
#include "sim/levels/network_level.hpp"
#include "sim/network_traffic.hpp"
#include "topologies/torus_links.hpp"

namespace gups {
namespace {

TEST(ExchangePattern, EachAllToAllStepIsAPermutationAndTheWholeReachesEveryPair) {
  const std::uint64_t n = 12;
  std::set<std::pair<std::uint64_t, std::uint64_t>> pairs;
  ASSERT_EQ(exchange_steps(ExchangePattern::all_to_all, n), n - 1);
  for (std::uint64_t step = 0; step < n - 1; ++step) {
    std::set<std::uint64_t> receivers;
    for (std::uint64_t r = 0; r < n; ++r) {
      const auto to = exchange_destination(ExchangePattern::all_to_all, r, step, n);
      EXPECT_NE(to, r);
      receivers.insert(to);
      pairs.insert({r, to});
    }
    EXPECT_EQ(receivers.size(), n) << step;
  }
  EXPECT_EQ(pairs.size(), n * (n - 1));
}

TEST(ExchangePattern, BisectionSendsTheLowerHalfToTheUpperAndUniformNeverToItself) {
  for (std::uint64_t r = 0; r < 8; ++r) {
    const auto to = exchange_destination(ExchangePattern::bisection, r, 0, 8);
    EXPECT_EQ(to, r < 4 ? r + 4 : r);
  }
  EXPECT_THROW(exchange_destination(ExchangePattern::bisection, 0, 0, 7), std::invalid_argument);
  std::vector<int> hits(16, 0);
  for (std::uint64_t step = 0; step < 1600; ++step) {
    const auto to = exchange_destination(ExchangePattern::uniform, 3, step, 16, 9);
    ASSERT_NE(to, 3u);
    ++hits[to];
  }
  for (std::uint64_t r = 0; r < 16; ++r) {
    if (r == 3) continue;
    EXPECT_NEAR(hits[r], 1600 / 15, 40) << r;
  }
  EXPECT_EQ(exchange_destination(ExchangePattern::uniform, 3, 5, 16, 9),
            exchange_destination(ExchangePattern::uniform, 3, 5, 16, 9));
  EXPECT_EQ(exchange_pattern_named("all-to-all"), ExchangePattern::all_to_all);
  EXPECT_THROW(exchange_pattern_named("scatter"), std::invalid_argument);
}

TEST(NetworkTraffic, ThePeakIsTheBusiestLinesLinksFull) {
  // A ring of k carries k/8 of each node's rate per directed link, a chain's
  // middle link k/4: the longest side sets the peak.
  EXPECT_DOUBLE_EQ(uniform_peak_rate(TorusLinks(TorusShape({8, 8, 8}), {true, true, true}), 1.0), 1.0);
  EXPECT_DOUBLE_EQ(uniform_peak_rate(TorusLinks(TorusShape({8, 16, 32}), {true, true, true}), 1.0), 0.25);
  EXPECT_DOUBLE_EQ(uniform_peak_rate(TorusLinks(TorusShape({8, 8, 8}), {true, true, false}), 1.0), 0.5);
  // Bisection: n/2 senders over the links across the last dimension's cut.
  EXPECT_DOUBLE_EQ(bisection_peak_rate(TorusLinks(TorusShape({4, 4, 8}), {true, true, true}), 1.0), 0.5);
  EXPECT_DOUBLE_EQ(bisection_peak_rate(TorusLinks(TorusShape({4, 4, 8}), {true, true, false}), 1.0), 0.25);
}

TEST(NetworkTraffic, WithoutContentionALevelDeliversBeyondThePeakAndWithItBelow) {
  const TorusShape shape({4, 4, 4});
  const auto links = std::make_shared<TorusLinks>(shape, std::vector<bool>{true, true, true});
  TrafficRun run;
  run.wire_bytes = run.payload_bytes = 256;
  auto latency = NetworkLevel::named("latency").timing(links, {256e6, 1e-7});
  auto queue = NetworkLevel::named("queue").timing(links, {256e6, 1e-7});
  const auto free = drive_traffic(*latency, *links, 256e6, run);
  const auto contended = drive_traffic(*queue, *links, 256e6, run);
  EXPECT_EQ(free.messages, 64u * 63);
  EXPECT_GT(free.efficiency, 1.0);  // posted at once, nothing shared: far beyond what links can carry
  EXPECT_LT(contended.efficiency, 1.0);
  EXPECT_GT(contended.efficiency, 0.3);
  // Paced below the peak, the network keeps up: it delivers what is offered.
  run.offered_load = 0.5;
  auto paced_queue = NetworkLevel::named("queue").timing(links, {256e6, 1e-7});
  EXPECT_NEAR(drive_traffic(*paced_queue, *links, 256e6, run).efficiency, 0.5, 0.05);
}

}  // namespace
}  // namespace gups
