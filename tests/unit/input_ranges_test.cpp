// Each input kind's rule for its range, and the interval's ends against a
// brute-force search of every corner of the ranges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "models/src/input_ranges.hpp"
#include "models/src/machine.hpp"
#include "tests/unit/machine_document.hpp"
#include "models/src/machine_schema.hpp"
#include "models/src/prediction_interval.hpp"

namespace gups::model {
namespace {

using namespace gups::model::testing;

nlohmann::json document_of(const std::string& name) { return machine_document(name); }

const InputRange& range_named(const Machine& machine, const std::string& field) {
  for (const auto& range : machine.ranges) {
    if (range.field == field) return range;
  }
  throw std::invalid_argument("no range " + field);
}

TEST(InputRanges, PrintedPrecisionIsHalfTheLastDigit) {
  EXPECT_DOUBLE_EQ(printed_precision("0.38"), 0.005 / 0.38);
  EXPECT_DOUBLE_EQ(printed_precision("0.380"), 0.0005 / 0.38);
  EXPECT_DOUBLE_EQ(printed_precision("150"), 5.0 / 150);
  EXPECT_DOUBLE_EQ(printed_precision("457"), 0.5 / 457);
  EXPECT_DOUBLE_EQ(printed_precision("1e-07"), 0.5);
  EXPECT_THROW(printed_precision("about 150"), std::invalid_argument);
}

TEST(InputRanges, ADerivedRangeFollowsThePrintedPrecision) {
  const auto machine = load_machine("bgp", default_machine_directories());
  const auto& top = range_named(machine, "costs_cycles.core_overhead");
  EXPECT_EQ(top.kind, InputKind::derived);
  const double relative = 0.005 / 0.38 * 3.45;
  EXPECT_NEAR(top.low, top.value * (1 - relative), 1e-9);
  EXPECT_NEAR(top.high, top.value * (1 + relative), 1e-9);
  auto doc = document_of("bgp");
  doc["sources"]["costs_cycles.routing_hop"]["range"] = {150, 170};
  EXPECT_NE(load_error(doc).find("is derived, and a derived range follows its printed figure"), std::string::npos)
      << load_error(doc);
}

TEST(InputRanges, AMeasuredRangeComesFromTheSpreadAndNeverByHand) {
  auto doc = document_of("bgp");
  doc["sources"]["costs_cycles.send_call"] = {{"kind", "measured"}, {"source", "timed"}};
  EXPECT_NE(load_error(doc).find("costs_cycles_spread gives no spread for it"), std::string::npos) << load_error(doc);
  doc["costs_cycles_spread"] = {{"send_call", 0.1}};
  const auto machine = load_document(doc);
  const auto& send = range_named(machine, "costs_cycles.send_call");
  EXPECT_EQ(send.kind, InputKind::measured);
  EXPECT_DOUBLE_EQ(send.low, 150);
  EXPECT_DOUBLE_EQ(send.high, 165);
  doc["sources"]["costs_cycles.send_call"]["range"] = {140, 170};
  EXPECT_NE(load_error(doc).find("a measured range comes from its timings' spread, never given by hand"),
            std::string::npos)
      << load_error(doc);
}

TEST(InputRanges, AnAssumedInputNeedsARange) {
  auto doc = document_of("bgp");
  doc["sources"]["costs_cycles.owner_division"] = {{"kind", "assumed"}, {"source", "a guess"}};
  EXPECT_NE(load_error(doc).find("is assumed and gives no range"), std::string::npos) << load_error(doc);
  doc["sources"]["costs_cycles.owner_division"]["range"] = {"x0.5", "x3"};
  const auto machine = load_document(doc);
  const auto& division = range_named(machine, "costs_cycles.owner_division");
  EXPECT_DOUBLE_EQ(division.low, 50);
  EXPECT_DOUBLE_EQ(division.high, 300);
  doc["sources"]["costs_cycles.owner_division"]["kind"] = "guessed";
  EXPECT_NE(load_error(doc).find("has kind 'guessed'"), std::string::npos) << load_error(doc);
}

// A value outside the range its source states is held by the range, and the
// loader says so in one warning line naming the field, value and range.
TEST(InputRanges, AValueOutsideItsStatedRangeStretchesItAndIsSaidOnce) {
  auto doc = document_of("bgp");
  doc["costs_cycles"]["owner_division"] = 300;  // bgp states 40 .. 200
  const auto machine = load_document(doc);
  const auto& division = range_named(machine, "costs_cycles.owner_division");
  EXPECT_TRUE(division.stretched);
  EXPECT_DOUBLE_EQ(division.low, 40);
  EXPECT_DOUBLE_EQ(division.high, 300);
  const auto said = std::count_if(machine.warnings.begin(), machine.warnings.end(), [](const std::string& w) {
    return w.find("outside the range its source states") != std::string::npos &&
           w.find("costs_cycles.owner_division 300") != std::string::npos;
  });
  EXPECT_EQ(said, 1);
  const auto as_given = load_machine("bgp", default_machine_directories());
  EXPECT_FALSE(range_named(as_given, "costs_cycles.owner_division").stretched);
  EXPECT_TRUE(std::none_of(as_given.warnings.begin(), as_given.warnings.end(), [](const std::string& w) {
    return w.find("outside the range") != std::string::npos;
  }));
}

TEST(InputRanges, AnInputWithNoSourceIsAssumedWithTheDefaultRangeAndSaidSo) {
  auto doc = document_of("bgp");
  doc["sources"].erase("costs_cycles.owner_prediction");
  const auto machine = load_document(doc);
  const auto& prediction = range_named(machine, "costs_cycles.owner_prediction");
  EXPECT_EQ(prediction.kind, InputKind::assumed);
  EXPECT_TRUE(prediction.default_range);
  EXPECT_DOUBLE_EQ(prediction.low, 20 / kDefaultRangeFactor);
  const bool warned = std::any_of(machine.warnings.begin(), machine.warnings.end(), [](const std::string& w) {
    return w.find("no source") != std::string::npos && w.find("costs_cycles.owner_prediction") != std::string::npos;
  });
  EXPECT_TRUE(warned);
}

TEST(InputRanges, TheWrapAroundIsAStructuralUnknownWithBothValues) {
  const auto machine = load_machine("bgp", default_machine_directories());
  const auto& mesh = range_named(machine, "torus.mesh_below_nodes");
  ASSERT_TRUE(mesh.discrete());
  EXPECT_EQ(mesh.values, (std::vector<double>{512, kEveryPartitionMeshes}));
  const auto none_wraps = machine_at(machine, {{"torus.mesh_below_nodes", kEveryPartitionMeshes}});
  EXPECT_TRUE(none_wraps.is_mesh(32768));
  EXPECT_FALSE(machine.is_mesh(32768));
}

// A structural unknown's effect gives the GUPS at the values it names as its
// low and high ends, as a cost's does, whichever of them gives more.
TEST(PredictionInterval, AStructuralUnknownsEndsGiveTheGupsAtTheirOwnValues) {
  const auto machine = load_machine("bgp", default_machine_directories());
  ModelOptions options;
  options.algorithm = Algorithm::multicore;
  const auto shape = machine.shape_for(8192);
  const auto interval = prediction_interval(machine, shape, options, 0);
  const auto mesh = std::find_if(interval.inputs.begin(), interval.inputs.end(),
                                 [](const InputEffect& e) { return e.range.field == "torus.mesh_below_nodes"; });
  ASSERT_NE(mesh, interval.inputs.end());
  const double wrapping = predict(machine_at(machine, {{"torus.mesh_below_nodes", 512}}), shape, options).gups;
  const double meshed =
      predict(machine_at(machine, {{"torus.mesh_below_nodes", kEveryPartitionMeshes}}), shape, options).gups;
  ASSERT_GT(wrapping, meshed);  // a torus of 8,192 nodes carries more than a mesh of it: the network binds
  EXPECT_DOUBLE_EQ(mesh->gups_at_low, wrapping);
  EXPECT_DOUBLE_EQ(mesh->gups_at_high, meshed);
  EXPECT_DOUBLE_EQ(mesh->swing, wrapping - meshed);
}

// The interval's ends are the least and most GUPS over every corner of the
// ranges, and no point inside them falls outside.
void expect_ends_bound_the_grid(const Machine& machine, std::uint64_t nodes, Algorithm algorithm) {
  ModelOptions options;
  options.algorithm = algorithm;
  const auto shape = machine.shape_for(nodes);
  const auto interval = prediction_interval(machine, shape, options, 0);
  std::vector<const InputRange*> ranged;
  for (const auto& range : machine.ranges) {
    if (range.ranged()) ranged.push_back(&range);
  }
  ASSERT_LE(ranged.size(), 20u);
  double least = INFINITY, most = -INFINITY;
  // Every corner: discrete inputs at their least and greatest value.
  for (std::uint64_t corner = 0; corner < (1ull << ranged.size()); ++corner) {
    std::vector<std::pair<std::string, double>> inputs;
    for (std::size_t i = 0; i < ranged.size(); ++i) {
      const auto& r = *ranged[i];
      const bool high = (corner >> i) & 1;
      inputs.emplace_back(r.field, r.discrete() ? (high ? r.values.back() : r.values.front()) : (high ? r.high : r.low));
    }
    const double g = predict(machine_at(machine, inputs), shape, options).gups;
    least = std::min(least, g);
    most = std::max(most, g);
  }
  EXPECT_NEAR(interval.low.prediction.gups, least, 1e-9 * least) << nodes;
  EXPECT_NEAR(interval.high.prediction.gups, most, 1e-9 * most) << nodes;
  std::mt19937_64 random(7);
  for (int draw = 0; draw < 200; ++draw) {
    std::vector<std::pair<std::string, double>> inputs;
    for (const auto* r : ranged) {
      const double u = std::uniform_real_distribution<double>(0, 1)(random);
      inputs.emplace_back(r->field, r->discrete() ? r->values[static_cast<std::size_t>(u * r->values.size())]
                                                  : r->low + u * (r->high - r->low));
    }
    const double g = predict(machine_at(machine, inputs), shape, options).gups;
    EXPECT_GE(g, interval.low.prediction.gups * (1 - 1e-9));
    EXPECT_LE(g, interval.high.prediction.gups * (1 + 1e-9));
  }
}

TEST(PredictionInterval, EndsAreTheExtremesOfEveryCornerOfTheRanges) {
  auto machine = load_machine("bgp", default_machine_directories());
  // Inputs the bounds do not use stay at their values, so that the corners stay few.
  for (const char* unused : {"torus.link_latency_s", "costs_cycles.loop_overhead", "costs_cycles.owner_division",
                             "costs_cycles.owner_prediction", "costs_cycles.receive_call", "costs_cycles.routing_hop",
                             "costs_cycles.message_overhead", "costs_cycles.update"}) {
    auto& range = const_cast<InputRange&>(range_named(machine, unused));
    range.low = range.high = range.value;
  }
  expect_ends_bound_the_grid(machine, 64, Algorithm::multicore);
  expect_ends_bound_the_grid(machine, 2048, Algorithm::multicore);  // where the wrap-around moves the network bound
}

TEST(PredictionInterval, CentralIntervalLiesInsideTheExactOneAndTheSharesSumToOne) {
  const auto machine = load_machine("bgq", default_machine_directories());
  ModelOptions options;
  const auto interval = prediction_interval(machine, machine.shape_for(4096), options, 200);
  EXPECT_LE(interval.low.prediction.gups, interval.central_low);
  EXPECT_LT(interval.central_low, interval.gups);
  EXPECT_LT(interval.gups, interval.central_high);
  EXPECT_LE(interval.central_high, interval.high.prediction.gups);
  double total = 0;
  for (const auto& effect : interval.inputs) total += effect.share;
  EXPECT_NEAR(total, 1, 1e-9);
  EXPECT_GE(interval.inputs.front().share, interval.inputs.back().share);
}

}  // namespace
}  // namespace gups::model
