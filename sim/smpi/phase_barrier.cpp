// The simulated phase barrier (kernel/mpi/phase_barrier.hpp): one SimGrid
// barrier for the whole simulated machine, made by the first rank to arrive
// (SMPI runs the ranks one at a time in one process).
#include <simgrid/s4u/Barrier.hpp>

#include "kernel/mpi/phase_barrier.hpp"
#include "sim/smpi/timed_code.hpp"

namespace gups {

void phase_barrier(int ranks, bool timed_code) {
  const TimedCode timing(timed_code);
  static const simgrid::s4u::BarrierPtr machine_barrier = simgrid::s4u::Barrier::create(static_cast<unsigned>(ranks));
  machine_barrier->wait();
}

}  // namespace gups
