#include "kernel/core/packet_format.hpp"

#include <gtest/gtest.h>

#include "kernel/core/operation_charges.hpp"

namespace gups {
namespace {

constexpr PacketFormat kBlueGene{256, 32, 16, 14, 8};

TEST(PacketFormat, WireBytesCountHeadersGranularityAcksAndExtraPackets) {
  EXPECT_EQ(message_wire_bytes(kBlueGene, 0), 32u + 14);  // a "done": one packet of header
  EXPECT_EQ(message_wire_bytes(kBlueGene, 1), 32u + 14);
  EXPECT_EQ(message_wire_bytes(kBlueGene, 2), 32u + 14);
  EXPECT_EQ(message_wire_bytes(kBlueGene, 3), 64u + 14);
  EXPECT_EQ(message_wire_bytes(kBlueGene, 30), 256u + 14);
  EXPECT_EQ(message_wire_bytes(kBlueGene, 31), 256u + 14 + 32 + 14);
  EXPECT_EQ(message_packets(kBlueGene, 0), 1u);
  EXPECT_EQ(message_packets(kBlueGene, 30), 1u);
  EXPECT_EQ(message_packets(kBlueGene, 31), 2u);
  EXPECT_EQ(message_packets(kBlueGene, 61), 3u);
}

// The paper's figures: 600 cycles for a call taking one packet, 330 per
// packet for a call taking four: 360 per call and 240 per packet.
OperationCharges batched_receives() {
  OperationCharges charges;
  charges.clock_hz = 1e9;
  charges.packet = kBlueGene;
  charges.mechanisms.receive_batches = true;
  charges.batch_packets = 4;
  charges.receive_call_overhead = 360;
  charges.receive_per_packet = 240;
  return charges;
}

TEST(ReceiveCalls, AMessageThatFindsTheCoreIdleNeedsACallOfItsOwn) {
  const auto charges = batched_receives();
  ReceiveCalls calls;
  // Each arrives after the core's work and the call before it ended.
  EXPECT_DOUBLE_EQ(calls.take(charges, 1.0, 0.5, 1), 600);
  EXPECT_DOUBLE_EQ(calls.take(charges, 2.0, 1.5, 1), 600);
  EXPECT_DOUBLE_EQ(calls.take(charges, 3.0, 2.5, 2), 360 + 2 * 240);
  EXPECT_EQ(calls.calls(), 3u);
  EXPECT_EQ(calls.packets(), 4u);
}

TEST(ReceiveCalls, MessagesWaitingForABusyCoreShareACallUpToTheBatch) {
  const auto charges = batched_receives();
  ReceiveCalls calls;
  // The core is busy until t = 10; five one-packet messages came in before.
  double cycles = 0;
  for (int i = 0; i < 4; ++i) cycles += calls.take(charges, 1.0 + i, 10.0, 1);
  EXPECT_DOUBLE_EQ(cycles, 4 * 330);
  EXPECT_EQ(calls.calls(), 1u);
  EXPECT_DOUBLE_EQ(calls.take(charges, 5.0, 10.0, 1), 600);  // the batch was full
  EXPECT_EQ(calls.calls(), 2u);
  // One that arrives after that call was made is not in it.
  EXPECT_DOUBLE_EQ(calls.take(charges, 10.5, 10.0, 1), 600);
  EXPECT_EQ(calls.calls(), 3u);
}

TEST(ReceiveCalls, AMessageLargerThanTheRoomLeftOpensTheNextCall) {
  const auto charges = batched_receives();
  ReceiveCalls calls;
  EXPECT_DOUBLE_EQ(calls.take(charges, 1.0, 10.0, 3), 360 + 3 * 240);
  EXPECT_DOUBLE_EQ(calls.take(charges, 2.0, 10.0, 2), 240 + 360 + 240);
  EXPECT_EQ(calls.calls(), 2u);
  EXPECT_EQ(calls.packets(), 5u);
}

}  // namespace
}  // namespace gups
