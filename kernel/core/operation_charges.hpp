// What each operation the models count costs one simulated core, in cycles,
// and which of the machine's mechanisms the simulation models beyond Eq. 7.
// The run plan (gups-topology --charges) works them out from a machine file
// and writes them, one entry per core of a node; the simulated kernel reads
// that file (gups-smpi --charges) and never the machine file. Real runs
// charge nothing.
#pragma once

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/core/packet_format.hpp"

namespace gups {

// The mechanisms gups-sim --mechanisms names, once: each one's name, what
// it models, and the option of the program that switches it on (gups's
// flags below, or gups-topology's plan). gups-topology --catalogue exports
// them.
struct MechanismRow {
  std::string_view name;
  std::string_view help;
  std::string_view program;  // "gups" or "gups-topology"
  std::string_view option;   // as the program spells it
};
const std::vector<MechanismRow>& mechanism_rows();

// Mechanisms of the machine a simulation can model beyond Eq. 7 (all off:
// what Eq. 7 assumes), each with a switch so that its effect can be seen.
struct ModelledMechanisms {
  // Network messages carry whole packets with headers and acks, not just
  // their payload.
  bool wire_packets = false;
  // A receive call takes the packets waiting, up to a batch, for a call
  // overhead plus a cost per packet, instead of the batched cost per packet.
  bool receive_batches = false;
  // A send is injected at once, as Blue Gene/P's DMA does: the message
  // travels to the receiving node whether or not a receive is posted there,
  // and the send completes when it has arrived. Otherwise a send waits for a
  // posted receive (rendezvous).
  bool dma_injection = false;
  // With dma_injection: messages a receiving rank's channel holds before
  // sends to it wait (0: unbounded).
  unsigned reception_fifo_messages = 0;
};

struct OperationCharges {
  double clock_hz = 0;
  double generate = 0;       // per update generated
  double route = 0;          // per update put into a bucket: a hop, a hand-off or a send to its owner
  double apply = 0;          // per update applied to the table
  double send_call = 0;      // per message sent
  double receive_call = 0;   // per packet of a message received, when receive calls are not modelled
  double owner_lookup = 0;   // per owner found (0 on a core that never decides, or a power-of-two count)
  PacketFormat packet;
  // A hardware thread: the core of its node it runs on, shared with the
  // node's other ranks of the same core (threads_on_core of them); of
  // `apply`, the cycles it waits on memory, while the core issues for them.
  unsigned core = 0;
  unsigned threads_on_core = 1;
  double apply_wait = 0;

  ModelledMechanisms mechanisms;
  // Receive calls, with mechanisms.receive_batches (batch_packets 0: the
  // machine's figures give no cost per call and per packet).
  unsigned batch_packets = 1;
  double receive_call_overhead = 0;
  double receive_per_packet = 0;
};

inline constexpr const char* kChargesSchema = "torus-gups/charges/1";

// {"schema", "machine", "cores": [...]}: the charges of each core of a node.
nlohmann::json charges_document(const std::string& machine, const std::vector<OperationCharges>& cores);
// Reads such a file; throws std::invalid_argument naming the file and what
// is wrong with it.
std::vector<OperationCharges> read_core_charges(const std::string& path);

// The receive calls of one core under the receive-batch mechanism. A call is
// made when the core gets to a message (its own time, the end of the work it
// owes, or the message's arrival if it was idle) and takes what is in by
// then: a message that arrived before the current call was made joins it
// while the call has room; any other needs a call of its own.
class ReceiveCalls {
 public:
  // Cycles to take a message of `packets` packets that arrived at `arrival`,
  // by a core whose work ends at `core_time` (seconds).
  double take(const OperationCharges& charges, double arrival, double core_time, unsigned packets) {
    double cycles = 0;
    if (arrival > call_time_) room_ = 0;
    packets_ += packets;
    while (packets > 0) {
      if (room_ == 0) {
        call_time_ = std::max(arrival, core_time + cycles / charges.clock_hz);
        room_ = charges.batch_packets;
        cycles += charges.receive_call_overhead;
        ++calls_;
      }
      const unsigned taken = std::min(packets, room_);
      cycles += taken * charges.receive_per_packet;
      room_ -= taken;
      packets -= taken;
    }
    return cycles;
  }

  std::uint64_t calls() const noexcept { return calls_; }
  std::uint64_t packets() const noexcept { return packets_; }

 private:
  double call_time_ = -std::numeric_limits<double>::infinity();
  unsigned room_ = 0;
  std::uint64_t calls_ = 0;
  std::uint64_t packets_ = 0;
};

}  // namespace gups
