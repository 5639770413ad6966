// gups-calibrate: measures this host's per-operation costs with the
// kernel's own code and writes them as a machine file ("host"), so that
// gups-model and gups-sim can predict this machine like any other.
#include <fmt/format.h>
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <bit>
#include <chrono>
#include <cmath>
#include <map>
#include <ctime>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "kernel/core/cli_checks.hpp"
#include "kernel/core/destination_buckets.hpp"
#include "kernel/core/host_memory.hpp"
#include "kernel/core/launcher_world.hpp"
#include "kernel/core/role_plan.hpp"
#include "kernel/core/route_step.hpp"
#include "models/calibrate/compute_costs.hpp"
#include "models/calibrate/handoff_costs.hpp"
#include "models/calibrate/host_layer.hpp"
#include "models/calibrate/message_costs.hpp"
#include "models/calibrate/routing_loop.hpp"
#include "models/src/machine.hpp"

namespace {

using namespace gups::calibrate;
using nlohmann::json;

struct Options {
  std::string output = "host.json";
  std::string name = "host";
  std::string json_path;  // the summary for scripts; the machine file is --output
  unsigned log2_table = 22;  // the host's whole table, as its runs hold it
  unsigned repeats = 5;
  std::string shape = "2x1x1";
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::vector<unsigned> message_sizes{64, 128, 256, 480};  // the bucket sizes in use here
  bool message_layer = false;  // write the LogGP layer in place of the call costs it derives
};

json timing_json(const Timing& t) { return {{"median_ns", t.median_ns}, {"min_ns", t.min_ns}, {"max_ns", t.max_ns}}; }

// A Blue Gene-sized table for the owner timings: only its layout is made.
constexpr unsigned kOwnerTableLog2 = 36;

struct Measured {
  double clock_hz = 0;
  std::string clock_source;
  double measured_clock_hz = 0;
  Timing generate, generate_update, generate_dependent_update, routed_update, route, direct_bucketing, poll;
  Timing stage_split;  // the hypercube's, per update and stage
  // The two table loops timed on every rank at once, each its own table.
  Timing generate_update_all_ranks, routed_update_all_ranks;
  // A routed run over the two ranks, one torus node each, as `gups --algo
  // routed` on them: its time beyond routed_update_all_ranks is its hops'.
  Timing routed_pair;
  int ranks = 1;
  unsigned log2_share = 0;  // each rank's share of the table when all update at once
  Timing owner_shift, owner_division, owner_prediction;
  std::vector<CallCost> calls;
  LinearFit send_fit, receive_fit;
  unsigned handoff_bucket = 0;
  std::optional<HandoffCost> handoff;  // empty when the ranks do not share a host
  LinkFigures link;
  CallCost small_call;  // one 8-byte word a message: LogGP's o
  LayerTimings layer;
};

// Each rank's figures averaged over the ranks.
Timing mean_over_ranks(MPI_Comm comm, Timing t) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  double values[] = {t.median_ns, t.min_ns, t.max_ns};
  MPI_Allreduce(MPI_IN_PLACE, values, 3, MPI_DOUBLE, MPI_SUM, comm);
  return {values[0] / ranks, values[1] / ranks, values[2] / ranks};
}

// The routed bucket whose call costs a hop shares, and the torus of the
// routed run over the two ranks whose time beyond its updates gives the hop.
struct RoutedRun {
  unsigned bucket;
  gups::TorusShape pair;
};
RoutedRun routed_run(const Options& options) {
  const auto shape = gups::TorusShape::parse(options.shape);
  return {gups::size_buckets(gups::RolePlan(1, shape.dimensions()), shape, 1024).capacity,
          gups::TorusShape::balanced(2, shape.dimensions())};
}

void fit_calls(Measured& m);

