// The copy of a bucket through a hand-off slot (kernel/core/handoff_slot.hpp)
// between two ranks of one host: what a multicore core pays per update it
// hands on to the next core of its node, or takes from the one before, with
// the bucket's cache lines crossing from one core to the other. MPI's copy
// slopes (message_costs) leave that crossing out: their receiver does not
// touch the data until every message has arrived.
#pragma once

#include <optional>

#include "models/calibrate/compute_costs.hpp"

namespace gups::calibrate {

struct HandoffCost {
  Timing publish;  // ns per update, the sender's copy into the slot
  Timing take;     // ns per update, the receiver's copy out of it
};

// Collective over the two ranks of MPI_COMM_WORLD (`rank`: this one's),
// through the kernel's own slots (NodeHandoffs on a node of two cores).
// Rank 0 writes a fresh bucket of `updates` and publishes it as soon as the
// slot is free; rank 1 takes each as soon as it is there; each times only
// its own copies. Empty when the two ranks do not share a host.
std::optional<HandoffCost> time_handoffs(int rank, unsigned updates, unsigned messages, unsigned repeats);

}  // namespace gups::calibrate
