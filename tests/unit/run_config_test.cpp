#include "kernel/core/run_config.hpp"

#include <gtest/gtest.h>

#include <initializer_list>

#include "kernel/core/host_memory.hpp"

namespace gups {
namespace {

ParsedCommandLine parse(std::initializer_list<const char*> args) {
  std::vector<const char*> argv{"gups"};
  argv.insert(argv.end(), args);
  return parse_command_line(static_cast<int>(argv.size()), argv.data(), {"direct", "routed"});
}

TEST(CommandLine, DefaultsAreTheHpccRules) {
  const auto parsed = parse({});
  ASSERT_EQ(parsed.outcome, ParsedCommandLine::Outcome::run);
  EXPECT_EQ(parsed.config.algorithm, Algorithm::direct);
  EXPECT_EQ(parsed.config.updates_per_word, 4u);
  EXPECT_EQ(parsed.config.lookahead, 1024u);
  EXPECT_EQ(parsed.config.owner, OwnerMode::division);
  EXPECT_EQ(parsed.config.total_updates(), 4ULL << parsed.config.log2_table);
}

TEST(CommandLine, ReadsEveryOption) {
  const auto parsed = parse({"--algo", "routed", "--log2-table", "16", "--updates-per-word", "2",
                             "--owner", "predict", "--lookahead", "64", "--json", "out.json"});
  ASSERT_EQ(parsed.outcome, ParsedCommandLine::Outcome::run) << parsed.message;
  EXPECT_EQ(parsed.config.algorithm, Algorithm::routed);
  EXPECT_EQ(parsed.config.log2_table, 16u);
  EXPECT_EQ(parsed.config.updates_per_word, 2u);
  EXPECT_EQ(parsed.config.owner, OwnerMode::predict);
  EXPECT_EQ(parsed.config.lookahead, 64u);
  EXPECT_EQ(parsed.config.json_path, "out.json");
}

TEST(CommandLine, HelpIsNotAnError) {
  const auto parsed = parse({"--help"});
  EXPECT_EQ(parsed.outcome, ParsedCommandLine::Outcome::help);
  EXPECT_NE(parsed.message.find("--log2-table"), std::string::npos);
}

struct BadInput {
  std::vector<const char*> args;
  const char* expected_words;
};

TEST(CommandLine, BadInputIsOneClearLine) {
  const std::vector<BadInput> cases{
      {{"--lookahead", "0"}, "--lookahead"},
      {{"--lookahead", "-5"}, "--lookahead"},
      {{"--log2-table", "99"}, "--log2-table"},
      {{"--log2-table", "abc"}, "--log2-table"},
      {{"--updates-per-word", "0"}, "--updates-per-word"},
      {{"--owner", "guess"}, "guess"},
      {{"--algo", "magic"}, "magic"},
      {{"--no-such-option"}, "--no-such-option"},
      // Each within its range, too large together or for the table.
      {{"--log2-table", "62", "--updates-per-word", "1024"}, "2^63"},
      {{"--log2-table", "62", "--updates-per-word", "3"}, "2^63"},
      {{"--log2-table", "10", "--inject-errors", "1025"}, "1024 words"},
      {{"--stream-offset", "1317624576693539401"}, "period"},
  };
  for (const auto& bad : cases) {
    std::vector<const char*> argv{"gups"};
    argv.insert(argv.end(), bad.args.begin(), bad.args.end());
    const auto parsed =
        parse_command_line(static_cast<int>(argv.size()), argv.data(), {"direct"});
    EXPECT_EQ(parsed.outcome, ParsedCommandLine::Outcome::error) << bad.args[0];
    EXPECT_NE(parsed.message.find(bad.expected_words), std::string::npos)
        << "message: " << parsed.message;
    EXPECT_EQ(parsed.message.find('\n'), std::string::npos) << parsed.message;
  }
}

TEST(CommandLine, TheLargestCountsThatFitAreAccepted) {
  const auto most = parse({"--log2-table", "62", "--updates-per-word", "1", "--inject-errors", "1024",
                           "--stream-offset", "1317624576693539400"});
  ASSERT_EQ(most.outcome, ParsedCommandLine::Outcome::run) << most.message;
  EXPECT_EQ(most.config.total_updates(), std::uint64_t{1} << 62);
  const auto doubled = parse({"--log2-table", "61", "--updates-per-word", "4"});
  ASSERT_EQ(doubled.outcome, ParsedCommandLine::Outcome::run) << doubled.message;
  EXPECT_EQ(doubled.config.total_updates(), kMaxTotalUpdates);
}

TEST(HostMemory, ShortfallOfTablesBeyond64BitsOfBytes) {
  // 2^62 words of 8 bytes: 32 EiB, which wraps to 0 in 64-bit arithmetic.
  const auto message = memory_shortfall(8.0 * 0x1p62, 1ULL << 30, "a table");
  ASSERT_TRUE(message.has_value());
  EXPECT_NE(message->find("32.00 EiB"), std::string::npos) << *message;
}

TEST(HostMemory, ShortfallNamesBothAmounts) {
  EXPECT_FALSE(memory_shortfall(100, 100, "x").has_value());
  const auto message = memory_shortfall(3ULL << 30, 1ULL << 30, "a table");
  ASSERT_TRUE(message.has_value());
  EXPECT_NE(message->find("3.00 GiB"), std::string::npos) << *message;
  EXPECT_NE(message->find("1.00 GiB"), std::string::npos) << *message;
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_TRUE(available_host_memory_bytes().has_value());
}


TEST(Algorithms, EveryNameRoundTripsAndUnknownNamesAreRefused) {
  ASSERT_EQ(algorithm_names().size(), algorithm_table().size());
  for (const auto& name : algorithm_names()) {
    const auto algorithm = algorithm_named(name);
    ASSERT_TRUE(algorithm.has_value()) << name;
    EXPECT_EQ(to_string(*algorithm), name);
  }
  EXPECT_FALSE(algorithm_named("scatter").has_value());
  EXPECT_FALSE(algorithm_named("").has_value());
  // What the set-up and the charges key on.
  EXPECT_FALSE(traits(Algorithm::direct).routes_over_torus);
  EXPECT_TRUE(traits(Algorithm::routed).routes_over_torus);
  EXPECT_FALSE(traits(Algorithm::routed).specialised_cores);
  EXPECT_TRUE(traits(Algorithm::multicore).specialised_cores);
}

}  // namespace
}  // namespace gups
