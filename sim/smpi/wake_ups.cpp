// One count for the whole simulation, not one a rank: the ranks run in one
// process, one at a time, and the count is of the simulation's work.
#include "sim/smpi/wake_ups.hpp"

#include <cstdint>

#include "kernel/mpi/simulation.hpp"

namespace gups::simulation {
namespace {
std::uint64_t count = 0;
}

void note_wake_up() noexcept { ++count; }
std::uint64_t wake_ups() noexcept { return count; }

}  // namespace gups::simulation
