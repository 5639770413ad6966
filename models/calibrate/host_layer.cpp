#include "models/calibrate/host_layer.hpp"

#include <fmt/format.h>

#include <array>
#include <string>

#include "models/src/message_layer.hpp"

namespace gups::calibrate {
namespace {

constexpr double kBytesPerUpdate = 8;

double at(const Timing& t, bool typical) { return 1e-9 * (typical ? t.median_ns : t.min_ns); }

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

HostLayerFit fit_host_layer(const std::vector<CallCost>& calls, const CallCost& small_call, const LayerTimings& timed) {
  using gups::model::fit_loggp;
  HostLayerFit fit{fit_loggp(layer_timings(calls, small_call, timed, false)),
                   fit_loggp(layer_timings(calls, small_call, timed, true))};
  fit.least.O = calls_as_loggops(calls, false).O;
  fit.typical.O = calls_as_loggops(calls, true).O;
  fit.least.processes_per_node = fit.typical.processes_per_node = 1;
  return fit;
}

namespace {

constexpr std::array<const char*, 6> kFitted{"L", "o_send", "o_recv", "g", "G", "O"};

double figure_spread(const HostLayerFit& fit, const char* name) {
  return relative_spread(gups::model::layer_figure(fit.least, name), gups::model::layer_figure(fit.typical, name));
}

}  // namespace

nlohmann::json message_layer_notes(const HostLayerFit& fit, const std::vector<CallCost>& calls,
                                   const CallCost& small_call) {
  nlohmann::json spreads = nlohmann::json::object();
  for (const char* name : kFitted) spreads[name] = figure_spread(fit, name);
  const auto& layer = fit.least;
  nlohmann::json rows = nlohmann::json::array();
  const auto priced = [&](const CallCost& call, bool in_fit) {
    rows.push_back({{"updates", call.updates},
                    {"in_fit", in_fit},
                    {"layer_ns", 1e9 * (layer.o_send + layer.o_recv + layer.O * kBytesPerUpdate * call.updates)},
                    {"timed_ns", call.send.min_ns + call.receive.min_ns}});
  };
  priced(small_call, false);
  for (const auto& call : calls) priced(call, true);
  return {{"method", "Netgauge's (Hoefler et al. 2007): o and O from the calls at the kernel's message sizes, L from an "
                     "8-byte ping-pong less its calls, g from message trains, G from long ping-pongs"},
          {"figures", gups::model::message_layer_json(layer)},
          {"spread", spreads},
          {"calls_priced", rows}};
}

void give_message_layer(gups::model::Machine& machine, const HostLayerFit& fit) {
  const std::pair<const char*, std::string> how[] = {
      {"L", "half an 8-byte ping-pong less that message's send and receive calls, each timed alone"},
      {"o_send", "MPI_Send of 64..480 updates (the kernel's message sizes) to a rank not receiving: the fixed cost "
                 "of a straight-line fit by bytes"},
      {"o_recv", "MPI_Recv of 64..480 updates already arrived: the fixed cost of a straight-line fit by bytes"},
      {"g", "trains of 1, 64, 256 and 1,024 8-byte messages sent back to back, the last acknowledged: seconds per "
            "further message (the slope)"},
      {"G", "ping-pongs of 64 KiB to 4 MiB: seconds per further byte of half a round trip (the slope)"},
      {"O", "the same fits' costs per byte, send's and receive's together"}};
  for (const auto& [name, words] : how) {
    const auto text = fmt::format("timed (Netgauge's method, Hoefler et al. 2007): {}; the fit at the least of the "
                                  "repeats, its spread the fit at their medians",
                                  words);
    machine.sources[std::string("message_layer.") + name] = {
        text, {{"kind", "measured"}, {"source", text}, {"spread", figure_spread(fit, name)}}};
  }
  machine.sources["message_layer"] = std::string("this host's MPI, one process a node (2 ranks over shared memory)");
  for (const char* cost : {"send_call", "receive_call", "receive_call_batched", "routing_hop"}) {
    machine.sources.erase(std::string("costs_cycles.") + cost);
    machine.cost_spread.erase(cost);
  }
  machine.message_layer = fit.least;
  gups::model::apply_message_layer(machine);
}

void print_message_layer(const nlohmann::json& notes) {
  const auto& f = notes.at("figures");
  const auto& spreads = notes.at("spread");
  const auto figure = [&](const char* name, double scale, const char* unit) {
    const double value = f.contains(name) ? f.at(name).get<double>() : 0.0;
    return fmt::format("{} {:.3g} {} ({:.1f}%)", name, scale * value, unit, 100 * spreads.at(name).get<double>());
  };
  fmt::print("  message layer (LogGP, least of the repeats; spread to the medians):\n    {}, {}, {}, {}, {}, {}\n",
             figure("L", 1e6, "us"), figure("o_send", 1e6, "us"), figure("o_recv", 1e6, "us"), figure("g", 1e6, "us"),
             figure("G", 1e9, "ns/B"), figure("O", 1e9, "ns/B"));
  fmt::print("  a message's send and receive calls, ns: as the layer prices them (o_send + o_recv + O x bytes) and timed\n");
  fmt::print("  {:>9} {:>9} {:>9}\n", "updates", "layer", "timed");
  for (const auto& row : notes.at("calls_priced")) {
    fmt::print("  {:>9} {:>9.1f} {:>9.1f}{}\n", row.at("updates").get<unsigned>(), row.at("layer_ns").get<double>(),
               row.at("timed_ns").get<double>(),
               row.at("in_fit").get<bool>() ? "" : "  (one word: below the kernel's sizes, outside the fit)");
  }
}

}  // namespace gups::calibrate
