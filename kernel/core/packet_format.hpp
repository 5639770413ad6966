// How a message of updates is cut into torus packets: the one definition
// the analytic model's bytes per update (b) and the simulated messages both
// use, so that the two cannot disagree about what goes on the wire.
#pragma once

#include <array>
#include <cstdint>

namespace gups {

struct PacketFormat {
  unsigned max_bytes = 0;          // largest packet on the wire
  unsigned granularity_bytes = 0;  // packets are whole multiples of this
  unsigned header_bytes = 0;
  unsigned ack_bytes = 0;          // acknowledgement traffic per packet
  unsigned update_bytes = 8;       // one 64-bit update

  unsigned updates_per_packet() const noexcept { return (max_bytes - header_bytes) / update_bytes; }
};

// The fields as files name them (the machine file's "packet", the charges
// file's): every reader and writer walks this one list.
struct PacketField {
  const char* name;
  unsigned PacketFormat::*member;
  bool required;  // else 0 when absent
};
inline constexpr std::array<PacketField, 5> kPacketFields{{
    {"max_bytes", &PacketFormat::max_bytes, true},
    {"granularity_bytes", &PacketFormat::granularity_bytes, true},
    {"header_bytes", &PacketFormat::header_bytes, false},
    {"ack_bytes", &PacketFormat::ack_bytes, false},
    {"update_bytes", &PacketFormat::update_bytes, true},
}};

// Packets of a message of `updates` updates; an empty message ("done") is
// one packet of header.
unsigned message_packets(const PacketFormat& packet, std::uint64_t updates);

// Bytes on the wire for it: each packet rounded up to the granularity, plus
// its acknowledgement.
std::uint64_t message_wire_bytes(const PacketFormat& packet, std::uint64_t updates);

}  // namespace gups
