// The packet level (sim/levels/packet.cpp): its uncontended time is every
// level's, its credits never go negative, no packet is lost or duplicated,
// a ring under full load drains, adaptive routing stays minimal, finite
// buffers push back, and bad parameters are refused with one line.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "sim/levels/network_level.hpp"
#include "sim/levels/packet_network.hpp"
#include "topologies/fat_tree_links.hpp"
#include "topologies/torus_links.hpp"

namespace gups {
namespace {

// 256-byte packets of 32-byte chunks; a link carries 256 bytes a second, so
// a largest packet takes 1 s on it; 0.1 s per hop.
constexpr LinkSpeeds kSpeeds{256.0, 0.1};

LevelParameters parameters(unsigned buffer_chunks = 32, const char* routing = "adaptive", double drain = 1e6,
                           unsigned reception_chunks = 32) {
  return {{"topology", "torus"},
          {"packet", {{"max_bytes", 256}, {"granularity_bytes", 32}}},
          {"routing", routing},
          {"dynamic_channels", 2},
          {"channel_buffer_chunks", buffer_chunks},
          {"injection_fifos", 6},
          {"reception_fifo_chunks", reception_chunks},
          {"reception_bytes_per_s", drain}};
}

std::unique_ptr<PacketNetwork> network(const TorusShape& shape, std::vector<bool> wraps,
                                       const LevelParameters& p = parameters()) {
  return make_packet_network(std::make_shared<TorusLinks>(shape, std::move(wraps)), kSpeeds, PacketParameters::read(p));
}

TEST(PacketLevel, IsRegisteredBesideTheOthers) {
  const auto level = NetworkLevel::named("packet");
  EXPECT_FALSE(level.simgrid_links());
  EXPECT_THROW(level.timing(std::make_shared<TorusLinks>(TorusShape({4}), std::vector<bool>{true}), kSpeeds),
               std::invalid_argument);  // no parameters
  EXPECT_NE(level.timing(std::make_shared<TorusLinks>(TorusShape({4}), std::vector<bool>{true}), kSpeeds, parameters()),
            nullptr);
}

TEST(PacketLevel, AnUncontendedMessageTakesWhatItTakesAtEveryLevel) {
  // 600 bytes: packets of 256, 256 and 88 bytes, back to back; (0,0) -> (3,2).
  const TorusShape shape({8, 8});
  auto packets = network(shape, {true, true});
  auto queue = NetworkLevel::named("queue").timing(std::make_shared<TorusLinks>(shape, std::vector<bool>{true, true}),
                                                   kSpeeds);
  const double expected = 10.0 + 5 * 0.1 + 600.0 / 256.0;
  EXPECT_NEAR(queue->arrival(0, 3 + 2 * 8, 600.0, 10.0), expected, 1e-12);
  EXPECT_NEAR(packets->arrival(0, 3 + 2 * 8, 600.0, 10.0), expected, 1e-12);
  EXPECT_EQ(packets->audit().packets, 3u);
  EXPECT_EQ(packets->audit().hops, 15u);
  EXPECT_EQ(packets->audit().off_route_hops, 0u);  // nothing in the way: dimension order is as early as any
}

// Every node sends `messages` messages of `bytes` to random others, all at
// once; returns the last arrival. Checks that each arrives after its
// uncontended time and that no packet is lost or counted twice.
double burst(PacketNetwork& net, const TorusShape& shape, int messages, double bytes, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::uint64_t> node(0, shape.nodes() - 1);
  const std::uint64_t before = net.audit().packets;
  const auto per_message = static_cast<std::uint64_t>(std::ceil(bytes / 256.0));
  double last = 0;
  std::uint64_t sent = 0;
  for (int m = 0; m < messages; ++m) {
    for (std::uint64_t from = 0; from < shape.nodes(); ++from) {
      std::uint64_t to = node(random);
      if (to == from) to = (to + 1) % shape.nodes();
      const double arrived = net.arrival(from, to, bytes, 0.0);
      EXPECT_TRUE(std::isfinite(arrived));
      EXPECT_GE(arrived, bytes / 256.0);
      last = std::max(last, arrived);
      ++sent;
    }
  }
  EXPECT_EQ(net.audit().packets - before, sent * per_message);
  return last;
}

TEST(PacketLevel, CreditsNeverGoNegativeAndNoPacketIsLostUnderFullLoad) {
  const TorusShape shape({4, 4});
  for (const unsigned depth : {16u, 24u, 64u}) {
    auto net = network(shape, {true, true}, parameters(depth));
    burst(*net, shape, 40, 512.0, depth);
    const auto& audit = net->audit();
    EXPECT_EQ(audit.overfilled, 0u) << depth;
    EXPECT_LE(audit.most_chunks_held, depth) << depth;
    EXPECT_GT(audit.most_chunks_held, 8u) << depth;  // the buffers did fill beyond one packet
  }
}

TEST(PacketLevel, SmallBuffersHoldPacketsUpstream) {
  const TorusShape shape({4, 4});
  auto small = network(shape, {true, true}, parameters(16));
  auto large = network(shape, {true, true}, parameters(1024));
  const double small_last = burst(*small, shape, 40, 512.0, 7);
  const double large_last = burst(*large, shape, 40, 512.0, 7);
  EXPECT_GT(small->audit().held_upstream, 0u);
  EXPECT_GE(small_last, large_last * 0.999);
}

TEST(PacketLevel, ARingUnderFullLoadDrainsOnItsEscapeChannel) {
  // Dimension order only: every packet on the bubble channel of one ring,
  // every node sending 50 largest packets three hops on at once. Each link
  // then carries 150 packets: the last arrives after about 150 s, and not
  // never (no deadlock).
  const TorusShape shape({8});
  auto net = network(shape, {true}, parameters(16, "deterministic"));
  double last = 0;
  for (int m = 0; m < 50; ++m) {
    for (std::uint64_t from = 0; from < 8; ++from) last = std::max(last, net->arrival(from, (from + 3) % 8, 256.0, 0.0));
  }
  EXPECT_TRUE(std::isfinite(last));
  EXPECT_GE(last, 150.0);
  EXPECT_LE(last, 2 * 150.0);
  EXPECT_EQ(net->audit().packets, 400u);
  EXPECT_EQ(net->audit().escape_hops, net->audit().hops);
  EXPECT_EQ(net->audit().off_route_hops, 0u);
  EXPECT_EQ(net->audit().overfilled, 0u);
}

TEST(PacketLevel, AdaptiveRoutingChoosesOnlyAmongMinimalDirections) {
  const TorusShape shape({6, 4, 3});
  auto adaptive = network(shape, {true, true, false});
  burst(*adaptive, shape, 20, 768.0, 11);
  EXPECT_EQ(adaptive->audit().hops, adaptive->audit().shortest_hops);
  EXPECT_GT(adaptive->audit().off_route_hops, 0u);  // it did leave dimension order
  auto deterministic = network(shape, {true, true, false}, parameters(32, "deterministic"));
  burst(*deterministic, shape, 20, 768.0, 11);
  EXPECT_EQ(deterministic->audit().hops, deterministic->audit().shortest_hops);
  EXPECT_EQ(deterministic->audit().off_route_hops, 0u);
}

TEST(PacketLevel, RunsOnToriAndMeshesOfOneToSixDimensions) {
  for (const auto& [sizes, wraps] :
       std::vector<std::pair<std::vector<std::uint32_t>, std::vector<bool>>>{
           {{6}, {true}},
           {{4, 3}, {false, true}},
           {{2, 3, 2, 2, 3}, {true, true, false, true, true}},
           {{2, 2, 3, 2, 2, 3}, {false, true, true, false, true, true}}}) {
    const TorusShape shape(sizes);
    auto net = network(shape, wraps);
    burst(*net, shape, 10, 512.0, 3);
    EXPECT_EQ(net->audit().hops, net->audit().shortest_hops) << shape.to_string();
    EXPECT_EQ(net->audit().overfilled, 0u) << shape.to_string();
  }
}

TEST(PacketLevel, AFullReceptionFifoPushesBackOnPacketsThatOnlyShareItsPath) {
  // A chain of 8: nodes 0, 1 and 2 send 30 packets each to node 7, whose
  // DMA drains a quarter of a link's rate. Their packets back up along the
  // chain and fill its buffers; a packet from 3 to 6, later, waits behind
  // them at the packet level. At the queue level, where links have no
  // buffers to fill, it waits only for the links.
  const TorusShape shape({8});
  auto packets = network(shape, {false}, parameters(16, "adaptive", 64.0, 8));
  auto queue = NetworkLevel::named("queue").timing(std::make_shared<TorusLinks>(shape, std::vector<bool>{false}),
                                                   kSpeeds);
  for (int m = 0; m < 30; ++m) {
    for (std::uint64_t from = 0; from < 3; ++from) {
      packets->arrival(from, 7, 256.0, 0.0);
      queue->arrival(from, 7, 256.0, 0.0);
    }
  }
  const double at_packet = packets->arrival(3, 6, 256.0, 5.0);
  const double at_queue = queue->arrival(3, 6, 256.0, 5.0);
  EXPECT_GT(at_packet, at_queue + 10.0) << at_packet << " vs " << at_queue;
}

TEST(PacketLevel, APacketWaitsBehindTheOneAheadOfItInItsBuffer) {
  // Dimension order on a 4x4 mesh: ten packets from node 1 to node 2 hold
  // link 1 -> 2 for 10 s; a packet from 0 to 3 then waits at node 1 for it.
  // A packet from 0 to 5 comes into the same buffer at node 1 behind it and
  // goes on along Y (1 -> 5), a free link: it still waits until the one
  // ahead has left (head-of-line blocking).
  const TorusShape shape({4, 4});
  auto net = network(shape, {false, false}, parameters(64, "deterministic"));
  EXPECT_NEAR(net->arrival(1, 2, 2560.0, 0.0), 10.1, 1e-9);
  const double ahead = net->arrival(0, 3, 256.0, 0.0);
  EXPECT_GT(ahead, 10.0);
  const double behind = net->arrival(0, 5, 256.0, 0.0);
  EXPECT_GT(behind, ahead - 1.5);  // it left node 1 just after the one ahead did
  // Where it has a buffer of its own (another node's), it is not held.
  EXPECT_LT(net->arrival(4, 5, 256.0, 0.0), 2.0);
}

TEST(PacketLevel, BadParametersAreRefusedWithOneLineNamingTheField) {
  auto refused = [](LevelParameters p, const std::string& field) {
    try {
      PacketParameters::read(p);
      ADD_FAILURE() << "accepted without " << field;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  };
  auto p = parameters();
  p.erase("injection_fifos");
  refused(p, "injection_fifos");
  refused(parameters(15), "channel_buffer_chunks");  // under two largest packets: no bubble
  refused(parameters(32, "sideways"), "routing");
  refused(parameters(32, "adaptive", 0.0), "reception_bytes_per_s");
  refused(parameters(32, "adaptive", 1e6, 4), "reception_fifo_chunks");
  p = parameters();
  p["buffer_chunks"] = 3;
  refused(p, "buffer_chunks");
  // A section left out is named as missing, and every field a section lacks at once.
  refused(LevelParameters::object({{"topology", "torus"}}), "no network_levels.packet section");
  p = parameters();
  p.erase("routing");
  p.erase("reception_bytes_per_s");
  refused(p, "lacks routing, reception_bytes_per_s");
  p = parameters();
  p["topology"] = "fat_tree";
  refused(p, "fat_tree");
  const auto tree = std::make_shared<FatTreeLinks>(FatTreeParameters::parse("2;4,4;1,2;1,2"));
  EXPECT_THROW(make_packet_network(tree, kSpeeds, PacketParameters::read(parameters())), std::invalid_argument);
}

}  // namespace
}  // namespace gups
