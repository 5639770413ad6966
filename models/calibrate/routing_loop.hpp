// The routing core's loop of a real run, timed: the engine's run_routed.
// Calibration then times the code a run executes (the stream a batch ahead,
// RouteStep, the turn loop, its counters, and across ranks its messages as
// MPI carries them), not a loop written to resemble it.
#pragma once

#include <mpi.h>

#include "models/calibrate/compute_costs.hpp"

namespace gups::calibrate {

// ns per update of one rank's share, generation included, of a routed run
// over `comm`'s ranks, one torus node each (MPI_COMM_SELF: a one-node torus,
// every update its own); the table of 2^log2_words words over the ranks, made
// afresh before each repeat. Collective over `comm`.
Timing time_routing_loop(MPI_Comm comm, unsigned log2_words, unsigned repeats,
                         const BeforeEachRepeat& before_each = {});

}  // namespace gups::calibrate
