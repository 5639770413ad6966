// The barrier on each side of the update phase: MPI's in the real-MPI
// build (kernel/mpi/without_simulator.cpp), SimGrid's in the SMPI build
// (sim/smpi/phase_barrier.cpp), which bypasses SMPI.
#pragma once

namespace gups {

// The barrier on each side of the update phase, over all `ranks` of
// MPI_COMM_WORLD. Blue Gene machines synchronise all nodes on a dedicated
// barrier network, with no message on the torus. Simulated, it is a SimGrid
// barrier that releases every rank at the same instant, where a software
// barrier sends ranks x log2(ranks) simulated messages (2.2 million at
// 131,072 ranks) and releases the ranks at different times. Real runs call
// MPI_Barrier.
void phase_barrier(int ranks, bool timed_code);

}  // namespace gups
