#include "kernel/core/run_report.hpp"

#include "kernel/core/mapping_mode.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace gups {

std::string hex64(std::uint64_t value) { return fmt::format("0x{:016x}", value); }

SettlingReport settling_report(const SteadyWatch& watch, std::uint64_t whole_stream_updates) {
  return {watch.tolerance(), watch.least_per_generator(), watch.decision(), whole_stream_updates};
}

namespace {

std::string settling_line(const SettlingReport& s, std::uint64_t updates) {
  if (!s.decision) {
    return fmt::format("Settling: NOT settled within {:.2f}% before the stream's end: the whole stream ran ({} updates)\n",
                       100 * s.tolerance, s.whole_stream_updates);
  }
  const auto& d = *s.decision;
  return fmt::format(
      "Settling: settled within {:.2f}% at {:.6g} s (steady {:.6f} GUP/s, standard error {:.2f}%, quarters {:.2f}% "
      "apart, a run of half the length {:.6f} GUP/s): every generator stopped at {} updates, {} of the whole "
      "stream's {} in all, and the table is checked against those\n",
      100 * s.tolerance, d.seconds, 1e-9 * d.check.run.rate, 100 * d.check.run.standard_error.value_or(0),
      100 * d.check.run.spread(), 1e-9 * d.check.half_run.rate, d.limit, updates, s.whole_stream_updates);
}

// Every message of the update phase, between nodes or between a node's cores.
std::uint64_t update_messages(const RunResult& r) { return r.stats.messages_sent + r.stats.local_messages_sent; }

nlohmann::json wake_ups_json(const RunResult& r) {
  if (!r.wake_ups) return nullptr;
  const auto messages = update_messages(r);
  return {{"count", *r.wake_ups},
          {"messages", messages},
          {"per_message", messages ? static_cast<double>(*r.wake_ups) / static_cast<double>(messages) : 0.0}};
}

nlohmann::json settling_json(const std::optional<SettlingReport>& settling) {
  if (!settling) return nullptr;
  nlohmann::json json{{"tolerance", settling->tolerance},
                      {"least_per_generator", settling->least_per_generator},
                      {"settled", settling->decision.has_value()},
                      {"whole_stream_updates", settling->whole_stream_updates}};
  if (const auto& d = settling->decision) {
    json.update({{"settled_at_seconds", d->seconds},
                 {"updates_per_generator", d->limit},
                 {"steady_gups", 1e-9 * d->check.run.rate},
                 {"standard_error", d->check.run.standard_error.value_or(0)},
                 {"quarters_apart", d->check.run.spread()},
                 {"half_run_steady_gups", 1e-9 * d->check.half_run.rate}});
  }
  return json;
}

nlohmann::json measured_or_null(double value) { return value > 0 ? nlohmann::json(value) : nlohmann::json(); }

// 3, 4, 5, 9 as "3-5, 9".
std::string number_ranges(const std::vector<unsigned>& sorted) {
  std::string text;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    text += (text.empty() ? "" : ", ") +
            (j == i ? fmt::format("{}", sorted[i]) : fmt::format("{}-{}", sorted[i], sorted[j]));
    i = j + 1;
  }
  return text;
}

}  // namespace

