// The message layer: per-call cycle costs derived from LogGP figures, a file
// giving both refused, and the layer's figures carried as inputs with ranges.
#include "models/src/message_layer.hpp"

#include <gtest/gtest.h>

#include <string>

#include "models/src/bounds.hpp"
#include "models/src/loggp_fit.hpp"
#include "models/src/machine_schema.hpp"
#include "models/src/prediction_interval.hpp"
#include "tests/unit/machine_document.hpp"
#include "tests/unit/shipped_machines.hpp"

namespace gups::model {
namespace {

using testing::load_document;
using testing::load_error;
using testing::machine_document;

MessageLayer worked_layer() {
  MessageLayer layer;
  layer.L = 2e-6;
  layer.o_send = 1e-6;
  layer.o_recv = 2e-6;
  layer.g = 0.5e-6;
  layer.G = 1e-9;
  layer.O = 1e-9;
  layer.S = 4096;
  layer.processes_per_node = 2;
  return layer;
}

// By hand, at 1 GHz with 256-byte packets of a 16-byte header (240 carried)
// and calls of 4 packets: send 1000, receive 2000, batched (2000 + 3 x 240) / 4
// = 680 a packet, 2 / 0.5 us = 4e6 packets a second, rendezvous 1000 + 2000.
TEST(MessageLayer, DerivesTheCallCostsByItsFormulas) {
  PacketFormat packet;
  packet.max_bytes = 256;
  packet.header_bytes = 16;
  const auto costs = derive_message_costs(worked_layer(), 1e9, packet, 4);
  EXPECT_NEAR(costs.send_call, 1000, 1e-9);
  EXPECT_NEAR(costs.receive_call, 2000, 1e-9);
  EXPECT_NEAR(costs.receive_call_batched, 680, 1e-9);
  EXPECT_NEAR(costs.packets_per_s, 4e6, 1e-3);
  EXPECT_NEAR(costs.rendezvous_cycles, 3000, 1e-9);
  auto without_o = worked_layer();
  without_o.O = 0;  // not given: a packet of a batch costs what a call of one does
  EXPECT_NEAR(derive_message_costs(without_o, 1e9, packet, 4).receive_call_batched, 2000, 1e-9);
}

nlohmann::json layer_json() {
  return {{"L", 2e-6}, {"o_send", 1e-6}, {"o_recv", 2e-6}, {"g", 0.5e-6}, {"G", 1e-9}, {"S", 4096},
          {"processes_per_node", 1}};
}

// Blue Gene/P's file with its call costs replaced by a layer.
nlohmann::json bgp_with_layer(const nlohmann::json& layer) {
  auto document = machine_document("bgp");
  document["name"] = "bgp-layer";
  for (const char* cost : {"send_call", "receive_call", "receive_call_batched", "routing_hop"}) {
    document["costs_cycles"].erase(cost);
    document["sources"].erase(std::string("costs_cycles.") + cost);
  }
  document["message_layer"] = layer;
  return document;
}

TEST(MessageLayer, AFileWithALayerTakesItsCallCostsFromIt) {
  const auto machine = load_document(bgp_with_layer(layer_json()));
  ASSERT_TRUE(machine.message_layer);
  EXPECT_NEAR(machine.costs.send_call, 1e-6 * machine.clock_hz, 1e-9);
  EXPECT_NEAR(machine.costs.receive_call, 2e-6 * machine.clock_hz, 1e-9);
  EXPECT_NEAR(machine.costs.receive_call_batched, machine.costs.receive_call, 1e-9);
  // routed's hop: its own work plus its share of a bucket's calls, not a routing_hop of the file's.
  ModelOptions routed;
  routed.algorithm = Algorithm::routed;
  const auto p = predict(machine, TorusShape({8, 8, 8}), routed);
  const auto& c = machine.costs;
  EXPECT_GT(p.send_cycles, 0);
  EXPECT_NEAR(p.cpu_cycles_per_update,
              c.generate + p.update_cycles + c.loop_overhead +
                  p.expected_hops * (c.routing_hop_without_calls + p.send_cycles + p.receive_cycles) +
                  (1 + p.expected_hops) * p.owner_cycles,
              1e-9);
  // Written back: the layer, and none of the costs it derives.
  const auto written = nlohmann::json::parse(to_json(machine).dump());
  EXPECT_EQ(written["message_layer"], layer_json());
  EXPECT_FALSE(written["costs_cycles"].contains("send_call"));
  EXPECT_FALSE(written["costs_cycles"].contains("routing_hop"));
}

TEST(MessageLayer, AFileGivingACostAndTheLayerItDerivesItFromIsRefused) {
  auto both = machine_document("bgp");
  both["message_layer"] = layer_json();
  const auto error = load_error(both);
  EXPECT_NE(error.find("costs_cycles.send_call"), std::string::npos) << error;
  EXPECT_NE(error.find("message_layer"), std::string::npos) << error;
  auto layer = layer_json();
  layer["o_send"] = 0;
  EXPECT_NE(load_error(bgp_with_layer(layer)).find("o_send"), std::string::npos);
  layer = layer_json();
  layer.erase("g");
  EXPECT_NE(load_error(bgp_with_layer(layer)).find("message_layer.g"), std::string::npos);
}

// A published o_send of stated precision is an input whose range moves the
// derived send call and so every interval that charges it.
TEST(MessageLayer, ItsFiguresAreInputsWithTheirKindsAndRanges) {
  auto document = bgp_with_layer(layer_json());
  document["sources"]["message_layer.o_send"] = {
      {"kind", "published"}, {"source", "a test's figure, 1.0 us +-20%"}, {"precision", 0.2}};
  const auto machine = load_document(document);
  const InputRange* o_send = nullptr;
  for (const auto& r : machine.ranges) {
    if (r.field == "message_layer.o_send") o_send = &r;
  }
  ASSERT_NE(o_send, nullptr);
  EXPECT_EQ(o_send->kind, InputKind::published);
  EXPECT_NEAR(o_send->low, 0.8e-6, 1e-15);
  EXPECT_NEAR(o_send->high, 1.2e-6, 1e-15);
  const auto* field = input_field("message_layer.o_send", machine);
  ASSERT_NE(field, nullptr);
  EXPECT_NEAR(with_input(machine, *field, 2e-6).costs.send_call, 2e-6 * machine.clock_hz, 1e-9);
  for (const auto& r : machine.ranges) EXPECT_NE(r.field, "costs_cycles.send_call");  // derived, no input

  ModelOptions options;
  options.algorithm = Algorithm::routed;
  const auto interval = prediction_interval(machine, TorusShape({8, 8, 8}), options, 0);
  bool ranked = false;
  for (const auto& effect : interval.inputs) ranked = ranked || (effect.range.field == "message_layer.o_send" && effect.swing > 0);
  EXPECT_TRUE(ranked);
}

// A message above S pays a handshake's extra send and receive on each side.
TEST(MessageLayer, AMessageAboveTheRendezvousSizePaysTheHandshake) {
  auto eager = layer_json();
  eager.erase("S");
  auto rendezvous = layer_json();
  rendezvous["S"] = 64;
  ModelOptions options;
  options.algorithm = Algorithm::multicore;
  const auto shape = TorusShape({8, 8, 8});
  const auto a = predict(load_document(bgp_with_layer(eager)), shape, options);
  const auto machine = load_document(bgp_with_layer(rendezvous));
  const auto b = predict(machine, shape, options);
  ASSERT_GT(b.bucket_size * machine.packet.update_bytes, 64u);
  EXPECT_NEAR(b.send_cycles - a.send_cycles, (1e-6 + 2e-6) * machine.clock_hz / b.bucket_size, 1e-6);
  EXPECT_LT(b.gups, a.gups);
}

// Blue Gene/P's cycle costs read as LogGP: o_send and o_recv through the
// formulas backwards, O from what a batched packet saves.
TEST(MessageLayer, CycleCostsReadBackAsTheLayerTheyAmountTo) {
  const auto bgp = testing::bgp();
  const auto layer = message_layer_of_costs(bgp);
  EXPECT_NEAR(layer.o_send * bgp.clock_hz, bgp.costs.send_call, 1e-9);
  EXPECT_NEAR(layer.o_recv * bgp.clock_hz, bgp.costs.receive_call, 1e-9);
  const auto again = derive_message_costs(layer, bgp.clock_hz, bgp.packet, bgp.costs.receive_batch_packets);
  EXPECT_NEAR(again.receive_call_batched, bgp.costs.receive_call_batched, 1e-6);
}

}  // namespace
}  // namespace gups::model

