#include "simulation_charges.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace gups::model {

OperationCharges charges_for(const Machine& machine, const std::string& algorithm, unsigned cores_per_node,
                             unsigned core, bool core_updates_only) {
  const auto& c = machine.costs;
  const auto& packet = machine.packet;
  OperationCharges charges;
  charges.clock_hz = machine.clock_hz;
  charges.generate = c.generate + c.loop_overhead;
  charges.send_call = c.send_call;
  charges.updates_per_packet = (packet.max_bytes - packet.header_bytes) / packet.update_bytes;
  if (algorithm == "direct") {
    charges.route = c.message_overhead;
    charges.apply = c.update_streamed;
    charges.receive_call = c.receive_call;
  } else if (algorithm == "routed") {
    charges.route = c.message_overhead;
    charges.apply = c.update;
    charges.receive_call = c.receive_call_batched;
  } else if (algorithm == "multicore") {
    if (c.core_overhead.size() != cores_per_node) {
      throw std::invalid_argument(fmt::format(
          "machine '{}' gives per-core overheads for {} cores, not {} (costs_cycles.core_overhead)", machine.name,
          c.core_overhead.size(), cores_per_node));
    }
    // A routing core pays its overhead per update it sends on; a core that
    // only updates pays it per update it applies (Eq. 6: top3 on core 3).
    charges.route = c.core_overhead.at(core);
    charges.apply = c.update + (core_updates_only ? c.core_overhead.at(core) : 0);
    charges.receive_call = c.receive_call_batched;
  } else {
    throw std::invalid_argument(fmt::format("no simulation charges for algorithm '{}'", algorithm));
  }
  return charges;
}

}  // namespace gups::model
