// The network levels' table (sim/levels): names, the reference level, and
// the message timing of the levels that time messages themselves.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <stdexcept>

#include "sim/levels/network_level.hpp"
#include "topologies/torus_links.hpp"

namespace gups {
namespace {

std::unique_ptr<MessageTiming> timed(const char* level, TorusLinks links, double bandwidth, double latency) {
  return NetworkLevel::named(level).timing(std::make_shared<TorusLinks>(std::move(links)), {bandwidth, latency});
}

TEST(QueueLevel, AnUncontendedMessageTakesItsHopsLatenciesAndItsTimeOnOneLink) {
  const TorusShape shape({8, 8});
  for (const auto* level : {"queue", "latency"}) {
    auto timing = timed(level, TorusLinks(shape, {true, true}), 400.0, 0.5);
    // (0,0) -> (3,2): 3 hops along X, 2 along Y.
    EXPECT_DOUBLE_EQ(timing->arrival(0, 3 + 2 * 8, 100.0, 10.0), 10.0 + 5 * 0.5 + 100.0 / 400.0);
  }
}

TEST(QueueLevel, MessagesOnTheSameLinkWaitForEachOtherOnlyAtTheQueueLevel) {
  const TorusShape shape({8});
  auto queue = timed("queue", TorusLinks(shape, {true}), 100.0, 0.0);
  auto latency = timed("latency", TorusLinks(shape, {true}), 100.0, 0.0);
  EXPECT_DOUBLE_EQ(queue->arrival(0, 2, 100.0, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(queue->arrival(1, 2, 100.0, 0.0), 2.0);  // waits a second for link 1 -> 2
  EXPECT_DOUBLE_EQ(queue->arrival(2, 1, 100.0, 0.0), 1.0);  // the other direction is a link of its own
  EXPECT_DOUBLE_EQ(queue->arrival(1, 2, 100.0, 5.0), 6.0);  // free again by then
  EXPECT_DOUBLE_EQ(latency->arrival(0, 2, 100.0, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(latency->arrival(1, 2, 100.0, 0.0), 1.0);
}

TEST(QueueLevel, AHeadHeldAtOneLinkReachesTheNextLater) {
  // Virtual cut-through: the second message waits at link 0 -> 1, then its
  // head crosses 1 -> 2 one latency later, behind nothing there.
  const TorusShape shape({8});
  auto queue = timed("queue", TorusLinks(shape, {true}), 10.0, 1.0);
  EXPECT_DOUBLE_EQ(queue->arrival(0, 1, 10.0, 0.0), 2.0);  // holds 0 -> 1 during [0, 1]
  EXPECT_DOUBLE_EQ(queue->arrival(0, 2, 10.0, 0.0), 1.0 + 1.0 + 1.0 + 1.0);
}

TEST(QueueLevel, AMessageTakesAFreeStretchBeforeALinkIsBookedForOneStillHopsAway) {
  // Latency 1 per hop, 1 second on a link: the first message books 0 -> 1
  // for [0, 1], 1 -> 2 for [1, 2] and 2 -> 3 for [2, 3] when it is injected.
  const TorusShape shape({8});
  auto queue = timed("queue", TorusLinks(shape, {true}), 10.0, 1.0);
  EXPECT_DOUBLE_EQ(queue->arrival(0, 3, 10.0, 0.0), 4.0);
  EXPECT_DOUBLE_EQ(queue->arrival(2, 3, 10.0, 0.0), 2.0);   // 2 -> 3 is free during [0, 1]
  EXPECT_DOUBLE_EQ(queue->arrival(2, 3, 15.0, 0.0), 5.5);   // no stretch of 1.5 before [2, 3] ends
  EXPECT_DOUBLE_EQ(queue->arrival(2, 3, 10.0, 4.5), 6.5);   // [3, 4.5] taken; from 4.5 it is free
}

// Early looks (sim/smpi/timed_message_slots.cpp) take the least transfer
// time as a bound: no message, contended or not, may arrive sooner.
TEST(QueueLevel, NoMessageArrivesSoonerThanTheLeastTransferTime) {
  const TorusShape shape({4, 4});
  for (const auto* level : {"queue", "latency"}) {
    auto timing = timed(level, TorusLinks(shape, {true, true}), 400.0, 0.5);
    EXPECT_DOUBLE_EQ(timing->least_transfer(100.0), 0.5 + 100.0 / 400.0);
    EXPECT_DOUBLE_EQ(timing->arrival(0, 1, 100.0, 0.0), timing->least_transfer(100.0));  // one hop, alone
    double now = 0;
    for (std::uint64_t m = 0; m < 400; ++m) {  // every pair, many at once on shared links
      const auto from = (m * 7) % 16, to = (m * 11 + 3) % 16;
      const double bytes = 8.0 * static_cast<double>(1 + m % 40);
      if (from == to) continue;
      now += (m % 3 == 0) ? 0.01 : 0.0;
      // Up to the rounding of the level's sums (hop by hop, from `now`).
      const double least_end = now + timing->least_transfer(bytes);
      EXPECT_GE(timing->arrival(from, to, bytes, now), least_end * (1 - 1e-12)) << level << " " << m;
    }
  }
}

TEST(NetworkLevel, IsNamedAndUnknownNamesAreRefused) {
  for (const auto& name : network_level_names()) EXPECT_EQ(to_string(network_level_named(name)), name);
  EXPECT_THROW(network_level_named("wormhole"), std::invalid_argument);
  const TorusShape shape({4});
  EXPECT_THROW(timed("flow", TorusLinks(shape, {true}), 1.0, 0.0), std::invalid_argument);
  EXPECT_THROW(timed("queue", TorusLinks(shape, {true}), 0.0, 0.0), std::invalid_argument);
  EXPECT_THROW(timed("latency", TorusLinks(shape, {true}), 1.0, -1.0), std::invalid_argument);
}

TEST(NetworkLevel, TheReferenceLevelIsSimGridsOwnAndTheDefault) {
  EXPECT_STREQ(NetworkLevel().name(), "flow");
  EXPECT_TRUE(NetworkLevel().simgrid_links());
  for (const auto& level : NetworkLevel::all()) {
    EXPECT_EQ(level.simgrid_links(), level == NetworkLevel()) << level.name();
    EXPECT_FALSE(std::string(level.help()).empty()) << level.name();
  }
}

TEST(NetworkLevel, TheListALauncherReadsNamesEveryLevelInOrder) {
  const auto list = nlohmann::json::parse(network_levels_json());
  ASSERT_EQ(list.size(), network_level_names().size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(list[i].at("name"), network_level_names()[i]);
    EXPECT_EQ(list[i].at("simgrid_links").get<bool>(), NetworkLevel::named(network_level_names()[i]).simgrid_links());
  }
  EXPECT_EQ(network_level_names().front(), "flow");
}

}  // namespace
}  // namespace gups
