#include "models/src/simulation_charges.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace gups::model {

OperationCharges charges_for(const Machine& machine, Algorithm algorithm, const RolePlan& plan, unsigned core, bool core_updates_only, OwnerMode owner, std::uint64_t owners,
                             unsigned updating_cores) {
  const auto& c = machine.costs;
  const auto& packet = machine.packet;
  OperationCharges charges;
  charges.clock_hz = machine.clock_hz;
  charges.generate = c.generate + c.loop_overhead;
  charges.send_call = machine.send_call_cycles();
  charges.packet = packet;
  charges.owner_lookup = core_updates_only ? 0 : machine.owner_lookup_cycles(owner, owners);
  try {
    derive_receive_call(machine, charges);
  } catch (const std::invalid_argument&) {
    charges.batch_packets = 0;
  }
  // Updates applied in a loop of their own overlap their misses (streamed).
  const auto apply = [&](bool streamed, double besides = 0) {
    const auto update = machine.update_load(streamed, updating_cores);
    charges.apply = update.issue + update.wait + besides;
    charges.apply_wait = update.wait;
  };
  switch (model_of(algorithm)) {
    case AlgorithmModel::direct:
      charges.route = c.message_overhead;
      apply(true);
      charges.receive_call = machine.packet_receive_cycles(false);
      break;
    case AlgorithmModel::hypercube:
      // Each stage looks at every update held once (route); a chunk's
      // updates are applied in a loop of their own.
      charges.route = c.stage_split;
      apply(true);
      charges.receive_call = machine.packet_receive_cycles(true);
      break;
    case AlgorithmModel::routed:
      charges.route = c.routing_hop_without_calls;
      apply(false);
      charges.receive_call = c.receive_call_batched;
      break;
    case AlgorithmModel::multicore:
      // A routing core pays its overhead per update it sends on; a core that
      // only updates pays it per update it applies (Eq. 6: top3 on core 3),
      // in a loop that does nothing else (update_streamed).
      charges.route = machine.core_overheads(plan).at(core);
      apply(core_updates_only, core_updates_only ? machine.core_overheads(plan).at(core) : 0);
      charges.receive_call = machine.packet_receive_cycles(true);
      break;
  }
  return charges;
}

HostPlacement host_placement_of(const Machine& machine, Algorithm algorithm, const AlgorithmSetup& setup,
                                unsigned nodes_per_host) {
  // Every process of direct updates; of a routing algorithm's node, its updating cores.
  const auto updaters = !traits(algorithm).routes_over_torus ? setup.cores_per_node
                                                       : static_cast<unsigned>(setup.updater_cores().size());
  return place_on_hosts(machine, setup.nodes, setup.cores_per_node, updaters, nodes_per_host);
}

std::vector<OperationCharges> node_charges(const Machine& machine, Algorithm algorithm, const AlgorithmSetup& setup,
                                           const TableLayout& layout, OwnerMode owner, const HostPlacement& placement) {
  std::vector<OperationCharges> cores;
  const auto effective = OwnerFinder(layout, owner).effective();
  const auto updating = placement.updating_cores;
  // A node's ranks are its hardware threads, filling one thread of every core first.
  const unsigned threads = machine.node.threads_per_core;
  const unsigned physical = std::max(1u, (setup.cores_per_node + threads - 1) / threads);
  for (unsigned core = 0; core < setup.cores_per_node; ++core) {
    const auto& role = setup.plan.role(core);
    const bool updates_only = setup.shape && role.only_updates();
    cores.push_back(
        charges_for(machine, algorithm, setup.plan, core, updates_only, effective, layout.owners(), updating));
    cores.back().core = threads > 1 ? core_of_thread(core, physical) : core;
  }
  for (auto& charges : cores) {
    charges.threads_on_core = static_cast<unsigned>(std::count_if(
        cores.begin(), cores.end(), [&](const OperationCharges& other) { return other.core == charges.core; }));
  }
  return cores;
}

// 600 cycles for a call taking one packet and 330 per packet for a call
// taking four (paper 4.1, 4.3.1) are 360 per call plus 240 per packet.
void derive_receive_call(const Machine& machine, OperationCharges& charges) {
  const auto& c = machine.costs;
  if (const auto& unit = machine.node.messaging_unit) {  // packets read from a FIFO: no call to make
    charges.batch_packets = c.receive_batch_packets;
    charges.receive_call_overhead = 0;
    charges.receive_per_packet = unit->packet_receive_cycles;
    return;
  }
  const double batch = c.receive_batch_packets;
  const double per_packet = batch > 1 ? (batch * c.receive_call_batched - c.receive_call) / (batch - 1)
                                      : c.receive_call;
  const double overhead = c.receive_call - per_packet;
  if (per_packet < 0 || overhead < 0) {
    throw std::invalid_argument(fmt::format(
        "machine '{}': receive calls of {} cycles for one packet and {} per packet for {} cannot be a cost per "
        "call plus a cost per packet (costs_cycles.receive_call, receive_call_batched)",
        machine.name, c.receive_call, c.receive_call_batched, c.receive_batch_packets));
  }
  charges.batch_packets = c.receive_batch_packets;
  charges.receive_call_overhead = overhead;
  charges.receive_per_packet = per_packet;
}

AccessCharges access_charges_of(const model::Machine& machine) {
  if (!machine.data_access) {
    throw std::invalid_argument(fmt::format(
        "machine '{}' gives no data_access_cycles (block_start, word, poll): the Apex-Map probe cannot be charged "
        "on it",
        machine.name));
  }
  const auto& d = *machine.data_access;
  return {.clock_hz = machine.clock_hz,
          .block_start = d.block_start,
          .word = d.word,
          .send_call = machine.costs.send_call,
          .receive_call = machine.costs.receive_call,
          .poll = d.poll};
}

}  // namespace gups::model
