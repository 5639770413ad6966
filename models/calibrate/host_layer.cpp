#include "models/calibrate/host_layer.hpp"

#include <fmt/format.h>

#include <cmath>
#include <iterator>
#include <string>

#include "models/src/message_layer.hpp"

namespace gups::calibrate {
namespace {

constexpr double kBytesPerUpdate = 8;

double at(const Timing& t, bool typical) { return 1e-9 * (typical ? t.median_ns : t.min_ns); }

// How far the fit at the medians lies above the one at the least times (0 where it is no higher).
double spread(double least, double typical) {
  return least > 0 && typical > least ? std::round(1e4 * (typical / least - 1)) / 1e4 : 0.0;
}

}  // namespace

CallsAsLogGOPS calls_as_loggops(const std::vector<CallCost>& calls, bool typical) {
  std::vector<double> bytes, sends, receives;
  for (const auto& call : calls) {
    bytes.push_back(kBytesPerUpdate * call.updates);
    sends.push_back(at(call.send, typical));
    receives.push_back(at(call.receive, typical));
  }
  const auto send = gups::model::fit_line(bytes, sends);
  const auto receive = gups::model::fit_line(bytes, receives);
  return {send.intercept, receive.intercept, send.slope + receive.slope};
}

gups::model::LogGPTimings layer_timings(const std::vector<CallCost>& calls, const CallCost& small_call,
                                        const LayerTimings& timed, bool typical) {
  const auto fit = calls_as_loggops(calls, typical);
  gups::model::LogGPTimings t;
  t.send_call_s = fit.o_send;
  t.receive_call_s = fit.o_recv;
  t.half_round_trip_s = at(timed.half_round_trip, typical);
  t.small_calls_s = at(small_call.send, typical) + at(small_call.receive, typical);
  for (const auto& [messages, timing] : timed.trains) t.trains.emplace_back(messages, at(timing, typical));
  for (const auto& [bytes, timing] : timed.ping_pongs) t.ping_pongs.emplace_back(bytes, at(timing, typical));
  return t;
}

void give_message_layer(gups::model::Machine& machine, const std::vector<CallCost>& calls, const CallCost& small_call,
                        const LayerTimings& timed) {
  using gups::model::fit_loggp;
  auto least = fit_loggp(layer_timings(calls, small_call, timed, false));
  auto typical = fit_loggp(layer_timings(calls, small_call, timed, true));
  least.O = calls_as_loggops(calls, false).O;
  typical.O = calls_as_loggops(calls, true).O;
  least.processes_per_node = 1;
  const std::pair<const char*, std::string> how[] = {
      {"L", "half an 8-byte ping-pong less that message's send and receive calls, each timed alone"},
      {"o_send", "MPI_Send of 64..480 updates (the kernel's message sizes) to a rank not receiving: the fixed cost "
                 "of a straight-line fit by bytes"},
      {"o_recv", "MPI_Recv of 64..480 updates already arrived: the fixed cost of a straight-line fit by bytes"},
      {"g", "trains of 1, 64, 256 and 1,024 8-byte messages sent back to back, the last acknowledged: seconds per "
            "further message (the slope)"},
      {"G", "ping-pongs of 64 KiB to 4 MiB: seconds per further byte of half a round trip (the slope)"},
      {"O", "the same fits' costs per byte, send's and receive's together"}};
  const std::pair<double, double> values[] = {{least.L, typical.L},       {least.o_send, typical.o_send},
                                              {least.o_recv, typical.o_recv}, {least.g, typical.g},
                                              {least.G, typical.G},       {least.O, typical.O}};
  for (std::size_t i = 0; i < std::size(how); ++i) {
    const std::string field = std::string("message_layer.") + how[i].first;
    const auto text = fmt::format("timed (Netgauge's method, Hoefler et al. 2007): {}; the fit at the least of the "
                                  "repeats, its spread the fit at their medians",
                                  how[i].second);
    machine.sources[field] = {
        text, {{"kind", "measured"}, {"source", text}, {"spread", spread(values[i].first, values[i].second)}}};
  }
  machine.sources["message_layer"] = std::string("this host's MPI, one process a node (2 ranks over shared memory)");
  for (const char* cost : {"send_call", "receive_call", "receive_call_batched", "routing_hop"}) {
    machine.sources.erase(std::string("costs_cycles.") + cost);
    machine.cost_spread.erase(cost);
  }
  machine.message_layer = least;
  gups::model::apply_message_layer(machine);
}

void print_message_layer(const gups::model::Machine& machine, const std::vector<CallCost>& calls,
                         const CallCost& small_call) {
  const auto& layer = *machine.message_layer;
  const auto spread_of = [&machine](const char* name) {
    const auto found = machine.sources.find(std::string("message_layer.") + name);
    if (found == machine.sources.end() || !found->second.declared.contains("spread")) return std::string("-");
    return fmt::format("{:.1f}%", 100 * found->second.declared.at("spread").get<double>());
  };
  fmt::print("  message layer (LogGP, least of the repeats; spread to the medians):\n");
  fmt::print("    L {:.3g} us ({}), o_send {:.3g} us ({}), o_recv {:.3g} us ({}), g {:.3g} us ({}), G {:.3g} ns/B ({}), "
             "O {:.3g} ns/B ({})\n",
             1e6 * layer.L, spread_of("L"), 1e6 * layer.o_send, spread_of("o_send"), 1e6 * layer.o_recv,
             spread_of("o_recv"), 1e6 * layer.g, spread_of("g"), 1e9 * layer.G, spread_of("G"), 1e9 * layer.O,
             spread_of("O"));
  fmt::print("  a message's send and receive calls, ns: as the layer prices them (o_send + o_recv + O x bytes) and timed\n");
  fmt::print("  {:>9} {:>9} {:>9}\n", "updates", "layer", "timed");
  const auto priced = [&layer](double updates) {
    return 1e9 * (layer.o_send + layer.o_recv + layer.O * kBytesPerUpdate * updates);
  };
  for (const auto* call : {&small_call}) {
    fmt::print("  {:>9} {:>9.1f} {:>9.1f}  (one word: below the kernel's sizes, outside the fit)\n", call->updates,
               priced(call->updates), call->send.min_ns + call->receive.min_ns);
  }
  for (const auto& call : calls) {
    fmt::print("  {:>9} {:>9.1f} {:>9.1f}\n", call.updates, priced(call.updates), call.send.min_ns + call.receive.min_ns);
  }
}

}  // namespace gups::calibrate
