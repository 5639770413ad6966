// Machine files are checked on load: every error names the file's field.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "models/src/machine.hpp"
#include "tests/unit/machine_document.hpp"

namespace gups::model {
namespace {

using namespace gups::model::testing;

nlohmann::json bgp_document() { return machine_document("bgp"); }

TEST(MachineFile, BgpLoadsWithThePapersFigures) {
  const auto m = load_machine("bgp", default_machine_directories());
  EXPECT_EQ(m.name, "bgp");
  EXPECT_EQ(m.clock_hz, 850e6);
  EXPECT_EQ(m.cores_per_node, 4u);
  EXPECT_EQ(m.link_bandwidth, 425e6);
  EXPECT_EQ(m.packet.max_bytes, 256u);
  EXPECT_EQ(m.costs.receive_call_batched, 330);
  EXPECT_EQ(m.costs.core_overhead.at(3), 41.5);
  EXPECT_EQ(m.reference_bucket_sizes.at(64), 29u);
  EXPECT_EQ(m.reference_gups.at("multicore_bound").at(32768), 164.6);
  EXPECT_FALSE(m.sources.at("costs_cycles.update").text.empty());
  const auto bgl = load_machine("bgl", default_machine_directories());
  EXPECT_EQ(bgl.cores_per_node, 2u);
}

// References belong to the machine they were measured on: a copy with other
// cores or links (or another name) keeps none of them and says which fields
// differ; one without references_of keeps none either.
TEST(MachineFile, ReferencesOfAnotherMachineAreLeftOutWithAWarning) {
  EXPECT_TRUE(load_machine("bgp", default_machine_directories()).warnings.empty());
  auto copy = bgp_document();
  copy["cores_per_node"] = 8;
  copy["costs_cycles"]["core_overhead"] = 41.5;
  copy["torus"]["link_bandwidth_bytes_per_s"] = 850e6;
  const auto copied = load_document(copy);
  EXPECT_TRUE(copied.reference_gups.empty());
  EXPECT_TRUE(copied.reference_bucket_sizes.empty());
  ASSERT_EQ(copied.warnings.size(), 1u);
  EXPECT_NE(copied.warnings[0].find("cores_per_node, link_bandwidth_bytes_per_s differ"), std::string::npos)
      << copied.warnings[0];
  EXPECT_EQ(copied.warnings[0].find("clock_hz"), std::string::npos) << copied.warnings[0];
  auto renamed = bgp_document();
  renamed["name"] = "mine";
  EXPECT_NE(load_document(renamed).warnings.at(0).find("of bgp, and its name differs"), std::string::npos);
  auto unmarked = bgp_document();
  unmarked.erase("references_of");
  EXPECT_TRUE(load_document(unmarked).reference_gups.empty());
  // Other links leave the node's bucket sizes the same machine's: kept; the GUPS measured are not.
  auto slower_links = bgp_document();
  slower_links["torus"]["link_bandwidth_bytes_per_s"] = 212.5e6;
  const auto linked = load_document(slower_links);
  EXPECT_EQ(linked.reference_bucket_sizes.at(64), 29u);
  EXPECT_TRUE(linked.reference_gups.empty());
  ASSERT_EQ(linked.warnings.size(), 1u);
  EXPECT_NE(linked.warnings[0].find("reference_bucket_sizes, the node's, are kept"), std::string::npos)
      << linked.warnings[0];
  // The costs are the model's inputs, varied on purpose: a changed cost keeps the references.
  auto cheaper = bgp_document();
  cheaper["costs_cycles"]["update"] = 45;
  EXPECT_EQ(load_document(cheaper).reference_bucket_sizes.at(64), 29u);
}

// An optional field misspelt is named as unknown, with the right name, not as a required one missing.
TEST(MachineFile, AMeshSizeNoPartitionOfTheFileNamesIsFlagged) {
  // K's "only the full machine wraps" (82,944) kept in a copy whose full machine is larger.
  auto copy = machine_document("k");
  copy["name"] = "k-larger";
  copy["torus"]["partitions"].erase("82944");
  copy["torus"]["partitions"]["158976"] = "24x23x24x2x3x2";
  const auto copied = load_document(copy);
  const auto flagged = std::find_if(copied.warnings.begin(), copied.warnings.end(), [](const std::string& w) {
    return w.find("torus.mesh_below_nodes names 82944 node(s), no partition this file lists") != std::string::npos;
  });
  EXPECT_NE(flagged, copied.warnings.end());
  EXPECT_TRUE(load_machine("k", default_machine_directories()).warnings.empty());
}

TEST(MachineFile, AMisspeltOptionalFieldIsUnknownNotMissing) {
  auto document = bgp_document();
  document["torus"]["mesh_bellow_nodes"] = document["torus"]["mesh_below_nodes"];
  document["torus"].erase("mesh_below_nodes");
  const auto error = load_error(document);
  EXPECT_NE(error.find("field 'torus.mesh_bellow_nodes' is not a known field (did you mean 'torus.mesh_below_nodes'?)"),
            std::string::npos)
      << error;
  document["torus"].erase("mesh_bellow_nodes");
  EXPECT_EQ(load_document(document).torus.mesh_below_nodes, 0u);
}

// One definition: what the writer makes is the file, field for field, and
// reads back as the same machine.
TEST(MachineFile, WrittenDocumentIsTheFileAndReadsBack) {
  for (const auto* name : {"bgp", "bgl", "bgq", "fattree", "dragonfly"}) {
    const auto machine = load_machine(name, default_machine_directories());
    std::ifstream in(machine.path);
    const auto file = nlohmann::json::parse(in);
    const auto written = nlohmann::json::parse(to_json(machine).dump());
    EXPECT_EQ(written, file) << name << ": " << nlohmann::json::diff(file, written).dump();
    EXPECT_EQ(load_error(written), "") << name;
  }
  // A change to a field shows in the document.
  auto machine = load_machine("bgp", default_machine_directories());
  machine.costs.core_overhead.at(2) = 1.5;
  EXPECT_EQ(to_json(machine)["costs_cycles"]["core_overhead"][2], 1.5);
}

// The all-cores update figures are optional: absent, the one-core ones
// stand and the writer leaves them out; present, they read back.
TEST(MachineFile, AllCoresUpdateFiguresAreOptional) {
  const auto bgp = load_machine("bgp", default_machine_directories());
  EXPECT_EQ(bgp.costs.update_all_cores, bgp.costs.update);
  EXPECT_EQ(bgp.costs.update_streamed_all_cores, bgp.costs.update_streamed);
  EXPECT_FALSE(to_json(bgp)["costs_cycles"].contains("update_all_cores"));
  auto document = bgp_document();
  document["costs_cycles"]["update_all_cores"] = 250.5;
  document["costs_cycles"]["update_streamed_all_cores"] = 90;
  const auto machine = load_document(document);
  EXPECT_EQ(machine.costs.update_all_cores, 250.5);
  EXPECT_EQ(machine.costs.update_streamed_all_cores, 90);
  EXPECT_EQ(to_json(machine)["costs_cycles"]["update_all_cores"], 250.5);
  document["costs_cycles"]["update_all_cores"] = -1;
  EXPECT_NE(load_error(document).find("costs_cycles.update_all_cores"), std::string::npos);
}

TEST(MachineFile, RoutingHopWithoutCallsDefaultsToMessageOverhead) {
  // Blue Gene's message_overhead is the 162-cycle hop less its calls: the figure a routed hop costs besides them.
  const auto bgp = load_machine("bgp", default_machine_directories());
  EXPECT_EQ(bgp.costs.routing_hop_without_calls, bgp.costs.message_overhead);
  EXPECT_FALSE(to_json(bgp)["costs_cycles"].contains("routing_hop_without_calls"));
  auto document = bgp_document();
  document["costs_cycles"]["routing_hop_without_calls"] = 30.5;
  const auto machine = load_document(document);
  EXPECT_EQ(machine.costs.routing_hop_without_calls, 30.5);
  EXPECT_EQ(to_json(machine)["costs_cycles"]["routing_hop_without_calls"], 30.5);
  document["costs_cycles"]["routing_hop_without_calls"] = -1;
  EXPECT_NE(load_error(document).find("costs_cycles.routing_hop_without_calls"), std::string::npos);
}

TEST(MachineFile, CostSpreadIsOptionalNamedAndReadBack) {
  const auto bgp = load_machine("bgp", default_machine_directories());
  EXPECT_TRUE(bgp.cost_spread.empty());
  EXPECT_FALSE(to_json(bgp).contains("costs_cycles_spread"));
  auto document = bgp_document();
  document["costs_cycles_spread"] = {{"update", 0.25}, {"core_overhead", 0.5}};
  const auto machine = load_document(document);
  EXPECT_EQ(machine.cost_spread.at("update"), 0.25);
  EXPECT_EQ(to_json(machine)["costs_cycles_spread"]["core_overhead"], 0.5);
  // Each named cost raised by its spread, every core's overhead alike, the others kept.
  const auto typical = with_spread(machine.costs, machine.cost_spread);
  EXPECT_DOUBLE_EQ(typical.update, 1.25 * machine.costs.update);
  EXPECT_DOUBLE_EQ(typical.core_overhead.back(), 1.5 * machine.costs.core_overhead.back());
  EXPECT_DOUBLE_EQ(typical.generate, machine.costs.generate);
  EXPECT_DOUBLE_EQ(cost_named(typical, "core_overhead"),
                   1.5 * *std::max_element(machine.costs.core_overhead.begin(), machine.costs.core_overhead.end()));
  document["costs_cycles_spread"] = {{"updates", 0.1}};
  EXPECT_NE(load_error(document).find("'costs_cycles_spread.updates' is not a cost"), std::string::npos)
      << load_error(document);
  document["costs_cycles_spread"] = {{"update", -0.1}};
  EXPECT_NE(load_error(document).find("costs_cycles_spread.update"), std::string::npos);
}

TEST(MachineFile, MissingFieldIsNamed) {
  auto doc = bgp_document();
  doc.erase("clock_hz");
  EXPECT_NE(load_error(doc).find("field 'clock_hz' is missing"), std::string::npos) << load_error(doc);
}

TEST(MachineFile, EveryProblemOfAFileIsNamedInOneRun) {
  auto doc = bgp_document();
  doc.erase("clock_hz");
  doc["cores_per_node"] = "four";
  doc["costs_cycles"]["send_call"] = -1;
  doc["sources"]["costs_cycles.update"] = {{"kind", "assumed"}, {"source", "a guess"}};
  const auto error = load_error(doc);
  EXPECT_NE(error.find("4 problems:"), std::string::npos) << error;
  for (const char* field : {"'clock_hz' is missing", "'cores_per_node' must be", "'costs_cycles.send_call' must not",
                            "'sources.costs_cycles.update' is assumed and gives no range"}) {
    EXPECT_NE(error.find(field), std::string::npos) << field << " in " << error;
  }
}

TEST(MachineFile, LeftOutCostsTakeDefaultsNamedAsAssumedWithARange) {
  auto doc = bgp_document();
  doc["costs_cycles"].erase("update");
  doc["sources"].erase("costs_cycles.update");
  doc["memory_latency_s"] = 1e-7;
  const auto machine = load_document(doc);
  EXPECT_DOUBLE_EQ(machine.costs.update, 85);  // 100 ns at 850 MHz
  const auto range = std::find_if(machine.ranges.begin(), machine.ranges.end(),
                                  [](const InputRange& r) { return r.field == "costs_cycles.update"; });
  ASSERT_NE(range, machine.ranges.end());
  EXPECT_TRUE(range->defaulted);
  EXPECT_EQ(range->kind, InputKind::assumed);
  EXPECT_DOUBLE_EQ(range->low, 42.5);
  EXPECT_DOUBLE_EQ(range->high, 170);
  EXPECT_EQ(to_json(machine)["costs_cycles"].count("update"), 0u);  // written as it was read: left out
}

TEST(MachineFile, MistypedFieldIsNamedWithASuggestion) {
  auto doc = bgp_document();
  doc["costs_cycles"]["send_cal"] = doc["costs_cycles"]["send_call"];
  doc["costs_cycles"].erase("send_call");
  const auto error = load_error(doc);
  EXPECT_NE(error.find("costs_cycles.send_call"), std::string::npos) << error;
  doc["costs_cycles"]["send_call"] = 150;
  const auto unknown = load_error(doc);
  EXPECT_NE(unknown.find("'costs_cycles.send_cal' is not a known field (did you mean 'costs_cycles.send_call'?)"),
            std::string::npos)
      << unknown;
}

TEST(MachineFile, NegativeCostAndWrongTypesAreRejected) {
  auto doc = bgp_document();
  doc["costs_cycles"]["receive_call"] = -600;
  EXPECT_NE(load_error(doc).find("'costs_cycles.receive_call' must not be negative"), std::string::npos);
  doc = bgp_document();
  doc["clock_hz"] = "850 MHz";
  EXPECT_NE(load_error(doc).find("'clock_hz' must be a number"), std::string::npos);
  doc = bgp_document();
  doc["costs_cycles"]["core_overhead"] = nlohmann::json::array();
  EXPECT_NE(load_error(doc).find("core_overhead' must give one number for every core, or list"), std::string::npos);
  doc = bgp_document();
  doc["role_plan"] = "2xX/Y+1";
  EXPECT_NE(load_error(doc).find("'role_plan'"), std::string::npos);
  doc = bgp_document();
  doc["costs_cycles"]["core_overhead"][1] = -1;
  EXPECT_NE(load_error(doc).find("core_overhead[1]"), std::string::npos);
  doc = bgp_document();
  doc["reference_bucket_sizes"]["sixty-four"] = 29;
  EXPECT_NE(load_error(doc).find("reference_bucket_sizes.sixty-four' must be keyed by a node count"),
            std::string::npos);
  doc = bgp_document();
  doc["schema"] = "torus-gups/machine/0";
  EXPECT_NE(load_error(doc).find("'schema'"), std::string::npos);
  EXPECT_EQ(load_error(bgp_document()), "");
}

// Each network level's parameters are kept as the file gives them (the level
// checks them), in an object of objects.
TEST(MachineFile, NetworkLevelParametersAreObjectsKeptAsGiven) {
  const auto m = load_machine("bgp", default_machine_directories());
  EXPECT_EQ(m.network_levels.at("packet").at("routing"), "adaptive");
  EXPECT_FALSE(m.sources.at("network_levels.packet.channel_buffer_chunks").text.empty());
  auto doc = bgp_document();
  doc["network_levels"] = 3;
  EXPECT_NE(load_error(doc).find("'network_levels' must be an object"), std::string::npos);
  doc = bgp_document();
  doc["network_levels"]["packet"] = "fast";
  EXPECT_NE(load_error(doc).find("'network_levels.packet' must be an object"), std::string::npos);
  doc = bgp_document();
  doc.erase("network_levels");
  EXPECT_TRUE(load_document(doc).network_levels.empty());
  EXPECT_FALSE(to_json(load_document(doc)).contains("network_levels"));
}

// A machine's listed partitions give the shape of their node counts; the
// balanced rule covers the others, or all of them when asked.
TEST(MachineFile, ListedPartitionsGiveTheirShapes) {
  auto m = load_machine("bgp", default_machine_directories());
  EXPECT_EQ(m.shape_for(4096).to_string(), "8x16x32");
  EXPECT_EQ(m.shape_rule_for(4096), "partition");
  EXPECT_EQ(m.shape_for(256).to_string(), "4x8x8");  // not listed: balanced
  EXPECT_EQ(m.shape_rule_for(256), "balanced");
  m.balanced_shapes = true;
  EXPECT_EQ(m.shape_for(4096).to_string(), "16x16x16");
  EXPECT_EQ(load_machine("bgl", default_machine_directories()).shape_for(65536).to_string(), "64x32x32");
  auto doc = bgp_document();
  doc["torus"]["partitions"]["4096"] = "8x8x32";
  EXPECT_NE(load_error(doc).find("'torus.partitions.4096' is 8x8x32: 2048 nodes"), std::string::npos) << load_error(doc);
  doc = bgp_document();
  doc["torus"]["partitions"]["many"] = "8x8x32";
  EXPECT_NE(load_error(doc).find("'torus.partitions.many' must be keyed by a node count"), std::string::npos);
  doc = bgp_document();
  doc["torus"]["partitions"]["256"] = "256x1x1";
  EXPECT_NE(load_error(doc).find("longer than torus.max_side"), std::string::npos);
  doc = bgp_document();
  doc["torus"]["partitions"]["64"] = "8x8";
  EXPECT_NE(load_error(doc).find("in 2 dimensions, not 64 in 3"), std::string::npos) << load_error(doc);
  doc = bgp_document();
  doc["torus"]["partitions"]["64"] = "4xx4";
  EXPECT_NE(load_error(doc).find("'torus.partitions.64'"), std::string::npos) << load_error(doc);
}

TEST(MachineFile, UnknownMachineListsTheKnownOnes) {
  try {
    load_machine("bgz", default_machine_directories());
    FAIL() << "bgz loaded";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown machine 'bgz' (known: bgl, bgp, bgq, dragonfly, fattree"),
              std::string::npos)
        << e.what();
  }
}

TEST(MachineFile, NodeCountsTheShapeRuleCannotMapAreRefused) {
  const auto m = load_machine("bgp", default_machine_directories());
  EXPECT_EQ(m.shape_for(512).to_string(), "8x8x8");
  EXPECT_EQ(m.shape_for(96).to_string(), "4x4x6");
  try {
    m.shape_for(131);
    FAIL() << "131 nodes mapped";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("131 nodes cannot be mapped"), std::string::npos) << e.what();
  }
  EXPECT_THROW(m.shape_for(0), std::invalid_argument);
}

TEST(MachineFile, DataAccessCyclesAreCheckedFieldByField) {
  auto document = bgp_document();
  document["data_access_cycles"]["wrod"] = 2;
  EXPECT_NE(load_error(document).find("data_access_cycles.wrod"), std::string::npos) << load_error(document);
  document = bgp_document();
  document["data_access_cycles"]["poll"] = -1;
  EXPECT_NE(load_error(document).find("data_access_cycles.poll"), std::string::npos) << load_error(document);
  document = bgp_document();
  document.erase("data_access_cycles");
  EXPECT_FALSE(load_document(document).data_access.has_value());
}

}  // namespace
}  // namespace gups::model
