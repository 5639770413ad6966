// The Apex-Map probe's machine side: its charges from a machine file, the
// charges file the simulated probe reads, and the first-order model.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "kernel/apex_map/charges.hpp"
#include "models/src/apex_map_bound.hpp"
#include "models/src/machine.hpp"
#include "tests/unit/shipped_machines.hpp"
#include "models/src/simulation_charges.hpp"

namespace gups::model {
namespace {

using testing::bgp;

ApexMapModelRequest request_on(const std::string& shape, const std::string& algorithm) {
  ApexMapModelRequest request;
  request.algorithm = algorithm;
  request.shape = TorusShape::parse(shape);
  return request;
}

TEST(ApexMapCharges, FromTheMachinesDataAccessAndCallCycles) {
  const auto machine = bgp();
  ASSERT_TRUE(machine.data_access.has_value());
  const auto charges = access_charges_of(machine);
  EXPECT_EQ(charges.clock_hz, machine.clock_hz);
  EXPECT_EQ(charges.block_start, machine.data_access->block_start);
  EXPECT_EQ(charges.word, machine.data_access->word);
  EXPECT_EQ(charges.poll, machine.data_access->poll);
  EXPECT_EQ(charges.send_call, machine.costs.send_call);
  EXPECT_EQ(charges.receive_call, machine.costs.receive_call);
  EXPECT_DOUBLE_EQ(charges.block_cycles(4), charges.block_start + 4 * charges.word);
}

TEST(ApexMapCharges, AMachineWithoutDataAccessCyclesIsNamed) {
  auto machine = bgp();
  machine.data_access.reset();
  try {
    access_charges_of(machine);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("data_access_cycles"), std::string::npos) << e.what();
  }
}

TEST(ApexMapCharges, TheMachineFileWritesAndReadsThemBack) {
  const auto machine = bgp();
  const auto document = to_json(machine);
  ASSERT_TRUE(document.contains("data_access_cycles"));
  EXPECT_EQ(document["data_access_cycles"]["word"], machine.data_access->word);
}

TEST(ApexMapCharges, TheChargesFileRoundTripsAndRefusesBadFiles) {
  const auto path = std::filesystem::temp_directory_path() / "torus-gups-access-charges-test.json";
  const auto charges = access_charges_of(bgp());
  std::ofstream(path) << access_charges_document("bgp", charges).dump();
  const auto read = read_access_charges(path.string());
  EXPECT_EQ(read.block_start, charges.block_start);
  EXPECT_EQ(read.word, charges.word);
  EXPECT_EQ(read.send_call, charges.send_call);
  EXPECT_EQ(read.receive_call, charges.receive_call);
  EXPECT_EQ(read.poll, charges.poll);
  EXPECT_EQ(read.clock_hz, charges.clock_hz);
  auto bad = access_charges_document("bgp", charges);
  bad["process"]["word"] = -1;
  std::ofstream(path) << bad.dump();
  EXPECT_THROW(read_access_charges(path.string()), std::invalid_argument);
  bad = access_charges_document("bgp", charges);
  bad["schema"] = "torus-gups/charges/1";  // the update algorithms' file
  std::ofstream(path) << bad.dump();
  EXPECT_THROW(read_access_charges(path.string()), std::invalid_argument);
  std::filesystem::remove(path);
  EXPECT_THROW(read_access_charges(path.string()), std::invalid_argument);
}

// Uniform accesses on an 8x8x8 torus travel the torus's mean distance, 2
// hops a dimension, over the remote ones (a process's own are 1 in 512).
TEST(ApexMapModel, UniformAccessesTravelTheTorussMeanDistance) {
  const auto machine = bgp();
  const auto point = apex_map_point(machine, access_charges_of(machine), request_on("8x8x8", "apex-map-mpi"), 1.0, 1);
  EXPECT_NEAR(point.remote_fraction, 511.0 / 512.0, 1e-12);
  EXPECT_NEAR(point.mean_hops, 6.0 * 512 / 511, 0.1);
}

// Local accesses travel less far: the distribution favours the next ranks.
TEST(ApexMapModel, LocalAccessesAreRareAndNear) {
  const auto machine = bgp();
  const auto point =
      apex_map_point(machine, access_charges_of(machine), request_on("8x8x8", "apex-map-mpi"), 0.001, 1);
  EXPECT_NEAR(point.remote_fraction, 1 - std::pow(512.0, -0.001), 1e-12);
  EXPECT_LT(point.mean_hops, 5.0);
  // Nearly every access is a local block: the core binds, at about its cost.
  const auto charges = access_charges_of(machine);
  EXPECT_EQ(point.binds, "core");
  EXPECT_NEAR(point.seconds * charges.clock_hz, charges.block_cycles(1) + charges.poll, 30.0);
}

// Single words are the core's business; long uniform blocks the links'.
TEST(ApexMapModel, TheCoreBindsShortAccessesAndTheLinksLongOnes) {
  const auto machine = bgp();
  const auto charges = access_charges_of(machine);
  const auto request = request_on("8x8x8", "apex-map-mpi");
  const auto small = apex_map_point(machine, charges, request, 1.0, 1);
  const auto large = apex_map_point(machine, charges, request, 1.0, 4096);
  EXPECT_EQ(small.binds, "core");
  EXPECT_EQ(large.binds, "links");
  // Twice the words, about twice the busiest link's time.
  const auto larger = apex_map_point(machine, charges, request, 1.0, 8192);
  EXPECT_NEAR(larger.link_seconds / large.link_seconds, 2.0, 0.02);
  EXPECT_GT(large.mb_per_second_per_process(), small.mb_per_second_per_process());
}

// A one-sided get waits for its round trip: the core's time and the
// latency add, where two-sided hides the latency behind B requests.
TEST(ApexMapModel, OneSidedAddsTheRoundTripTwoSidedHidesIt) {
  const auto machine = bgp();
  const auto charges = access_charges_of(machine);
  const auto one = apex_map_point(machine, charges, request_on("8x8x8", "apex-map-rma"), 1.0, 1);
  EXPECT_EQ(one.binds, "core + latency");
  EXPECT_DOUBLE_EQ(one.seconds, one.core_seconds + one.latency_seconds);
  auto request = request_on("8x8x8", "apex-map-mpi");
  const auto many = apex_map_point(machine, charges, request, 1.0, 1);
  request.receive_buffers = 1;
  const auto single = apex_map_point(machine, charges, request, 1.0, 1);
  EXPECT_NEAR(single.latency_seconds, 32 * many.latency_seconds, 1e-15);
}

// The probe's time is its slowest process's: the one with the most remote
// accesses, the largest of P binomial counts.
TEST(ApexMapModel, TheSlowestProcessHasTheMostRemoteAccesses) {
  EXPECT_NEAR(expected_largest_binomial(64, 0.25, 1), 16.0, 1e-9);  // one process: the mean
  EXPECT_NEAR(expected_largest_binomial(64, 0.0, 512), 0.0, 1e-12);
  EXPECT_NEAR(expected_largest_binomial(64, 1.0, 512), 64.0, 1e-9);
  // Two fair coins: the larger is 1 unless both are 0, so 3/4.
  EXPECT_NEAR(expected_largest_binomial(1, 0.5, 2), 0.75, 1e-12);
  const double few = expected_largest_binomial(64, 0.006, 512);
  EXPECT_GT(few, 2.0);  // the mean is 0.38; among 512 processes some make 3 or 4
  EXPECT_LT(few, 6.0);
  const auto machine = bgp();
  auto request = request_on("8x8x8", "apex-map-rma");
  const auto mean = apex_map_point(machine, access_charges_of(machine), request, 0.001, 16);
  request.indices = 64;
  const auto slowest = apex_map_point(machine, access_charges_of(machine), request, 0.001, 16);
  EXPECT_DOUBLE_EQ(mean.slowest_remote_fraction, mean.remote_fraction);
  EXPECT_NEAR(slowest.slowest_remote_fraction, expected_largest_binomial(64, mean.remote_fraction, 512) / 64, 1e-12);
  EXPECT_GT(slowest.seconds, mean.seconds);
}

// A blocking get's block shares the busiest link of its path with the
// blocks of the other processes' gets: many when every process is in a
// transfer (uniform, long blocks), far fewer when few accesses are remote.
TEST(ApexMapModel, OneSidedBlocksShareTheirPathWithOthersInFlight) {
  const auto machine = bgp();
  const auto charges = access_charges_of(machine);
  const auto request = request_on("8x8x8", "apex-map-rma");
  const auto busy = apex_map_point(machine, charges, request, 1.0, 4096);
  const auto quiet = apex_map_point(machine, charges, request, 0.001, 4096);
  EXPECT_GT(busy.sharing, 2.0);
  EXPECT_LT(busy.sharing, 6.0);
  EXPECT_LT(quiet.sharing, busy.sharing / 2);
  EXPECT_GE(quiet.sharing, 1.0);
  const double transfer = 8.0 * 4096 / machine.link_bandwidth;
  EXPECT_GT(busy.latency_seconds, busy.remote_fraction * transfer * busy.sharing);
  EXPECT_EQ(apex_map_point(machine, charges, request_on("8x8x8", "apex-map-mpi"), 1.0, 4096).sharing, 1.0);
}

TEST(ApexMapModel, RefusesWhatTheProbeRefuses) {
  const auto machine = bgp();
  const auto charges = access_charges_of(machine);
  EXPECT_THROW(apex_map_point(machine, charges, request_on("4x4x4", "apex-map-mpi"), 1.0, 3), std::invalid_argument);
  EXPECT_THROW(apex_map_point(machine, charges, request_on("4x4x4", "apex-map-mpi"), 0.0, 1), std::invalid_argument);
  EXPECT_THROW(apex_map_point(machine, charges, request_on("4x4x4", "direct"), 1.0, 1), std::invalid_argument);
}

}  // namespace
}  // namespace gups::model
