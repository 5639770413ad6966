// The packet level's network (sim/levels/packet.cpp registers it): what its
// unit tests look into besides the arrival times.
#pragma once

#include <cstdint>
#include <memory>

#include "sim/levels/network_level.hpp"

namespace gups {

// The machine file's network_levels.packet, with its packet format.
struct PacketParameters {
  bool adaptive = true;                // minimal adaptive on the dynamic channels, else dimension order only
  unsigned dynamic_channels = 2;       // virtual channels routed adaptively (besides the one escape channel)
  unsigned channel_buffer_chunks = 0;  // each virtual channel's buffer at a router's input
  unsigned injection_fifos = 0;        // a node's hardware injection FIFOs, each draining in order
  unsigned reception_fifo_chunks = 0;  // each incoming direction's reception FIFO at a node
  double reception_bytes_per_s = 0;    // what one node's DMA drains from its reception FIFOs into memory
  unsigned chunk_bytes = 0;            // the machine's packet granularity
  unsigned max_packet_bytes = 0;       // the machine's largest packet
  unsigned ack_bytes = 0;              // the machine's acknowledgement traffic per packet, counted in its wire bytes

  // The chunks a packet of `bytes` on the wire holds in a buffer (its
  // acknowledgement takes none).
  unsigned chunks(double bytes) const noexcept;
  // The most wire bytes one packet stands for: a message's wire bytes are
  // cut into packets of this many.
  double max_wire_bytes() const noexcept { return static_cast<double>(max_packet_bytes) + ack_bytes; }
  unsigned max_chunks() const noexcept { return chunks(max_packet_bytes); }

  // Throws std::invalid_argument, one line naming the field at fault.
  static PacketParameters read(const LevelParameters& parameters);
};

// What the network did, for tests and reports.
struct PacketAudit {
  std::uint64_t packets = 0;
  std::uint64_t hops = 0;           // links crossed
  std::uint64_t shortest_hops = 0;  // the shortest paths' hops of the same packets
  std::uint64_t off_route_hops = 0; // hops off the dimension-order route (adaptive choices)
  std::uint64_t escape_hops = 0;    // hops on the escape channel
  std::uint64_t held_upstream = 0;  // times a packet waited upstream for room in a buffer ahead
  unsigned most_chunks_held = 0;    // in any channel buffer or reception FIFO at any time
  std::uint64_t overfilled = 0;     // bookings beyond a buffer's depth (credits below 0): always 0
};

class PacketNetwork : public MessageTiming {
 public:
  virtual const PacketAudit& audit() const noexcept = 0;
  virtual const PacketParameters& parameters() const noexcept = 0;
};

// Throws std::invalid_argument for a network that is not a torus or mesh.
std::unique_ptr<PacketNetwork> make_packet_network(std::shared_ptr<const PhysicalLinks> links, LinkSpeeds speeds,
                                                   const PacketParameters& parameters);

}  // namespace gups
