#include "kernel/core/run_report.hpp"

#include <gtest/gtest.h>

namespace gups {
namespace {

RunResult a_run(unsigned cores_per_node) {
  RunResult r;
  r.ranks = 2;
  r.total_words = 1024;
  r.max_local_words = 512;
  r.updates = 4096;
  r.seconds = 0.01;
  r.nodes = 2 / cores_per_node;
  r.cores_per_node = cores_per_node;
  for (unsigned core = 0; core < cores_per_node; ++core) r.cores.push_back({core, "generate, update", {}, 0, 0, 0});
  return r;
}

TEST(RunReport, WhatARunDidNotMeasureIsNullNotZero) {
  const auto json = to_json(a_run(1));  // as direct: no timeline, no busy clock
  for (const char* key : {"steady_gups", "steady_spread", "steady_quarters_gups", "applied_timeline", "window_gups"}) {
    EXPECT_TRUE(json.at(key).is_null()) << key << " = " << json.at(key);
  }
  EXPECT_TRUE(json.at("cores").at(0).at("busy_share").is_null());
  EXPECT_TRUE(json.at("cores").at(0).at("stalled_share").is_null());
  EXPECT_DOUBLE_EQ(json.at("gups").get<double>(), 1e-9 * 4096 / 0.01);
}

TEST(RunReport, WhatItMeasuredIsANumberAndAnIdleCoresZeroIsMeasured) {
  auto run = a_run(2);
  run.steady.rate = 4e5;
  run.steady.first_quarter = 3.9e5;
  run.steady.second_quarter = 4.1e5;
  run.applied_over_time.add(0.001, 100);
  run.cores[0].mean_busy_seconds = 0.008;  // one core busy, the other measured idle
  const auto json = to_json(run);
  EXPECT_DOUBLE_EQ(json.at("steady_gups").get<double>(), 4e-4);
  EXPECT_EQ(json.at("steady_quarters_gups").size(), 2u);
  EXPECT_FALSE(json.at("applied_timeline").is_null());
  EXPECT_DOUBLE_EQ(json.at("cores").at(0).at("busy_share").get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(json.at("cores").at(1).at("busy_share").get<double>(), 0.0);
}

TEST(RunReport, ANodesSliceIsLabelledTheNodesAndIdleThreadsShareOneLine) {
  EXPECT_NE(format_hpcc_lines(a_run(1)).find("PE Main table size = 512 words/PE MAX"), std::string::npos);
  auto node = a_run(2);
  for (unsigned core = 2; core < 64; ++core) node.cores.push_back({core, "idle", {}, 0, 0, 0});
  node.cores_per_node = 64;
  node.cores[5].role = "update";  // a busy core among the idle ones splits their ranges
  const auto text = format_hpcc_lines(node);
  EXPECT_EQ(text.find("words/PE"), std::string::npos) << text;
  EXPECT_NE(text.find("Node Main table size = 512 words/node MAX (one slice a node, its 64 ranks share it)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  61 idle core(s) or thread(s) of each node, with no role in the plan: 2-4, 6-63\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("core 7 (idle)"), std::string::npos) << text;
}

}  // namespace
}  // namespace gups