Measured measure(const Options& options, MPI_Comm comm, int rank) {
  Measured m;
  const auto routed = routed_run(options);
  if (rank == 0) {
    std::cerr << "gups-calibrate: clock, stream, table updates, routing, bucketing ...\n";
    m.clock_hz = clock_hz(m.clock_source);
    m.measured_clock_hz = measured_clock_hz();
    m.generate = time_generate(50'000'000, options.repeats);
    m.generate_update = time_generate_and_update(options.log2_table, 50'000'000, options.repeats);
    m.generate_dependent_update =
        time_generate_and_dependent_update(options.log2_table, 5'000'000, options.repeats);
    m.routed_update = time_routing_loop(MPI_COMM_SELF, options.log2_table, options.repeats);
    m.route = time_route(gups::TorusShape::parse("4x4x4"), routed.bucket, 20'000'000, options.repeats);
    m.direct_bucketing = time_direct_bucketing(64, 1024, 20'000'000, options.repeats);
    m.stage_split = time_stage_split(kOwnerTableLog2, 64, 1024, 20'000'000, options.repeats);
    // Owners among 64 (a shift) and 96 (the paper's smallest Table 3 size).
    using gups::OwnerMode;
    m.owner_shift = time_generate_and_owner(kOwnerTableLog2, 64, OwnerMode::division, 20'000'000, options.repeats);
    m.owner_division =
        time_generate_and_owner(kOwnerTableLog2, 96, OwnerMode::division, 20'000'000, options.repeats);
    m.owner_prediction =
        time_generate_and_owner(kOwnerTableLog2, 96, OwnerMode::predict, 20'000'000, options.repeats);
  }
  // Then every rank at once, as a direct or routed run on every core uses
  // the host: the cores share its caches and memory.
  if (rank == 0) std::cerr << "gups-calibrate: table updates on every rank at once ...\n";
  MPI_Comm_size(comm, &m.ranks);
  // The same table split over the ranks, as a run on every core splits it.
  const auto together = [comm] { MPI_Barrier(comm); };
  m.log2_share = options.log2_table + 1 - static_cast<unsigned>(std::bit_width(static_cast<unsigned>(m.ranks)));
  m.generate_update_all_ranks =
      mean_over_ranks(comm, time_generate_and_update(m.log2_share, 50'000'000, options.repeats, together));
  m.routed_update_all_ranks =
      mean_over_ranks(comm, time_routing_loop(MPI_COMM_SELF, m.log2_share, options.repeats, together));
  if (rank == 0) std::cerr << "gups-calibrate: a routed run over the ranks ...\n";
  m.routed_pair = mean_over_ranks(comm, time_routing_loop(comm, options.log2_table, options.repeats));
  if (rank == 0) std::cerr << "gups-calibrate: MPI send and receive calls, link ...\n";
  m.calls = time_calls(comm, options.message_sizes, 64, 3 * options.repeats);
  m.small_call = time_calls(comm, {1}, 64, 3 * options.repeats).front();
  if (rank == 0) std::cerr << "gups-calibrate: message layer and link (ping-pongs, trains) ...\n";
  m.layer = time_layer(comm, options.repeats);
  m.link = link_figures(m.layer);
  m.poll = time_poll(comm, 100'000, options.repeats);
  // A node's hand-offs at the bucket size multicore uses on one node of this host.
  const auto one_node = gups::TorusShape::parse("1x1x1");
  m.handoff_bucket = gups::size_buckets(gups::RolePlan(options.cores, 3), one_node, 1024).capacity;
  m.handoff = time_handoffs(rank, m.handoff_bucket, 2000, options.repeats);
  fit_calls(m);
  return m;
}

// The per-call and per-update costs of MPI's sends and receives, fitted to
// the calls' least times.
void fit_calls(Measured& m) {
  std::vector<double> sizes, sends, receives;
  for (const auto& c : m.calls) {
    sizes.push_back(c.updates);
    sends.push_back(c.send.min_ns);
    receives.push_back(c.receive.min_ns);
  }
  m.send_fit = fit_line(sizes, sends);
  m.receive_fit = fit_line(sizes, receives);
}

// The figures as their typical repeat gives them: each timing's median in
// place of its least.
Measured at_medians(Measured m) {
  const auto typical = [](Timing& t) { t.min_ns = t.median_ns; };
  for (Timing* t : {&m.generate, &m.generate_update, &m.generate_dependent_update, &m.routed_update, &m.route,
                    &m.direct_bucketing, &m.stage_split, &m.poll, &m.generate_update_all_ranks, &m.routed_update_all_ranks,
                    &m.routed_pair, &m.owner_shift, &m.owner_division, &m.owner_prediction}) {
    typical(*t);
  }
  for (auto& call : m.calls) {
    typical(call.send);
    typical(call.receive);
  }
  if (m.handoff) {
    typical(m.handoff->publish);
    typical(m.handoff->take);
  }
  fit_calls(m);
  return m;
}

// Each cost's spread: how far the machine at the medians lies above the one
// at the least times (0 where the medians are no higher).
std::map<std::string, double> cost_spread(const gups::model::CycleCosts& least,
                                          const gups::model::CycleCosts& typical) {
  std::map<std::string, double> spread;
  for (const auto& name : gups::model::cost_names()) {
    const double low = gups::model::cost_named(least, name), high = gups::model::cost_named(typical, name);
    // Every timed cost has one (0 where the medians are no higher), so that each is a measured input.
    spread[name] = relative_spread(low, high);
  }
  return spread;
}

// Per update, besides the calls: a routing core's routing step and the copy
// of what it hands on; every core but the generating one, the copy of what
// it takes. Copies through the node's shared hand-off slots where the ranks
// share a host (multicore's default), else MPI's copy slopes (hop).
double core_overhead_ns(const gups::CoreRole& role, const Measured& m, double hop) {
  if (!m.handoff) return role.routes() ? hop : m.receive_fit.slope;
  return (role.routes() ? m.route.min_ns + m.handoff->publish.min_ns : 0) +
         (role.generates ? 0 : m.handoff->take.min_ns);
}

// A timing whose median of the repeats lies this far above their least was
// disturbed (the least is what a cost takes): the user hears of it.
constexpr double kUnstableSpread = 0.10;

// What the user should know about a calibration: costs timed on a busy host,
// and costs that came out below 0 (a loop timed faster than the part of it
// subtracted) and were clamped to 0. One line each, on stderr and in the file.
std::vector<std::string> calibration_warnings(const Measured& m, unsigned repeats) {
  std::vector<std::string> warnings;
  const std::pair<const char*, const Timing*> timed[] = {
      {"generate", &m.generate},           {"generate_and_update", &m.generate_update},
      {"routed_update", &m.routed_update}, {"route", &m.route},
      {"direct_bucketing", &m.direct_bucketing}, {"stage_split", &m.stage_split}, {"poll", &m.poll},
      {"generate_and_update_all_ranks", &m.generate_update_all_ranks},
      {"routed_update_all_ranks", &m.routed_update_all_ranks}, {"routed_pair", &m.routed_pair}};
  for (const auto& [name, timing] : timed) {
    if (timing->min_ns > 0 && timing->median_ns > (1 + kUnstableSpread) * timing->min_ns) {
      warnings.push_back(fmt::format("{} unstable: the median of {} repeats is {:.0f}% above their least (a busy "
                                     "host? the least is kept)",
                                     name, repeats, 100 * (timing->median_ns / timing->min_ns - 1)));
    }
  }
  const std::tuple<const char*, double, double> differences[] = {
      {"routing_hop", m.routed_pair.min_ns, m.routed_update_all_ranks.min_ns},
      {"update", m.routed_update.min_ns, m.generate.min_ns},
      {"update_streamed", m.generate_update.min_ns, m.generate.min_ns},
      {"update_all_cores", m.routed_update_all_ranks.min_ns, m.generate.min_ns},
      {"update_streamed_all_cores", m.generate_update_all_ranks.min_ns, m.generate.min_ns},
      {"owner_division", m.owner_division.min_ns, m.owner_shift.min_ns},
      {"owner_prediction", m.owner_prediction.min_ns, m.owner_shift.min_ns}};
  for (const auto& [name, whole, part] : differences) {
    if (whole < part) {
      warnings.push_back(fmt::format("costs_cycles.{} clamped to 0: its loop took {:.2f} ns, less than the {:.2f} ns "
                                     "of what it contains", name, whole, part));
    }
  }
  return warnings;
}

// ns per update per software hop, its parts timed alone: the routing step
// and the per-update copy slopes.
double hop_parts_ns(const Measured& m) { return m.route.min_ns + m.send_fit.slope + m.receive_fit.slope; }

// The timed figures as costs in cycles (the least of the repeats throughout:
// interference from other work only adds time).
gups::model::CycleCosts host_costs(const Options& options, const Measured& m) {
  const double cycles_per_ns = m.clock_hz * 1e-9;
  const auto cycles = [&](double ns) { return ns * cycles_per_ns; };
  const auto routed = routed_run(options);
  const double tg = m.generate.min_ns;
  const double per_update_copy = m.send_fit.slope + m.receive_fit.slope;
  gups::model::CycleCosts c;
  c.generate = cycles(tg);
  c.update = cycles(std::max(0.0, m.routed_update.min_ns - tg));
  c.update_streamed = cycles(std::max(0.0, m.generate_update.min_ns - tg));
  c.update_all_cores = cycles(std::max(0.0, m.routed_update_all_ranks.min_ns - tg));
  c.update_streamed_all_cores = cycles(std::max(0.0, m.generate_update_all_ranks.min_ns - tg));
  c.loop_overhead = 0;
  c.send_call = cycles(m.send_fit.intercept);
  c.receive_call = cycles(m.receive_fit.intercept);
  c.receive_call_batched = c.receive_call;
  c.receive_batch_packets = 1;
  // The paper's method: the per-hop cost from the smallest routed run, here
  // the two ranks' (their shape's expected hops per update).
  c.routing_hop =
      cycles(std::max(0.0, m.routed_pair.min_ns - m.routed_update_all_ranks.min_ns)) / routed.pair.expected_hops();
  c.message_overhead = cycles(m.direct_bucketing.min_ns + per_update_copy + m.poll.min_ns / gups::kDirectUpdatesPerPoll);
  c.routing_hop_without_calls = std::max(0.0, c.routing_hop - (c.send_call + c.receive_call) / routed.bucket);
  const gups::RolePlan plan(options.cores, 3);
  for (unsigned core = 0; core < plan.cores(); ++core) {
    c.core_overhead.push_back(cycles(core_overhead_ns(plan.role(core), m, hop_parts_ns(m))));
  }
  c.stage_split = cycles(m.stage_split.min_ns);
  c.owner_division = cycles(std::max(0.0, m.owner_division.min_ns - m.owner_shift.min_ns));
  c.owner_prediction = cycles(std::max(0.0, m.owner_prediction.min_ns - m.owner_shift.min_ns));
  return c;
}

// The timed figures as a machine, written by the machine file's one writer.
gups::model::Machine host_machine(const Options& options, const Measured& m, const std::string& command) {
  const auto routed = routed_run(options);
  const auto memory = gups::available_host_memory_bytes();
  const auto now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));

  gups::model::Machine machine;
  machine.name = options.name;
  machine.description = fmt::format(
      "this host, calibrated by gups-calibrate on {}: {} cores, 2 MPI ranks over shared memory", date, options.cores);
  machine.clock_hz = m.clock_hz;
  machine.cores_per_node = options.cores;
  machine.memory_per_node_bytes = memory ? static_cast<double>(*memory) : 1e9;
  machine.torus = {3, 64, 0, {}, {}, {}};
  machine.link_bandwidth = m.link.bandwidth_bytes_per_s;
  machine.link_latency = m.link.latency_s;
  machine.packet = {4096, 8, 32, 0, 8};
  machine.costs = host_costs(options, m);
  const auto& c = machine.costs;
  const double composed_hop = (c.send_call + c.receive_call) / routed.bucket + hop_parts_ns(m) * m.clock_hz * 1e-9;
  machine.sources = {
      {"clock_hz", m.clock_source},
      {"costs_cycles.generate", "timed: HPCC stream steps; every timed figure is the least of the repeats"},
      {"costs_cycles.loop_overhead", "timed within generate: the loop around each stream step is in its figure"},
      {"costs_cycles.update",
       fmt::format("timed on rank 0 while the other ranks wait: the kernel's routing loop (run_routed) on a "
                   "one-node torus of 2^{} words, all updates its own (the stream {} updates ahead with the "
                   "words to apply prefetched, RouteStep, the write, the turn loop), less generate; one update "
                   "at a time with each write depending on the last: generate_and_dependent_update in measured",
                   options.log2_table, gups::kRoutingGenerateBatch)},
      {"costs_cycles.update_streamed",
       fmt::format("timed: stream step plus T[a & mask] ^= a on 2^{} words, less generate: the core overlaps "
                   "the misses of independent updates (direct applies its own updates in such loops, and so does a "
                   "core that only updates, its received ones)",
                   options.log2_table)},
      {"costs_cycles.update_all_cores",
       fmt::format("timed: as update, on {} ranks at once, each its share (2^{} words) of the 2^{}-word table "
                   "(together from a barrier before every repeat), each rank's least averaged over the ranks{}",
                   m.ranks, m.log2_share, options.log2_table,
                   static_cast<unsigned>(m.ranks) < options.cores
                                ? fmt::format(" (assumed the figure for all {} cores: only {} were timed)",
                                              options.cores, m.ranks)
                                : std::string())},
      {"costs_cycles.update_streamed_all_cores", "timed: as update_streamed, on every rank at once, as update_all_cores"},
      {"costs_cycles.send_call", "timed: MPI_Send of messages of 64..480 updates (the bucket sizes in use) "
                                 "to a rank that is not receiving, least of the repeats; the intercept of a "
                                 "straight-line fit (the slope is a per-update copy)"},
      {"costs_cycles.receive_call", "timed: MPI_Recv of messages that have all arrived; intercept of the fit"},
      {"costs_cycles.receive_call_batched", "the kernel receives one message per call: same as receive_call"},
      {"costs_cycles.routing_hop",
       fmt::format("derived from the smallest routed run, as the paper derived its per-hop cost: the kernel's "
                   "routed run over the 2 ranks (routed_pair: torus {}, {} hops per update) less "
                   "routed_update_all_ranks, per hop. It holds what a hop costs in a run, beyond its parts timed "
                   "alone (routing_hop_composed in notes: the call costs over the {}-update bucket, RouteStep on "
                   "node 0 of a 4x4x4 torus and the per-update copy slopes): the sender waits for its bucket until "
                   "the receiver's next MPI call, and the ranks alternate between routing and waiting",
                   routed.pair.to_string(), routed.pair.expected_hops(), routed.bucket)},
      {"costs_cycles.routing_hop_without_calls",
       "routing_hop less its call costs over the bucket (a simulated routed core pays its send and receive calls "
       "per message besides)"},
      {"costs_cycles.message_overhead",
       fmt::format("timed: the HPCC bucket policy (insert, send the fullest) for 64 destinations, the per-update "
                   "copy slopes, and an MPI_Test of a pending receive every {} updates (how often direct polls)",
                   gups::kDirectUpdatesPerPoll)},
      {"costs_cycles.owner_division",
       fmt::format("timed: stream step plus the owner among 96 of 2^{} words by HPCC's divisions, less the same "
                   "among 64 (a shift)", kOwnerTableLog2)},
      {"costs_cycles.owner_prediction", "timed: as owner_division, by the paper's prediction (4.2)"},
      {"costs_cycles.stage_split",
       fmt::format("timed: the hypercube's stage loop over a chunk of 1,024 updates, each kept or put out by the half "
                   "of 64 owners of 2^{} words its index lies in (stage_split in notes)", kOwnerTableLog2)},
      {"costs_cycles.core_overhead",
       m.handoff ? fmt::format("per update: a routing core's routing step (as in routing_hop) and its copy into the "
                               "next core's hand-off slot; every core but the first, its copy out of the slot "
                               "before it: timed between the two ranks through a slot in a shared window, "
                               "{}-update buckets, each side its own copies (handoff in notes). Sends along the "
                               "torus (more than one node) would copy at MPI's slopes instead", m.handoff_bucket)
                 : std::string("routing cores: per send, as routing_hop without the call costs; updating cores: "
                               "the receive copy per update (the ranks share no host: MPI's copy slopes)")},
      {"torus", "timed: half an 8-byte MPI ping-pong (latency), 4 MiB ping-pongs (bandwidth, each way)"},
      {"packet", "shared memory has no packets: a message up to Open MPI's 4 KiB eager limit counts as one, "
                 "32 bytes of match header assumed"}};
  machine.sources["packet.header_bytes"] = {
      "Open MPI's match header on shared memory, not timed", {{"kind", "assumed"},
                                                               {"source", "Open MPI's match header on shared memory, "
                                                                          "not timed: from 16 to 64 bytes"},
                                                               {"range", {16, 64}}}};
  machine.sources["packet.ack_bytes"] = {
      "shared memory acknowledges nothing",
      {{"kind", "published"}, {"source", "shared memory acknowledges nothing"}, {"precision", 0}}};
  json calls = json::array();
  for (const auto& call : m.calls) {
    calls.push_back(
        {{"updates", call.updates}, {"send", timing_json(call.send)}, {"receive", timing_json(call.receive)}});
  }
  machine.notes = {{"command", command},
                   {"date", date},
                   {"repeats", options.repeats},
                   {"measured_clock_hz", m.measured_clock_hz},
                   {"generate", timing_json(m.generate)},
                   {"generate_and_owner_of_64", timing_json(m.owner_shift)},
                   {"generate_and_owner_of_96_by_division", timing_json(m.owner_division)},
                   {"generate_and_owner_of_96_by_prediction", timing_json(m.owner_prediction)},
                   {"generate_and_update", timing_json(m.generate_update)},
                   {"generate_and_dependent_update", timing_json(m.generate_dependent_update)},
                   {"routed_update", timing_json(m.routed_update)},
                   {"generate_and_update_all_ranks", timing_json(m.generate_update_all_ranks)},
                   {"routed_update_all_ranks", timing_json(m.routed_update_all_ranks)},
                   {"routed_pair", timing_json(m.routed_pair)},
                   {"routing_hop_composed", composed_hop},
                   {"route", timing_json(m.route)},
                   {"direct_bucketing", timing_json(m.direct_bucketing)},
                   {"stage_split", timing_json(m.stage_split)},
                   {"poll", timing_json(m.poll)},
                   {"calls", calls},
                   {"send_fit_ns", {{"intercept", m.send_fit.intercept}, {"per_update", m.send_fit.slope}}},
                   {"receive_fit_ns", {{"intercept", m.receive_fit.intercept}, {"per_update", m.receive_fit.slope}}},
                   {"warnings", calibration_warnings(m, options.repeats)}};
  if (m.handoff) {
    machine.notes["handoff"] = {{"updates", m.handoff_bucket},
                                {"publish_ns_per_update", timing_json(m.handoff->publish)},
                                {"take_ns_per_update", timing_json(m.handoff->take)}};
  }
  return machine;
}

