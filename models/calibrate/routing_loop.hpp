// The routing core's loop of a real run, timed: the engine's run_routed on
// a one-node torus over MPI_COMM_SELF, every update its own. Calibration
// then times the code a run executes (the stream a batch ahead, RouteStep,
// the turn loop, its counters), not a loop written to resemble it.
#pragma once

#include "models/calibrate/compute_costs.hpp"

namespace gups::calibrate {

// ns per update of the whole loop, generation included; the table is
// 2^log2_words words, made afresh before each repeat.
Timing time_routing_loop(unsigned log2_words, unsigned repeats, const BeforeEachRepeat& before_each = {});

}  // namespace gups::calibrate
