// The real-MPI build's side of kernel/mpi/simulation.hpp and of the other
// calls a simulation answers (sim/smpi/ in the SMPI build): nothing is
// simulated, the barrier is MPI's, and asking for what only a simulation
// has is refused.
#include <mpi.h>

#include <stdexcept>

#include "kernel/mpi/core_sleep.hpp"
#include "kernel/mpi/link_load.hpp"
#include "kernel/mpi/patient_collectives.hpp"
#include "kernel/mpi/phase_barrier.hpp"
#include "kernel/mpi/simulation.hpp"

namespace gups {

namespace simulation {

bool active() noexcept { return false; }
void install_network_level() {}
unsigned ranks_per_host() { return 1; }
OperationCosts operation_costs(const RunConfig&, const AlgorithmSetup&, int) { return OperationCosts{}; }
std::size_t stack_depth(const void*) { return 0; }
std::size_t stack_size() { return 0; }

std::unique_ptr<CoreSleep> core_sleep() { return nullptr; }
SteadyWatch* steady_watch(const RunConfig&, const AlgorithmSetup&) { return nullptr; }
std::uint64_t wake_ups() noexcept { return 0; }

std::unique_ptr<MessageSlots> s4u_message_slots(int, std::size_t, SimulatedMessages, bool) { return nullptr; }

}  // namespace simulation

void phase_barrier(int, bool) { patient::barrier(MPI_COMM_WORLD); }

LinkLoad::LinkLoad() { throw std::invalid_argument("--link-load needs the simulation (gups-smpi)"); }
void LinkLoad::carry(int, int, double) {}
std::vector<LinkClassLoad> LinkLoad::finish(const TorusShape&, double) const { return {}; }

}  // namespace gups
