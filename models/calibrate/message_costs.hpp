// Send and receive call costs between two MPI ranks, timed apart: rank 0
// times its sends while rank 1 waits, then rank 1 times receives of
// messages that have all arrived, so neither figure includes waiting.
#pragma once

#include <mpi.h>

#include <utility>
#include <vector>

#include "models/calibrate/compute_costs.hpp"
#include "models/src/loggp_fit.hpp"

namespace gups::calibrate {

struct CallCost {
  unsigned updates = 0;  // per message
  Timing send;           // ns per send call
  Timing receive;        // ns per receive call
};

// Collective over the two ranks of `comm`; results are valid on rank 0.
std::vector<CallCost> time_calls(MPI_Comm comm, const std::vector<unsigned>& sizes, unsigned messages,
                                 unsigned repeats);

// MPI_Test of a receive that has not arrived: the cost of one poll.
Timing time_poll(MPI_Comm comm, unsigned polls, unsigned repeats);


// What a LogGP fit needs beyond the calls' own times (ns, on every rank):
// half a small ping-pong, trains of small messages by their length, and
// half a long ping-pong by its bytes.
struct LayerTimings {
  Timing half_round_trip;
  std::vector<std::pair<double, Timing>> trains;
  std::vector<std::pair<double, Timing>> ping_pongs;
};
LayerTimings time_layer(MPI_Comm comm, unsigned repeats);

// The link as the same ping-pongs give it, at their medians.
struct LinkFigures {
  double bandwidth_bytes_per_s = 0;  // one way: the longest ping-pong (4 MiB)
  double latency_s = 0;              // half a small (8-byte) ping-pong
};
LinkFigures link_figures(const LayerTimings& timed);

using gups::model::fit_line;
using gups::model::LinearFit;

}  // namespace gups::calibrate
