// Calls that go to SimGrid directly in simulated runs, bypassing SMPI: the
// phase barrier here, and the s4u message slots.
#pragma once

#include <mpi.h>

#ifdef GUPS_SIMULATED
#include <smpi/smpi.h>
#endif

namespace gups {

// When SMPI times the real code (no machine file), the time between two
// SMPI calls is charged to the simulated core when the next one starts. A
// call that bypasses SMPI does what SMPI's own calls do: it stops the timer
// on entry (charging the time so far) and restarts it on the way out.
class TimedCode {
 public:
  explicit TimedCode([[maybe_unused]] bool timed) {
#ifdef GUPS_SIMULATED
    timed_ = timed;
    if (timed_) smpi_bench_end();
#endif
  }
  ~TimedCode() {
#ifdef GUPS_SIMULATED
    if (timed_) smpi_bench_begin();
#endif
  }
  TimedCode(const TimedCode&) = delete;
  TimedCode& operator=(const TimedCode&) = delete;

 private:
  bool timed_ = false;
};

// The barrier on each side of the update phase, over all `ranks` of
// MPI_COMM_WORLD. Blue Gene machines synchronise all nodes on a dedicated
// barrier network, with no message on the torus. Simulated, it is a SimGrid
// barrier that releases every rank at the same instant, where a software
// barrier sends ranks x log2(ranks) simulated messages (2.2 million at
// 131,072 ranks) and releases the ranks at different times. Real runs call
// MPI_Barrier.
void phase_barrier(int ranks, bool timed_code);

}  // namespace gups
