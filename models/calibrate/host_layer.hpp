// This host's message layer in LogGP terms, fitted to what gups-calibrate
// timed (loggp_fit.hpp), written into its machine file in place of the call
// costs it derives, and set beside the costs timed directly.
#pragma once

#include "models/calibrate/message_costs.hpp"
#include "models/src/machine.hpp"

namespace gups::calibrate {

// The calls of the kernel's message sizes (64..480 updates): o is their
// fixed cost (Netgauge gives o by message size; these are the sizes the
// kernel sends), O their cost per byte, sender's and receiver's together.
struct CallsAsLogGOPS {
  double o_send = 0, o_recv = 0, O = 0;  // s, s, s per byte
};
CallsAsLogGOPS calls_as_loggops(const std::vector<CallCost>& calls, bool typical);

// The fit's inputs at each timing's least (typical false) or median (true).
// `small_call`: one 8-byte word's send and receive, which L's ping-pong makes.
gups::model::LogGPTimings layer_timings(const std::vector<CallCost>& calls, const CallCost& small_call,
                                        const LayerTimings& timed, bool typical);

// The layer fitted at the least timings and at their medians.
struct HostLayerFit {
  gups::model::MessageLayer least, typical;
};
HostLayerFit fit_host_layer(const std::vector<CallCost>& calls, const CallCost& small_call, const LayerTimings& timed);

// For the file's notes (every calibration): the layer, each figure's spread,
// and each message size's send and receive as the layer prices them
// (o_send + o_recv + O x bytes) beside the same calls timed directly, an
// 8-byte message's first (below the kernel's sizes, outside the fit).
nlohmann::json message_layer_notes(const HostLayerFit& fit, const std::vector<CallCost>& calls,
                                   const CallCost& small_call);

// Gives the machine the layer fitted at the least timings, each figure a
// measured input whose spread is the fit at the medians over it; the call
// costs it derives replace the timed ones (and their sources and spreads).
void give_message_layer(gups::model::Machine& machine, const HostLayerFit& fit);

// The notes above, as a person reads them.
void print_message_layer(const nlohmann::json& notes);

}  // namespace gups::calibrate
