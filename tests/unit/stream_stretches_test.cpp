#include "kernel/core/stream_stretches.hpp"

#include <gtest/gtest.h>

#include "kernel/core/hpcc_stream.hpp"

namespace gups {
namespace {

RunConfig config_of(unsigned log2_table, unsigned updates_per_word, std::uint64_t offset) {
  RunConfig config;
  config.log2_table = log2_table;
  config.updates_per_word = updates_per_word;
  config.stream_offset = offset;
  return config;
}

TEST(StreamStretches, PipelinesTileTheWholeStreamInOrder) {
  const auto config = config_of(10, 4, 77);
  const TableLayout layout(10, 6);  // 6 nodes: uneven shares
  const RolePlan plan(7, 3, PlanSpec::parse("2xX/YZ+3", 3));
  std::uint64_t next = config.stream_offset;
  for (std::uint64_t node = 0; node < 6; ++node) {
    for (unsigned p = 0; p < plan.pipelines(); ++p) {
      const auto stretch = pipeline_stretch(config, layout, plan, node, p);
      EXPECT_EQ(stretch.first, next);
      next += stretch.count;
    }
  }
  EXPECT_EQ(next, config.stream_offset + config.total_updates());
  const auto whole = run_stretches(config, layout, plan, kWholeStretch);
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_EQ(total_count(whole), config.total_updates());
}

TEST(StreamStretches, ACutRunIsEveryPipelinesStretchCutToTheLimit) {
  const auto config = config_of(10, 4, 0);
  const TableLayout layout(10, 4);  // 1024 updates a node
  const RolePlan plan(4, 3, PlanSpec::parse("2xXYZ+2", 3));  // 512 a pipeline
  const auto cut = run_stretches(config, layout, plan, 100);
  ASSERT_EQ(cut.size(), 8u);
  EXPECT_EQ(total_count(cut), 800u);
  EXPECT_EQ(cut[1].first, 512u);
  EXPECT_EQ(total_count(run_stretches(config, layout, plan, 600)), config.total_updates());
}

TEST(StretchWalk, GivesTheStretchesValuesFromAnyPoint) {
  const std::vector<StreamStretch> stretches{{10, 3}, {100, 0}, {50, 2}};
  std::vector<std::uint64_t> expected;
  for (const auto& s : stretches) {
    std::uint64_t random = starts(s.first);
    for (std::uint64_t i = 0; i < s.count; ++i) expected.push_back(random = next_random(random));
  }
  for (std::uint64_t skip = 0; skip < expected.size(); ++skip) {
    StretchWalk walk(stretches, skip);
    for (std::size_t i = skip; i < expected.size(); ++i) EXPECT_EQ(walk.next(), expected[i]) << skip << " " << i;
  }
}

TEST(StreamStretches, SerialChecksumsOfStretchesAreThoseOfTheirUpdates) {
  const TableLayout layout(10, 4);
  EXPECT_EQ(serial_checksums(layout, std::vector<StreamStretch>{{5, 4096}}), serial_checksums(layout, 5, 4096));
  const std::vector<StreamStretch> halves{{5, 2000}, {2005, 2096}};
  EXPECT_EQ(serial_checksums(layout, halves), serial_checksums(layout, 5, 4096));
  EXPECT_NE(serial_checksums(layout, std::vector<StreamStretch>{{5, 2000}, {2006, 2096}}),
            serial_checksums(layout, 5, 4096));
}

}  // namespace
}  // namespace gups
