// The bound the model reports is the achievable one: never above any bound it prints, on every shipped machine;
// and the crossover is searched over the machine's own sizes, whatever a sweep starts from.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "models/src/bounds.hpp"
#include "models/src/machine.hpp"
#include "tests/unit/shipped_machines.hpp"

namespace gups::model {
namespace {

using testing::bgp;
using testing::shipped_machine;

// The sizes a user would ask of a machine: its partitions and powers of two, up to its largest partition (or
// 65,536 where it lists none).
std::vector<std::uint64_t> sizes_of(const Machine& machine) {
  std::vector<std::uint64_t> sizes;
  for (const auto& [nodes, shape] : machine.torus.partitions) sizes.push_back(nodes);
  const std::uint64_t largest = sizes.empty() ? 65536 : std::max<std::uint64_t>(sizes.back(), 64);
  for (std::uint64_t n = 64; n <= largest; n *= 2) sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

TEST(AchievableBound, TheReportedFigureIsNeverAboveAnyBoundItPrints) {
  int checked = 0;
  for (const auto* name : {"bgl", "bgp", "bgq", "k", "fattree", "dragonfly"}) {
    const auto machine = shipped_machine(name);
    for (const auto algorithm : {Algorithm::direct, Algorithm::routed, Algorithm::multicore}) {
      ModelOptions options;
      options.algorithm = algorithm;
      for (const auto nodes : sizes_of(machine)) {
        Prediction p;
        try {
          p = predict(machine, machine.shape_for(nodes), options);
        } catch (const std::invalid_argument&) {
          continue;  // a size or an algorithm the machine cannot take
        }
        const auto at = std::string(name) + " " + std::to_string(nodes) + " nodes, algorithm " +
                        std::to_string(static_cast<int>(algorithm));
        EXPECT_LE(p.gups, p.cpu_gups * (1 + 1e-12)) << at;
        for (const auto& bound : {p.network_gups, p.routes_network_gups, p.bisection_network_gups}) {
          if (bound) {
            EXPECT_LE(p.gups, *bound * (1 + 1e-12)) << at;
          }
        }
        if (p.routes_network_gups && p.bisection_network_gups) {
          EXPECT_DOUBLE_EQ(*p.network_gups,
                           std::min(*p.routes_network_gups, *p.bisection_network_gups) * p.network_efficiency)
              << at;
        }
        EXPECT_GT(p.network_efficiency, 0) << at;
        EXPECT_LE(p.network_efficiency, 1) << at;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(AchievableBound, OnBlueGeneLTheRoutesBoundBindsWhereItIsBelowFourBOverB) {
  // Single-core on bgl from 2,048 nodes: ties half-way round a ring load some links more than the bisection's
  // share, so the routes bound is 3-8% under 4B/b and is the one reported.
  const auto machine = shipped_machine("bgl");
  ModelOptions routed;
  routed.algorithm = Algorithm::routed;
  const auto p = predict(machine, machine.shape_for(65536), routed);
  ASSERT_TRUE(p.routes_network_gups && p.bisection_network_gups);
  EXPECT_LT(*p.routes_network_gups, *p.bisection_network_gups);
  EXPECT_DOUBLE_EQ(*p.network_gups, *p.routes_network_gups);
}

TEST(AchievableBound, AMeasuredBisectionStandsInForTheLinksTheRoutesArePricedOn) {
  // 16 nodes are a mesh on Blue Gene/P: its routes bound, from the links, is half a torus probe's 4B/b. The
  // probe's figure is the bound reported, as --bisection asks; the links' stays printed beside it.
  const auto machine = bgp();
  ModelOptions options;
  const auto shape = machine.shape_for(16);
  const auto links = predict(machine, shape, options);
  ASSERT_TRUE(links.routes_network_gups);
  MeasuredBisection probe;
  probe.bytes_per_s = 4 * links.model_bisection_bytes_per_s;
  probe.nodes = 16;
  options.measured_bisection = probe;
  const auto measured = predict(machine, shape, options);
  ASSERT_TRUE(measured.bisection_measured);
  const double four_b_over_b = 4 * 4 * links.model_bisection_bytes_per_s / measured.bytes_per_update * 1e-9;
  EXPECT_DOUBLE_EQ(*measured.network_gups, four_b_over_b * measured.network_efficiency);
  EXPECT_GT(*measured.network_gups, *measured.routes_network_gups);
  ASSERT_TRUE(measured.links_network_gups);
  EXPECT_LT(*measured.links_network_gups, *measured.network_gups);
}

TEST(AchievableBound, TheNetworksEfficiencyScalesTheBoundWhereThePartitionWraps) {
  auto machine = bgp();
  ASSERT_DOUBLE_EQ(machine.network_efficiency, 0.78);  // bgp.json's torus.efficiency (assumed, 0.72..1)
  ModelOptions multicore;
  auto as_routed = machine;
  as_routed.network_efficiency = 1;
  const auto torus = predict(machine, machine.shape_for(1024), multicore);
  const auto routed = predict(as_routed, as_routed.shape_for(1024), multicore);
  EXPECT_DOUBLE_EQ(*torus.network_gups, 0.78 * *routed.network_gups);
  EXPECT_DOUBLE_EQ(torus.network_efficiency, 0.78);
  // 256 nodes are a mesh on Blue Gene/P (torus.mesh_below_nodes): no ring ties, the bound as routed.
  const auto mesh = predict(machine, machine.shape_for(256), multicore);
  EXPECT_TRUE(mesh.mesh);
  EXPECT_DOUBLE_EQ(mesh.network_efficiency, 1);
  EXPECT_DOUBLE_EQ(*mesh.network_gups, *predict(as_routed, as_routed.shape_for(256), multicore).network_gups);
}

TEST(AchievableBound, AnEfficiencyAboveOneIsRefusedWithItsField) {
  const auto path = std::filesystem::temp_directory_path() / "achievable-bound-efficiency.json";
  auto document = nlohmann::json::parse(std::ifstream(load_machine("bgp", default_machine_directories()).path));
  document["torus"]["efficiency"] = 1.3;
  std::ofstream(path) << document.dump();
  try {
    load_machine(path.string(), {});
    FAIL() << "an efficiency of 1.3 was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("torus.efficiency"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("at most 1"), std::string::npos) << error.what();
  }
  std::filesystem::remove(path);
}

TEST(AchievableBound, TheCrossoverIsSearchedOverTheMachinesOwnSizes) {
  const auto machine = bgp();
  const auto sizes = crossover_sizes(machine);
  // Powers of two below the smallest partition, every listed partition, powers of two past the largest.
  ASSERT_FALSE(machine.torus.partitions.empty());
  const auto smallest = machine.torus.partitions.begin()->first;
  const auto largest = machine.torus.partitions.rbegin()->first;
  for (const auto& [nodes, shape] : machine.torus.partitions) {
    EXPECT_NE(std::find(sizes.begin(), sizes.end(), nodes), sizes.end()) << nodes;
  }
  for (const auto nodes : sizes) {
    const bool listed = machine.torus.partitions.count(nodes) > 0;
    EXPECT_TRUE(listed || nodes < smallest || nodes > largest) << nodes << " is no partition between the listed ones";
  }
  EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
  // A file with no partitions: powers of two from 1.
  auto balanced = machine;
  balanced.balanced_shapes = true;
  const auto powers = crossover_sizes(balanced);
  EXPECT_EQ(powers.front(), 1u);
  EXPECT_EQ(powers[10], 1024u);
  // The crossover is one of those sizes, the first where the network binds.
  ModelOptions multicore;
  const auto crossover = crossover_nodes(machine, multicore);
  ASSERT_TRUE(crossover.has_value());
  EXPECT_NE(std::find(sizes.begin(), sizes.end(), *crossover), sizes.end());
  for (const auto nodes : sizes) {
    if (nodes >= *crossover) break;
    EXPECT_FALSE(predict(machine, machine.shape_for(nodes), multicore).network_binds) << nodes;
  }
}

}  // namespace
}  // namespace gups::model
