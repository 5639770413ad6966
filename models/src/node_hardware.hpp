// What a node does besides its cores' cycles: hardware threads that share a
// core, a messaging unit that injects and receives packets from
// descriptors, and table updates applied as atomic operations near memory.
// Each is optional in a machine file's `node` section; without it the node
// is Blue Gene/P's: one thread a core, every message's and every update's
// cost on a core.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace gups::model {

class ObjectReader;

// A unit that reads descriptors and moves packets between memory FIFOs and
// the network: a core pays for the descriptor of each message and for taking
// each packet out of a reception FIFO, the unit for the packets themselves.
struct MessagingUnit {
  double descriptor_cycles = 0;      // core: one message's descriptor written and injected
  double packet_receive_cycles = 0;  // core: one packet taken from a reception FIFO
  double packets_per_s = 0;          // the unit: packets it injects a second (and as many it receives)
  unsigned injection_fifos = 0;      // the node's, shared by its threads
  unsigned reception_fifos = 0;
};

// Updates sent to the memory side as atomic operations: the core issues one
// and goes on; the memory side applies them at its own rate.
struct NearMemoryUpdates {
  double issue_cycles = 0;   // core: one atomic update issued
  double updates_per_s = 0;  // node: atomic updates the memory side applies a second
};

struct NodeHardware {
  unsigned threads_per_core = 1;
  // Of an update's cycles, those the core issues; the rest wait on memory,
  // and another thread of the core may issue meanwhile.
  double update_issue_cycles = 0;
  std::optional<MessagingUnit> messaging_unit;
  std::optional<NearMemoryUpdates> near_memory;

  bool threaded() const noexcept { return threads_per_core > 1; }
};

// One hardware thread's cycles for its share of an update of the node:
// those it issues and those it waits.
struct ThreadLoad {
  double issue = 0;
  double wait = 0;
};

// The thread-sharing rule: each thread of a core needs its own issue and
// wait, and the core issues for one thread at a time, so its threads take
// together at least the sum of their issues.
double shared_core_cycles(const std::vector<ThreadLoad>& threads);

// The core a role plan's hardware thread runs on: the threads fill one
// thread of every core before a second thread of any.
unsigned core_of_thread(unsigned thread, unsigned cores) noexcept;

// Reads the `node` section; throws std::invalid_argument naming the field.
// `messaging_from_layer`: the file's message layer sets the messaging unit's
// core costs and rate, which the section must then leave out.
NodeHardware read_node_hardware(ObjectReader& node, bool messaging_from_layer = false);
// The section as the file spells it (null for Blue Gene/P's node).
nlohmann::ordered_json node_hardware_json(const NodeHardware& node, bool messaging_from_layer = false);

}  // namespace gups::model
