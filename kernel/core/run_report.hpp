// The result of a run, as HPCC-style lines for a person and JSON for a script.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernel/core/local_table.hpp"
#include "kernel/core/run_config.hpp"
#include "kernel/core/host_load.hpp"
#include "kernel/core/shared_cores.hpp"
#include "kernel/core/steady_watch.hpp"
#include "kernel/core/update_stats.hpp"
#include "kernel/core/update_timeline.hpp"

namespace gups {

struct BuildInfo {
  std::string version;
  std::string git_commit;
  std::string compiler;
  std::string build_type;
  std::string mpi_library;
};

// One role's figures, summed over the nodes (busy time: mean per node).
struct CoreSummary {
  unsigned core = 0;
  std::string role;
  UpdateStats totals;
  double mean_busy_seconds = 0.0;
  double mean_stalled_seconds = 0.0;  // waiting while a bucket in flight held work back
  double mean_bucket_fill = 0.0;  // updates per message / bucket capacity
};

// How busy one class of links was over the update phase (simulated runs
// with --link-load): a torus dimension's, a fat-tree level's, a dragonfly
// colour's.
struct LinkClassLoad {
  unsigned dimension = 0;  // off the torus: the link class's number
  std::string link_class;  // off the torus: its name (a fat-tree level, a dragonfly colour)
  std::uint64_t links = 0;  // one per direction
  double bytes = 0;
  double mean_utilisation = 0;  // bytes / (bandwidth x seconds), averaged over the links
  double max_utilisation = 0;
};

// A run asked to settle its steady state (--settle-to): whether it did, and
// where its generators stopped.
struct SettlingReport {
  double tolerance = 0;
  std::uint64_t least_per_generator = 0;
  std::optional<SteadyWatch::Decision> decision;  // none: the whole stream ran
  std::uint64_t whole_stream_updates = 0;
};

SettlingReport settling_report(const SteadyWatch& watch, std::uint64_t whole_stream_updates);

struct RunResult {
  RunConfig config;
  int ranks = 0;
  OwnerMode owner_effective = OwnerMode::division;
  std::uint64_t total_words = 0;
  std::uint64_t max_local_words = 0;
  std::uint64_t updates = 0;
  double seconds = 0.0;
  TableChecksums checksums;
  // How the table was checked is config.verify; errors are counted by the
  // full check only, the checksum check compares with a serial pass's.
  std::uint64_t errors = 0;
  TableChecksums serial_checksums;
  bool passed = false;
  double verification_seconds = 0.0;
  double window_gups = 0.0;  // sum of the generators' steady-state rates
  SteadyState steady;        // applied updates per second over the middle of the run (0: not measured)
  UpdateTimeline applied_over_time;  // all ranks' applied updates, summed
  double first_generator_done = 0;   // seconds from the start: every node generates until then
  std::optional<SettlingReport> settling;  // runs asked to settle
  // Simulated runs: how many times the update phase's simulated cores
  // blocked and were resumed (simulation::wake_ups).
  std::optional<std::uint64_t> wake_ups;
  UpdateStats stats;
  std::uint64_t nodes = 0;
  unsigned cores_per_node = 1;
  std::string role_plan;  // multicore: the plan the cores followed, spelled as --role-plan takes it
  std::string shape;  // empty for direct
  unsigned mapping_mode = 1;
  std::uint64_t node_lookahead = 0;  // what a node may hold in its mode (0: the look-ahead)
  std::string handoffs;  // between a node's cores, in real runs: "shared memory" or "MPI messages"
  std::optional<SharedCores> shared_cores;  // real runs: the host whose ranks outnumber their cores most
  std::optional<double> others_cpu_share;   // real runs: how busy others kept the busiest host (host_load.hpp)
  std::uint64_t node_buckets = 0;
  std::uint64_t bucket_capacity = 0;
  // The most a node held at once, the largest over all nodes.
  std::uint64_t node_pending_bound = 0;
  // How node_pending_bound was found: every node's own count (one core, or
  // its cores counting in shared memory), or else the sum of each node's
  // cores' peaks, which may come at different times (an upper bound).
  bool node_pending_exact = false;
  std::vector<CoreSummary> cores;
  std::vector<LinkClassLoad> link_loads;  // empty: not measured
  BuildInfo build;

  double gups() const noexcept { return seconds > 0.0 ? 1e-9 * static_cast<double>(updates) / seconds : 0.0; }
};

std::string format_hpcc_lines(const RunResult& result);
nlohmann::json to_json(const RunResult& result);
std::string hex64(std::uint64_t value);

}  // namespace gups
