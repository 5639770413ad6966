#include "simulated_calls.hpp"

#ifdef GUPS_SIMULATED
#include <simgrid/s4u/Barrier.hpp>
#endif

namespace gups {

void phase_barrier([[maybe_unused]] int ranks, [[maybe_unused]] bool timed_code) {
#ifdef GUPS_SIMULATED
  const TimedCode timing(timed_code);
  // One barrier for the whole simulated machine, made by the first rank to
  // arrive (SMPI runs the ranks one at a time in one process).
  static const simgrid::s4u::BarrierPtr machine_barrier =
      simgrid::s4u::Barrier::create(static_cast<unsigned>(ranks));
  machine_barrier->wait();
#else
  MPI_Barrier(MPI_COMM_WORLD);
#endif
}

}  // namespace gups
