// What each operation the models count costs one simulated core, in cycles.
// Filled from a machine file by the simulator; unused by real runs.
#pragma once

namespace gups {

struct OperationCharges {
  double clock_hz = 0;
  double generate = 0;       // per update generated
  double route = 0;          // per update put into a bucket: a hop, a hand-off or a send to its owner
  double apply = 0;          // per update applied to the table
  double send_call = 0;      // per message sent
  double receive_call = 0;   // per packet of a message received
  unsigned updates_per_packet = 1;

  unsigned packets(unsigned updates) const noexcept {
    return updates == 0 ? 1 : (updates + updates_per_packet - 1) / updates_per_packet;
  }
};

}  // namespace gups
