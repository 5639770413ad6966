// The global-exchange probes' pure parts: who sends to whom, how much, the
// payloads' check, the figures of a size, the command line; and the plan's
// link figures a measurement is read against.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernel/core/program_variants.hpp"
#include "kernel/exchange/run.hpp"
#include "sim/plan/exchange_plan.hpp"

namespace gups::exchange {
namespace {

TEST(ExchangeProbe, BisectionPairsTheLowerHalfWithTheUpperOneWay) {
  const std::uint64_t ranks = 8;
  std::multiset<std::uint64_t> receivers, expected_senders;
  for (std::uint64_t r = 0; r < ranks; ++r) {
    const auto step = step_of("bisection", r, ranks, 0);
    if (r < ranks / 2) {
      ASSERT_TRUE(step.send_to);
      EXPECT_FALSE(step.receive_from);
      EXPECT_EQ(*step.send_to, r + ranks / 2);
      receivers.insert(*step.send_to);
    } else {
      EXPECT_FALSE(step.send_to);
      ASSERT_TRUE(step.receive_from);
      EXPECT_EQ(*step.receive_from, r - ranks / 2);
      expected_senders.insert(*step.receive_from);
    }
  }
  EXPECT_EQ(receivers, (std::multiset<std::uint64_t>{4, 5, 6, 7}));
  EXPECT_EQ(expected_senders, (std::multiset<std::uint64_t>{0, 1, 2, 3}));
}

TEST(ExchangeProbe, ExchangePartnersAreMutual) {
  const std::uint64_t ranks = 10;
  for (std::uint64_t r = 0; r < ranks; ++r) {
    const auto step = step_of("exchange", r, ranks, 0);
    ASSERT_TRUE(step.send_to && step.receive_from);
    EXPECT_EQ(*step.send_to, *step.receive_from);
    EXPECT_EQ((r + ranks / 2) % ranks, *step.send_to);
    EXPECT_EQ(*step_of("exchange", *step.send_to, ranks, 0).send_to, r);
  }
}

TEST(ExchangeProbe, AllToAllStepsArePermutationsCoveringEveryPairOnce) {
  for (const std::uint64_t ranks : {2u, 5u, 8u}) {
    std::set<std::pair<std::uint64_t, std::uint64_t>> pairs_seen;
    ASSERT_EQ(steps_per_repetition("all-to-all", ranks), ranks - 1);
    for (std::uint64_t s = 0; s < ranks - 1; ++s) {
      std::set<std::uint64_t> destinations;
      for (std::uint64_t r = 0; r < ranks; ++r) {
        const auto step = step_of("all-to-all", r, ranks, s);
        ASSERT_TRUE(step.send_to && step.receive_from);
        EXPECT_NE(*step.send_to, r);
        // Whoever sends to r at this step is the one r expects.
        EXPECT_EQ(*step_of("all-to-all", *step.receive_from, ranks, s).send_to, r);
        destinations.insert(*step.send_to);
        EXPECT_TRUE(pairs_seen.insert({r, *step.send_to}).second) << "a pair twice";
      }
      EXPECT_EQ(destinations.size(), ranks) << "step " << s << " is not a permutation";
    }
    EXPECT_EQ(pairs_seen.size(), ranks * (ranks - 1));
  }
}

TEST(ExchangeProbe, BytesAndPairsPerRepetition) {
  EXPECT_EQ(bytes_per_repetition("bisection", 8, 1024), 4u * 1024);
  EXPECT_EQ(bytes_per_repetition("exchange", 8, 1024), 8u * 1024);
  EXPECT_EQ(bytes_per_repetition("all-to-all", 8, 1024), 56u * 1024);
  EXPECT_EQ(pairs("bisection", 8), 4u);
  EXPECT_EQ(pairs("exchange", 8), 4u);
  EXPECT_EQ(pairs("all-to-all", 8), 8u);
}

TEST(ExchangeProbe, SizeFiguresFollowFromTheSlowestTime) {
  const auto r = size_result("exchange", 8, 1024, 10, 1e-3);
  EXPECT_DOUBLE_EQ(r.aggregate_bytes_per_s, 8.0 * 1024 * 10 / 1e-3);
  EXPECT_DOUBLE_EQ(r.per_pair_bytes_per_s, r.aggregate_bytes_per_s / 4);
  EXPECT_DOUBLE_EQ(r.latency_us, 100.0);
  const auto all = size_result("all-to-all", 4, 64, 2, 6e-6);
  EXPECT_DOUBLE_EQ(all.latency_us, 1.0);  // 2 repetitions of 3 steps in 6 us
  EXPECT_EQ(size_result("bisection", 2, 8, 1, 0).aggregate_bytes_per_s, 0.0);
}

TEST(ExchangeProbe, ProcessCountsAreChecked) {
  EXPECT_TRUE(problem("bisection", 1));
  EXPECT_TRUE(problem("exchange", 7));
  EXPECT_FALSE(problem("all-to-all", 7));
  EXPECT_FALSE(problem("bisection", 2));
}

TEST(ExchangeProbe, SizesParseWithUnitsAndRefuseWhatIsNoMessage) {
  EXPECT_EQ(parse_sizes("8,64K,1M"), (std::vector<std::uint64_t>{8, 65536, 1048576}));
  for (const char* bad : {"", "12", "0", "8,", "-8", "1G", "x", "128M", "8,,16"}) {
    EXPECT_THROW(parse_sizes(bad), std::invalid_argument) << bad;
  }
  EXPECT_EQ(default_sizes("bisection"), (std::vector<std::uint64_t>{1 << 20}));
  const auto sweep = default_sizes("exchange");
  EXPECT_EQ(sweep.front(), 8u);
  EXPECT_EQ(sweep.back(), 1u << 20);
  EXPECT_EQ(default_sizes("all-to-all").back(), 4096u);
}

TEST(ExchangeProbe, AutomaticRepeatsStayWithinBounds) {
  EXPECT_EQ(automatic_repeats("exchange", 8, 64), 64u);
  EXPECT_EQ(automatic_repeats("exchange", 1 << 20, 64), 4u);
  EXPECT_EQ(automatic_repeats("all-to-all", 1 << 20, 64), 1u);
  EXPECT_EQ(automatic_repeats("all-to-all", 64, 64), 4u);
  EXPECT_EQ(automatic_repeats("all-to-all", 512, 257), 2u);  // 256 KiB / (512 B x 256)
}

TEST(ExchangeProbe, PayloadNamesItsSenderAndAnyChangedWordIsFound) {
  std::vector<std::uint64_t> words(100);
  fill_payload(words.data(), words.size(), 42);
  ASSERT_EQ(payload_sender(words.data(), words.size()), std::optional<std::uint64_t>(42));
  for (const std::size_t changed : {std::size_t{1}, std::size_t{50}, std::size_t{99}}) {
    auto copy = words;
    copy[changed] ^= 1;
    EXPECT_FALSE(payload_sender(copy.data(), copy.size())) << changed;
  }
  auto renamed = words;
  renamed[0] = 41;  // another sender's name over this one's pattern
  EXPECT_FALSE(payload_sender(renamed.data(), renamed.size()));
  std::vector<std::uint64_t> other(100);
  fill_payload(other.data(), other.size(), 43);
  EXPECT_NE(other, words);
}

ParsedProbe parse(std::vector<const char*> words, std::uint64_t processes = 4) {
  words.insert(words.begin(), "gups");
  return parse_probe_command_line(static_cast<int>(words.size()), words.data(), processes);
}

TEST(ExchangeProbe, CommandLine) {
  const auto good = parse({"--algo", "exchange", "--sizes", "8,1K", "--repeats", "3"});
  ASSERT_EQ(good.outcome, ParsedProbe::Outcome::run) << good.message;
  EXPECT_EQ(good.config.sizes, (std::vector<std::uint64_t>{8, 1024}));
  EXPECT_EQ(good.config.repeats, 3u);
  EXPECT_EQ(parse({"--algo", "bisection"}).config.sizes, default_sizes("bisection"));
  const auto odd = parse({"--algo", "exchange"}, 5);
  EXPECT_EQ(odd.outcome, ParsedProbe::Outcome::error);
  EXPECT_NE(odd.message.find("even"), std::string::npos);
  EXPECT_EQ(parse({"--algo", "exchange", "--sizes", "7"}).outcome, ParsedProbe::Outcome::error);
  EXPECT_EQ(parse({"--algo", "exchange", "--repeats", "0"}).outcome, ParsedProbe::Outcome::error);
  EXPECT_EQ(parse({"--algo", "gather"}).outcome, ParsedProbe::Outcome::error);
  const std::array<const char*, 3> asks{"gups", "--algo=all-to-all", "--json"};
  EXPECT_EQ(algo_argument(3, asks.data()), "all-to-all");
  EXPECT_TRUE(is_probe(algo_argument(3, asks.data())));
  const std::array<const char*, 3> update{"gups", "--algo", "multicore"};
  EXPECT_FALSE(is_probe(algo_argument(3, update.data())));
}

TEST(ExchangeProbe, JsonGivesTheBisectionAtTheLargestSize) {
  ProbeResult result;
  result.config.probe = "bisection";
  result.processes = 4;
  result.sizes = {size_result("bisection", 4, 1 << 20, 2, 1e-2), size_result("bisection", 4, 1024, 2, 1e-3)};
  const auto json = to_json(result);
  EXPECT_DOUBLE_EQ(json["bisection_bytes_per_s"].get<double>(), 2.0 * (1 << 20) * 2 / 1e-2);
  EXPECT_EQ(json["bisection_message_bytes"].get<std::uint64_t>(), 1u << 20);
  EXPECT_TRUE(json["passed"].get<bool>());
  result.config.probe = "exchange";
  EXPECT_FALSE(to_json(result).contains("bisection_bytes_per_s"));
}

}  // namespace
}  // namespace gups::exchange