std::string format_hpcc_lines(const RunResult& r) {
  const bool power_of_two = std::has_single_bit(static_cast<unsigned>(r.ranks));
  std::string out;
  out += fmt::format("Running on {} processors ({})\n", r.ranks,
                     power_of_two ? "PowerofTwo" : "NonPowerofTwo");
  out += fmt::format("Algorithm = {}, owner = {}{}, lookahead = {}\n", to_string(r.config.algorithm),
                     to_string(r.owner_effective),
                     r.owner_effective != r.config.owner ? " (predict not valid here)" : "",
                     r.config.lookahead);
  if (!r.shape.empty()) {
    out += fmt::format("Torus = {} ({} nodes), {} core(s) per node, {} buckets x {} updates per node\n",
                       r.shape, r.nodes, r.cores_per_node, r.node_buckets, r.bucket_capacity);
  }
  if (!r.handoffs.empty()) out += fmt::format("Hand-offs between a node's cores = {}\n", r.handoffs);
  if (r.config.sends == TorusSends::standard && !r.shape.empty()) {
    out += "Torus sends = standard (MPI may hold a bucket's updates once sent: the look-ahead counts only the "
           "buckets, as HPCC's reference does)\n";
  }
  if (r.mapping_mode != default_mapping_mode(r.config.algorithm)) {
    out += fmt::format("Mapping mode = {} ({}){}\n", r.mapping_mode, mapping_mode(r.mapping_mode).describe(),
                       mapping_mode(r.mapping_mode).cores_share_table()
                           ? fmt::format(", {} core(s) per node share its table, protection = {}", r.cores_per_node,
                                         r.config.protection == Protection::locks
                                             ? fmt::format("{} locks", r.config.locks)
                                             : to_string(r.config.protection))
                           : "");
  }
  out += fmt::format("Total Main table size = 2^{} = {} words\n", r.config.log2_table,
                     r.total_words);
  // HPCC's line holds a rank's share; where a node's ranks share one slice
  // (multicore, mode 8), the slice is the node's and the line says so.
  if (r.cores_per_node <= 1) {
    out += fmt::format("PE Main table size = {} words/PE MAX\n", r.max_local_words);
  } else {
    out += fmt::format("Node Main table size = {} words/node MAX (one slice a node, its {} ranks share it)\n",
                       r.max_local_words, r.cores_per_node);
  }
  out += fmt::format("Number of updates EXECUTED = {}\n", r.updates);
  out += fmt::format("Real time used = {:.6f} seconds\n", r.seconds);
  out += fmt::format("{:.9f} Billion(10^9) Updates    per second [GUP/s]\n", r.gups());
  // The two HPCC lines above are what scripts parse; this one says what they measure.
  out += "Whole run: the time and rate above span the update phase, pipelines filling and draining included, "
         "on MPI_Wtime's clock (simulated time under SMPI)\n";
  out += shared_cores_line(r.shared_cores);
  out += host_load_line(r.others_cpu_share);
  if (r.window_gups > 0) {
    out += fmt::format("Generator window rate (each generator from 25% to 75% of its updates; overstates the "
                       "rate when updates pile up in buffers) = {:.9f} GUP/s\n",
                       r.window_gups);
  }
  if (r.steady.rate > 0) {
    out += fmt::format(
        "Steady state (updates applied from 25% to 75% of the time all nodes generate) = {:.9f} GUP/s "
        "(quarters {:.6f} and {:.6f}: {:.2f}% apart{})\n",
        1e-9 * r.steady.rate, 1e-9 * r.steady.first_quarter, 1e-9 * r.steady.second_quarter,
        100 * r.steady.spread(),
        r.steady.standard_error ? fmt::format("; standard error {:.2f}%", 100 * *r.steady.standard_error) : "");
  }
  if (r.settling) out += settling_line(*r.settling, r.updates);
  if (r.wake_ups && update_messages(r) > 0) {
    out += fmt::format("Simulated cores woken {} times in the update phase, {:.2f} per message (the simulation's own "
                       "cost: each is a context switch into a rank and back)\n",
                       *r.wake_ups, static_cast<double>(*r.wake_ups) / static_cast<double>(update_messages(r)));
  }
  out += fmt::format("{:.9f} Billion(10^9) Updates/PE per second [GUP/s]\n",
                     r.gups() / r.ranks);
  out += fmt::format("Table checksums before verification: sum = {}, xor = {}\n",
                     hex64(r.checksums.sum), hex64(r.checksums.xor_all));
  const std::uint64_t node_limit = r.node_lookahead ? r.node_lookahead : r.config.lookahead;
  const std::string limit = node_limit == r.config.lookahead
                                ? fmt::format("lookahead {}", node_limit)
                                : fmt::format("lookahead {} per core, {} per node", r.config.lookahead, node_limit);
  out += fmt::format("Most updates pending at once = {} ({}, {}; {})\n", r.node_pending_bound, limit,
                     r.node_pending_bound <= node_limit ? "within budget" : "OVER BUDGET",
                     r.node_pending_exact ? "each node's own count" : "sum of each node's cores' peaks");
  // A node of many hardware threads leaves most idle under some plans: they
  // are counted in one line, not one line each.
  std::vector<unsigned> idle;
  for (const auto& core : r.cores) {
    if (core.role == "idle") {
      idle.push_back(core.core);
      continue;
    }
    const double share = r.seconds > 0 ? core.mean_busy_seconds / r.seconds : 0.0;
    const double stalled = r.seconds > 0 ? core.mean_stalled_seconds / r.seconds : 0.0;
    out += fmt::format(
        "  core {} ({}): generated {}, sent {} in {} messages, handed on {}, applied {}, "
        "bucket fill {:.0f}%, busy {}\n",
        core.core, core.role, core.totals.generated, core.totals.updates_sent,
        core.totals.messages_sent, core.totals.updates_handed, core.totals.applied,
        100.0 * core.mean_bucket_fill,
        core.mean_busy_seconds > 0
            ? fmt::format("{:.0f}%, stalled on a full bucket {:.0f}%, waiting for input {:.0f}%", 100.0 * share,
                          100.0 * stalled, 100.0 * std::max(0.0, 1 - share - stalled))
            : "not measured");
  }
  if (!idle.empty()) {
    out += fmt::format("  {} idle core(s) or thread(s) of each node, with no role in the plan: {}\n", idle.size(),
                       number_ranges(idle));
  }
  out += fmt::format("Verification: Real time used = {:.6f} seconds\n", r.verification_seconds);
  switch (r.config.verify) {
    case Verification::full:
      out += fmt::format("Found {} errors in {} locations ({}).\n", r.errors, r.total_words,
                         r.passed ? "passed" : "failed");
      break;
    case Verification::checksum:
      out += fmt::format("Checksums of a serial pass over the same {} updates: sum = {}, xor = {} ({}).\n",
                         r.updates, hex64(r.serial_checksums.sum), hex64(r.serial_checksums.xor_all),
                         r.passed ? "equal: passed" : "different: failed");
      break;
    case Verification::none:
      out += "Verification skipped (--verify none).\n";
      break;
  }
  return out;
}