// Each timed cost is a measured input: its range runs from its least
// timing to its median (costs_cycles_spread), none chosen by hand.
void declare_measured(gups::model::Machine& machine) {
  for (auto& [field, source] : machine.sources) {
    if (!field.starts_with("costs_cycles.")) continue;
    source.declared = {{"kind", "measured"}, {"source", source.text}};
  }
}

void print_summary(const gups::model::Machine& machine) {
  const auto& c = machine.costs;
  fmt::print("machine '{}' at {:.0f} MHz ({})\n", machine.name, machine.clock_hz * 1e-6,
             machine.sources.at("clock_hz").text);
  fmt::print("  {:<26} {:>9} {:>8}\n", "cost", "cycles", "spread");
  const auto spread = [&machine](const std::string& name) {
    const auto found = machine.cost_spread.find(name);
    return found == machine.cost_spread.end() ? std::string("-") : fmt::format("{:.1f}%", 100 * found->second);
  };
  const std::pair<const char*, double> costs[] = {
      {"generate", c.generate},         {"update", c.update},
      {"update_streamed", c.update_streamed}, {"update_all_cores", c.update_all_cores},
      {"update_streamed_all_cores", c.update_streamed_all_cores}, {"send_call", c.send_call},
      {"receive_call", c.receive_call}, {"routing_hop", c.routing_hop},
      {"message_overhead", c.message_overhead}, {"owner_division", c.owner_division},
      {"owner_prediction", c.owner_prediction}, {"stage_split", c.stage_split}};
  for (const auto& [key, cycles] : costs) fmt::print("  {:<26} {:>9.1f} {:>8}\n", key, cycles, spread(key));
  for (std::size_t i = 0; i < c.core_overhead.size(); ++i) {
    fmt::print("  {:<26} {:>9.1f} {:>8}\n", fmt::format("core_overhead[{}]", i), c.core_overhead[i],
               spread("core_overhead"));
  }
  fmt::print("  link: {:.2f} GB/s each way, {:.2f} us latency\n", machine.link_bandwidth * 1e-9,
             machine.link_latency * 1e6);
}

