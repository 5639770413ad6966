// A machine's message layer in the field's terms (LogGP: Culler et al. 1993,
// Alexandrov et al. 1995; O and S from LogGOPS, Hoefler et al. 2009), as
// published for its MPI or measured on a host, and the per-call cycle costs
// the bounds and the simulator charge, derived from it. A file gives either
// this section or the cycle costs it derives, never both.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "kernel/core/packet_format.hpp"

namespace gups::model {

class ObjectReader;
struct Machine;

// One process's figures, measured with `processes_per_node` processes a node.
struct MessageLayer {
  double L = 0;       // s: a small message's one-way latency between neighbours, less both overheads
  double o_send = 0;  // s: the sending process's time in the call that sends a small message
  double o_recv = 0;  // s: the receiving process's time in the call that takes one (one packet)
  double g = 0;       // s: a process's least time between two small messages (1 / its message rate)
  double G = 0;       // s per byte: a process's time per byte of a long message (1 / its bandwidth)
  double O = 0;       // s per byte: the cores' time per byte beyond a small message's (0: not given)
  double S = 0;       // bytes: longer messages go by rendezvous (0: none does)
  unsigned processes_per_node = 1;
};

// The cycle costs of one core at `clock_hz`, each from the layer:
//   send_call             = o_send x clock
//   receive_call          = o_recv x clock                      (a call of one packet)
//   receive_call_batched  = (o_recv + (b - 1) x O x payload) x clock / b
//                           per packet of a call of b packets, payload the
//                           bytes a packet carries after its header; O = 0
//                           (not given) leaves no gain from batching
//   descriptor_cycles     = send_call, packet_receive_cycles = receive_call
//                           (a messaging unit: the core's share of a message
//                           and of a packet taken from its FIFO)
//   packets_per_s         = processes_per_node / g (the node's small messages a second)
//   rendezvous_cycles     = (o_send + o_recv) x clock on each side of a
//                           message above S (the handshake's extra send and receive)
struct DerivedMessageCosts {
  double send_call = 0;
  double receive_call = 0;
  double receive_call_batched = 0;
  double packets_per_s = 0;
  double rendezvous_cycles = 0;
};
DerivedMessageCosts derive_message_costs(const MessageLayer& layer, double clock_hz, const PacketFormat& packet,
                                         unsigned receive_batch_packets);

// The costs the bounds charge, set from the machine's layer (a no-op without
// one): costs_cycles' calls, the messaging unit's core costs and rate.
void apply_message_layer(Machine& machine);

// The layer a machine's cycle costs amount to, for a file that gives the
// costs (Blue Gene/P: the paper's): o_send, o_recv and O read back through
// the formulas above; L, g, G and S are not in them and stay 0.
MessageLayer message_layer_of_costs(const Machine& machine);

// Extra cycles a message of this many payload bytes costs each side: the
// rendezvous handshake above S, else 0.
double rendezvous_cycles(const Machine& machine, double message_bytes);

// The file's section; throws std::invalid_argument naming the field.
MessageLayer read_message_layer(ObjectReader& section);
nlohmann::ordered_json message_layer_json(const MessageLayer& layer);

// A figure by its name in the file (L, o_send, o_recv, g, G, O, S).
double layer_figure(const MessageLayer& layer, const std::string& name);

// For a file with a layer: `key` of `section` (spelt `field` in full) is a
// cost the layer derives and must be absent; throws naming it if given.
void refuse_derived_from_layer(ObjectReader& section, const std::string& key, const std::string& field);

// The cost fields a layer derives (costs_cycles.* and node.messaging_unit.*,
// as the file spells them): a file with a layer must leave them out.
bool derived_from_message_layer(const std::string& field);

}  // namespace gups::model
