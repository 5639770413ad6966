// Message slots at the network levels that time messages themselves: each
// message matched, copied and timed here, with no SimGrid communication
// (timed_message_slots.cpp says how).
#pragma once

#include <cstddef>
#include <memory>

#include "kernel/mpi/message_slots.hpp"

namespace gups {

// Null where the installed level is flow (SimGrid's links carry messages).
std::unique_ptr<MessageSlots> timed_message_slots(int rank, std::size_t slots, SimulatedMessages simulated);

}  // namespace gups