namespace gups::topology {
namespace {

TEST(ExchangePlan, ProbeCutIsTheLastDimensionsModelBTheLongestSide) {
  ExchangeRequest request;
  request.machine = "bgp";
  request.shape = "8x16x32";
  const auto plan = plan_exchange_run(request);
  const double link = plan.machine.link_bandwidth;
  // 4,096 / 32 lines, two links each way across on a ring.
  EXPECT_DOUBLE_EQ(plan.model_bisection_bytes_per_s, 2.0 * 128 * link);
  EXPECT_DOUBLE_EQ(plan.probe_cut_bytes_per_s, plan.model_bisection_bytes_per_s);
  EXPECT_DOUBLE_EQ(plan.all_to_all_peak_bytes_per_s, 8.0 * link / 32);
  request.shape = "40x32x16";  // the longest side first: the pairs cross a wider cut than B's
  const auto wide = plan_exchange_run(request);
  EXPECT_DOUBLE_EQ(wide.probe_cut_bytes_per_s, 2.0 * (40 * 32) * link);
  EXPECT_DOUBLE_EQ(wide.model_bisection_bytes_per_s, 2.0 * (32 * 16) * link);
  request.shape = "4x4x4";
  request.mesh = true;
  EXPECT_DOUBLE_EQ(plan_exchange_run(request).probe_cut_bytes_per_s, 16.0 * link);
  request.shape = "3x3x3";
  EXPECT_THROW(plan_exchange_run(request), std::invalid_argument);  // odd: no halves
}

}  // namespace
}  // namespace gups::topology