// What a script reads of a calibration: the machine file's costs with their
// spreads (null where a cost has none), its clock and the time taken.
bool write_summary_json(const std::string& path, const gups::model::Machine& machine, const std::string& machine_file,
                        double seconds) {
  const auto file = gups::model::to_json(machine);
  json spreads = json::object();
  for (const auto& [name, cycles] : file.at("costs_cycles").items()) {
    const auto found = machine.cost_spread.find(name);
    spreads[name] = found == machine.cost_spread.end() ? json(nullptr) : json(found->second);
  }
  json summary{{"machine_file", machine_file},  {"name", machine.name},
                     {"clock_hz", machine.clock_hz},  {"costs_cycles", file.at("costs_cycles")},
                     {"cost_spread", spreads},        {"link_bandwidth_bytes_per_s", machine.link_bandwidth},
                     {"link_latency_s", machine.link_latency}, {"wall_seconds", seconds}};
  if (file.contains("message_layer")) summary["message_layer"] = file.at("message_layer");
  std::ofstream out(path);
  out << summary.dump(2) << "\n";
  return static_cast<bool>(out);
}

void declare_options(CLI::App& app, Options& options) {
  app.add_option("--output,-o", options.output, "machine file to write")
      ->check(gups::cli::kOutputFile)
      ->capture_default_str();
  app.add_option("--name", options.name, "machine name in the file")->capture_default_str();
  app.add_option("--json", options.json_path,
                 "also write what was measured (each cost in cycles with its spread, the clock, the time taken) "
                 "as JSON to this file")
      ->check(gups::cli::kOutputFile);
  app.add_option("--log2-table", options.log2_table,
                 "the host's whole table, 2^N words (as gups --log2-table): one core alone updates all of it, every "
                 "rank at once its share")
      ->check(CLI::Range(10u, 34u))
      ->capture_default_str();
  app.add_option("--repeats", options.repeats, "repeats of every measurement (the least is kept: interference only adds time)")
      ->check(CLI::Range(1u, 100u))
      ->capture_default_str();
  app.add_option("--shape", options.shape, "routed torus whose bucket size sets routing_hop")->capture_default_str();
  app.add_flag("--message-layer", options.message_layer,
               "write this host's message layer (LogGP: L, o_send, o_recv, g, G, each with its spread) and the call "
               "costs derived from it, in place of the call costs timed directly (docs/models.md, 'The message layer')");
  app.add_option("--cores", options.cores, "cores per node (default: this host's)")->check(CLI::Range(1u, 1024u));
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // Another MPI's launcher starts one-rank runs, each of which would refuse
  // its single rank: the first says why instead.
  if (gups::refuse_another_mpis_launcher("gups-calibrate", ranks, "the one it was built with")) {
    MPI_Finalize();
    return 2;
  }
  Options options;
  CLI::App app{"gups-calibrate: measure this host's per-operation costs and write a machine file. "
               "Run with 2 ranks: mpirun -np 2 gups-calibrate"};
  declare_options(app, options);
  int status = 0;
  try {
    app.parse(argc, argv);
    gups::TorusShape::parse(options.shape);
    if (ranks != 2) throw std::invalid_argument(fmt::format("needs 2 ranks (mpirun -np 2), has {}", ranks));
  } catch (const CLI::CallForHelp&) {
    if (rank == 0) fmt::print("{}", app.help());
    status = -1;
  } catch (const std::exception& e) {
    if (rank == 0) fmt::print(stderr, "gups-calibrate: error: {}\n", e.what());
    status = 2;
  }
  if (status != 0) {
    MPI_Finalize();
    return status < 0 ? 0 : status;
  }
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  const auto started = std::chrono::steady_clock::now();
  const auto measured = measure(options, MPI_COMM_WORLD, rank);
  if (rank == 0) {
    auto machine = host_machine(options, measured, command);
    machine.cost_spread = cost_spread(machine.costs, host_costs(options, at_medians(measured)));
    declare_measured(machine);
    const auto layer = fit_host_layer(measured.calls, measured.small_call, measured.layer);
    machine.notes["message_layer"] = message_layer_notes(layer, measured.calls, measured.small_call);
    if (options.message_layer) give_message_layer(machine, layer);
    std::ofstream out(options.output);
    out << gups::model::to_json(machine).dump(2) << "\n";
    if (!out) {
      fmt::print(stderr, "gups-calibrate: error: cannot write {}\n", options.output);
      status = 2;
    } else {
      print_summary(machine);
      print_message_layer(machine.notes.at("message_layer"));
      for (const auto& warning : machine.notes.at("warnings")) {
        fmt::print(stderr, "gups-calibrate: warning: {}\n", warning.get<std::string>());
      }
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      fmt::print("wrote {} in {:.1f} s\n", options.output, seconds);
      if (!options.json_path.empty() && !write_summary_json(options.json_path, machine, options.output, seconds)) {
        fmt::print(stderr, "gups-calibrate: error: cannot write {}\n", options.json_path);
        status = 2;
      }
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