namespace gups::model {
namespace {

// Timings made from a known layer give it back: o as timed, L the ping-pong
// less both o, g and G the slopes of the trains and the long ping-pongs.
TEST(LogGPFit, GivesBackTheLayerSyntheticTimingsWereMadeFrom) {
  const double o_send = 1e-6, o_recv = 2e-6, L = 3e-6, g = 0.5e-6, G = 1e-10;
  LogGPTimings t;
  t.send_call_s = o_send;
  t.receive_call_s = o_recv;
  t.half_round_trip_s = o_send + L + o_recv;
  for (const double n : {1.0, 64.0, 256.0, 1024.0}) t.trains.emplace_back(n, 2 * L + 4 * o_send + (n - 1) * g);
  for (const double bytes : {65536.0, 262144.0, 1048576.0}) t.ping_pongs.emplace_back(bytes, 6e-6 + bytes * G);
  const auto layer = fit_loggp(t);
  EXPECT_NEAR(layer.o_send, o_send, 1e-15);
  EXPECT_NEAR(layer.o_recv, o_recv, 1e-15);
  EXPECT_NEAR(layer.L, L, 1e-15);
  EXPECT_NEAR(layer.g, g, 1e-12);
  EXPECT_NEAR(layer.G, G, 1e-16);
  EXPECT_EQ(layer.O, 0);
  // Overheads longer than the round trip leave no latency, never a negative one.
  t.half_round_trip_s = 2e-6;
  EXPECT_EQ(fit_loggp(t).L, 0);
  // The ping-pong's own small calls, where timed, are what L excludes.
  t.small_calls_s = 0.5e-6;
  EXPECT_NEAR(fit_loggp(t).L, 1.5e-6, 1e-15);
}

TEST(LogGPFit, ALineThroughPointsIsTheirLeastSquaresFit) {
  const auto line = fit_line({1, 2, 3, 4}, {3, 5, 7, 9});
  EXPECT_NEAR(line.intercept, 1, 1e-12);
  EXPECT_NEAR(line.slope, 2, 1e-12);
  EXPECT_NEAR(fit_line({2, 2}, {4, 6}).intercept, 5, 1e-12);  // one x: the mean, no slope
}

}  // namespace
}  // namespace gups::model