nlohmann::json to_json(const RunResult& r) {
  const auto& s = r.stats;
  auto cores = nlohmann::json::array();
  // An algorithm that keeps no busy clock (direct) has null shares, never a
  // 0 that was not measured; where it keeps one, an idle core's 0 is measured.
  const bool busy_measured = r.seconds > 0 && std::any_of(r.cores.begin(), r.cores.end(), [](const auto& core) {
                               return core.mean_busy_seconds > 0;
                             });
  for (const auto& core : r.cores) {
    const auto& t = core.totals;
    cores.push_back({{"core", core.core},
                     {"role", core.role},
                     {"generated", t.generated},
                     {"applied", t.applied},
                     {"forwarded", t.updates_sent + t.updates_handed},
                     {"updates_sent", t.updates_sent},
                     {"updates_received", t.updates_received},
                     {"updates_handed", t.updates_handed},
                     {"messages_sent", t.messages_sent},
                     {"messages_received", t.messages_received},
                     {"local_messages_sent", t.local_messages_sent},
                     {"local_messages_received", t.local_messages_received},
                     {"network_bytes_sent", t.network_bytes_sent},
                     {"receive_calls", t.receive_calls},
                     {"packets_received", t.packets_received},
                     {"max_pending", t.max_pending},
                     {"max_waiting_messages", t.max_waiting_messages},
                     {"mean_bucket_fill", core.mean_bucket_fill},
                     {"busy_seconds_mean", busy_measured ? nlohmann::json(core.mean_busy_seconds) : nullptr},
                     {"busy_share", busy_measured ? nlohmann::json(core.mean_busy_seconds / r.seconds) : nullptr},
                     {"stalled_seconds_mean", busy_measured ? nlohmann::json(core.mean_stalled_seconds) : nullptr},
                     {"stalled_share", busy_measured ? nlohmann::json(core.mean_stalled_seconds / r.seconds) : nullptr}});
  }
  auto links = nlohmann::json::array();
  for (const auto& load : r.link_loads) {
    links.push_back({{"dimension", load.dimension},
                     {"links", load.links},
                     {"bytes", load.bytes},
                     {"mean_utilisation", load.mean_utilisation},
                     {"max_utilisation", load.max_utilisation}});
    if (!load.link_class.empty()) links.back()["class"] = load.link_class;
  }
  // What an algorithm does not measure (direct keeps no timeline of applied
  // updates) is null: a script must tell "zero" from "not measured".
  const bool steady = r.steady.rate > 0;
  const auto& counts = r.applied_over_time.counts();
  const bool timeline = std::any_of(counts.begin(), counts.end(), [](double c) { return c > 0; });
  return {
      {"schema", "torus-gups/result/1"},
      {"algorithm", to_string(r.config.algorithm)},
      {"ranks", r.ranks},
      {"log2_table", r.config.log2_table},
      {"table_words", r.total_words},
      {"updates_per_word", r.config.updates_per_word},
      {"updates", r.updates},
      {"seconds", r.seconds},
      {"gups", r.gups()},
      {"window_gups", measured_or_null(r.window_gups)},
      {"steady_gups", steady ? nlohmann::json(1e-9 * r.steady.rate) : nullptr},
      {"steady_quarters_gups",
       steady ? nlohmann::json{1e-9 * r.steady.first_quarter, 1e-9 * r.steady.second_quarter} : nullptr},
      {"steady_spread", steady ? nlohmann::json(r.steady.spread()) : nullptr},
      {"steady_standard_error", r.steady.standard_error ? nlohmann::json(*r.steady.standard_error) : nlohmann::json()},
      // b of the network bound, as the run put its updates on the network.
      {"network_bytes_per_update",
       s.updates_sent ? static_cast<double>(s.network_bytes_sent) / static_cast<double>(s.updates_sent) : 0.0},
      {"first_generator_done_seconds", measured_or_null(r.first_generator_done)},
      {"settling", settling_json(r.settling)},
      {"wake_ups", wake_ups_json(r)},
      {"applied_timeline", timeline ? nlohmann::json{{"bin_seconds", r.applied_over_time.width()},
                                                      {"updates", r.applied_over_time.counts()}}
                                    : nullptr},
      {"errors", r.config.verify == Verification::full ? nlohmann::json(r.errors) : nlohmann::json()},
      {"passed", r.config.verify != Verification::none ? nlohmann::json(r.passed) : nlohmann::json()},
      {"verified", r.config.verify != Verification::none},
      {"verification", to_string(r.config.verify)},
      {"verification_seconds", r.verification_seconds},
      {"owner_requested", to_string(r.config.owner)},
      {"owner", to_string(r.owner_effective)},
      {"lookahead", r.config.lookahead},
      {"message_layer", r.config.message_layer},
      {"handoffs", r.handoffs.empty() ? nlohmann::json() : nlohmann::json(r.handoffs)},
      {"torus_sends", r.shape.empty() ? nlohmann::json() : nlohmann::json(to_string(r.config.sends))},
      {"cores_shared", shared_cores_json(r.shared_cores)},
      {"host_load", host_load_json(r.others_cpu_share)},
      {"mapping_mode", r.mapping_mode},
      {"protection", mapping_mode(r.mapping_mode).cores_share_table() ? nlohmann::json(to_string(r.config.protection))
                                                                     : nlohmann::json()},
      {"locks", r.config.protection == Protection::locks ? nlohmann::json(r.config.locks) : nlohmann::json()},
      {"node_lookahead", r.node_lookahead},
      {"injected_errors", r.config.inject_errors},
      {"checksums", {{"sum", hex64(r.checksums.sum)}, {"xor", hex64(r.checksums.xor_all)}}},
      {"counters",
       {{"generated", s.generated},
        {"applied", s.applied},
        {"updates_sent", s.updates_sent},
        {"updates_received", s.updates_received},
        {"messages_sent", s.messages_sent},
        {"messages_received", s.messages_received},
        {"network_bytes_sent", s.network_bytes_sent},
        {"max_pending", r.node_pending_bound},
        {"max_pending_counted", r.node_pending_exact ? "node" : "sum of cores"},
        {"max_pending_core", s.max_pending}}},
      {"nodes", r.nodes},
      {"cores_per_node", r.cores_per_node},
      {"role_plan", r.role_plan.empty() ? nlohmann::json() : nlohmann::json(r.role_plan)},
      {"shape", r.shape},
      {"node_buckets", r.node_buckets},
      {"bucket_capacity", r.bucket_capacity},
      {"cores", cores},
      {"link_load", r.link_loads.empty() ? nlohmann::json() : links},
      {"build",
       {{"version", r.build.version},
        {"git_commit", r.build.git_commit},
        {"compiler", r.build.compiler},
        {"build_type", r.build.build_type},
        {"mpi_library", r.build.mpi_library}}},
  };
}

}  // namespace gups
