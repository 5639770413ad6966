// The simulated phase barrier (kernel/mpi/simulated_calls.hpp): one SimGrid
// barrier for the whole simulated machine, made by the first rank to arrive
// (SMPI runs the ranks one at a time in one process).
#include <simgrid/s4u/Barrier.hpp>

#include "kernel/mpi/simulated_calls.hpp"

namespace gups {

void phase_barrier(int ranks, bool timed_code) {
  const TimedCode timing(timed_code);
  static const simgrid::s4u::BarrierPtr machine_barrier = simgrid::s4u::Barrier::create(static_cast<unsigned>(ranks));
  machine_barrier->wait();
}

}  // namespace gups
