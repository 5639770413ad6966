// LogGP parameters fitted to a host's timings, in the manner of Netgauge
// (Hoefler et al. 2007): o from the calls' own times, L from a small
// ping-pong less both overheads, g from the slope of message trains, G from
// the slope of large ping-pongs. Pure arithmetic: gups-calibrate times, this
// fits, and a unit test checks the fit on synthetic timings.
#pragma once

#include <utility>
#include <vector>

#include "models/src/message_layer.hpp"

namespace gups::model {

// A straight line through (x, y): the fixed cost of a call and its cost per unit.
struct LinearFit {
  double intercept = 0;
  double slope = 0;
};
// Least squares; intercept and slope clamped at 0 (a cost is never negative).
LinearFit fit_line(const std::vector<double>& x, const std::vector<double>& y);

struct LogGPTimings {
  double send_call_s = 0;     // a small MPI_Send to a rank not receiving: o_send
  double receive_call_s = 0;  // an MPI_Recv of a small message already arrived: o_recv
  double half_round_trip_s = 0;                     // half a small ping-pong: its two calls + L
  double small_calls_s = 0;  // that small message's send and receive calls (0: o_send + o_recv)
  std::vector<std::pair<double, double>> trains;    // (messages sent back to back, seconds until the last is acknowledged)
  std::vector<std::pair<double, double>> ping_pongs;  // (bytes, half a round trip in seconds), long messages
};

// o_send, o_recv as timed; L = half round trip less its two calls (at least 0);
// g = the trains' seconds per further message; G = the long ping-pongs'
// seconds per further byte. O and S stay 0 (not measured).
MessageLayer fit_loggp(const LogGPTimings& timings);

}  // namespace gups::model
