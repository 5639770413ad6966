#include "kernel/core/packet_format.hpp"

#include <algorithm>

namespace gups {

unsigned message_packets(const PacketFormat& packet, std::uint64_t updates) {
  const std::uint64_t per_packet = packet.updates_per_packet();
  return static_cast<unsigned>(std::max<std::uint64_t>(1, (updates + per_packet - 1) / per_packet));
}

std::uint64_t message_wire_bytes(const PacketFormat& packet, std::uint64_t updates) {
  const std::uint64_t per_packet = packet.updates_per_packet();
  const std::uint64_t g = packet.granularity_bytes;
  std::uint64_t bytes = 0;
  std::uint64_t left = updates;
  do {
    const std::uint64_t in_packet = std::min(left, per_packet);
    const std::uint64_t raw = packet.header_bytes + in_packet * packet.update_bytes;
    bytes += (raw + g - 1) / g * g + packet.ack_bytes;
    left -= in_packet;
  } while (left > 0);
  return bytes;
}

}  // namespace gups
