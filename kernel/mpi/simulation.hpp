// What the kernel asks of the simulator when it runs inside one. The
// real-MPI build links kernel/mpi/without_simulator.cpp, where nothing is
// simulated; the SMPI build links sim/smpi/ instead, which puts the
// platform's network level into SimGrid, carries messages over s4u, counts
// link loads and charges each core its machine's costs. The build picks the
// file; no branch of the kernel asks the preprocessor.
#pragma once

#include <memory>

#include "kernel/core/algorithm_setup.hpp"
#include "kernel/core/run_config.hpp"
#include "kernel/core/steady_watch.hpp"
#include "kernel/mpi/message_slots.hpp"
#include "kernel/mpi/operation_costs.hpp"

namespace gups::simulation {

// This build runs inside SimGrid.
bool active() noexcept;

// Installs the platform's network level into SimGrid, once for the whole
// simulation (every simulated rank calls it before its first message; the
// first one does it). Throws std::invalid_argument naming what the platform
// gets wrong.
void install_network_level();

// The ranks that share this rank's simulated host (its core count); 1
// outside SimGrid.
unsigned ranks_per_host();

// This rank's operation costs: its core's entry of --charges in a
// simulation given one, nothing otherwise. Throws std::invalid_argument.
OperationCosts operation_costs(const RunConfig& config, const AlgorithmSetup& setup, int rank);

// Under SimGrid each rank runs on a stack of contexts/stack-size KiB,
// allocated zeroed and without a guard page (gups-sim), so a rank that went
// deeper would overwrite memory silently. Returns how deep this rank's stack
// went, in bytes, from `top` (an address in its first frame) down; 0 outside
// SimGrid.
std::size_t stack_depth(const void* top);
// The stack each simulated rank has, in bytes; 0 outside SimGrid.
std::size_t stack_size();

// The simulation's one steady-state watch, which all its ranks share (they
// run in one process on one clock): made by the first rank to ask, from
// --settle-to and --settle-least over the plan's pipelines. Null when the
// run is not asked to settle, and outside SimGrid.
SteadyWatch* steady_watch(const RunConfig& config, const AlgorithmSetup& setup);

// How many times so far a simulated core blocked and SimGrid resumed it:
// its sleeps, and its waits for an s4u communication (SMPI's own calls,
// --message-layer mpi, are not counted). 0 outside SimGrid.
std::uint64_t wake_ups() noexcept;

// Message slots over SimGrid's s4u mailboxes; at a level that times messages
// itself, and `timed` allowed, messages that are no SimGrid communication.
// Null outside SimGrid.
std::unique_ptr<MessageSlots> s4u_message_slots(int rank, std::size_t slots, SimulatedMessages simulated, bool timed);

}  // namespace gups::simulation
