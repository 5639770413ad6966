// How a simulated rank's messages are sent, as both s4u message slots read
// it (s4u_message_slots.cpp at flow, timed_message_slots.cpp at the levels
// that time messages themselves).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>

#include "kernel/mpi/message_slots.hpp"

namespace gups {

// A (rank, channel) as one number: both layers' mailboxes or channels are
// looked up by it (channels are 0 or more: the all-to-all probe has one per
// step, as many as ranks).
inline std::uint64_t channel_key(int rank, int channel) {
  return (static_cast<std::uint64_t>(rank) << 32) | static_cast<std::uint32_t>(channel);
}

struct SimulatedSends {
  explicit SimulatedSends(SimulatedMessages simulated)
      : timed_code(simulated.timed_code),
        dma_injection(simulated.mechanisms.dma_injection),
        fifo_messages(dma_injection ? simulated.mechanisms.reception_fifo_messages : 0),
        wire_bytes(std::move(simulated.wire_bytes)),
        from_other_nodes(std::move(simulated.from_other_nodes)) {}

  // A message's simulated size: the machine's wire bytes where they are
  // modelled, else its payload and SMPI's envelope.
  std::uint64_t bytes(std::size_t count, int channel) const {
    const auto wire = wire_bytes ? wire_bytes(count, channel) : std::nullopt;
    return wire.value_or(count * sizeof(std::uint64_t) + kSmpiEnvelopeBytes);
  }

  bool timed_code;         // the s4u calls pause SMPI's timer of the real code
  bool dma_injection;
  unsigned fifo_messages;  // reception FIFO bound; 0: unbounded
  WireBytes wire_bytes;
  std::function<bool(int channel)> from_other_nodes;  // SimulatedMessages::from_other_nodes

  bool only_from_other_nodes(int channel) const { return from_other_nodes && from_other_nodes(channel); }
};

}  // namespace gups
