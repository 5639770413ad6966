// What one gups run is asked to do, and the command line that sets it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernel/core/algorithm.hpp"
#include "kernel/core/operation_charges.hpp"
#include "kernel/core/shared_table.hpp"
#include "kernel/core/table_layout.hpp"

namespace CLI {
class App;
}

namespace gups {

// How a run checks its final table: every word (distributed, the HPCC way),
// or the table's checksums against a serial pass over the same stream in
// one process (simulations too large for the distributed check), or not.
enum class Verification { full, checksum, none };

std::string to_string(Verification verification);

// What carries updates between the cores of a node on a real machine:
// slots in memory the cores share, or MPI messages. Simulated nodes' cores
// hand off through messages and pay the machine file's costs.
enum class Handoffs { shared_memory, mpi };

std::string to_string(Handoffs handoffs);

// How routed and multicore send a bucket over the torus on a real machine.
// Synchronous: the bucket stays in flight, counted in the node's look-ahead,
// until the receiver has taken it, as every simulated send does. Standard:
// MPI may complete it at once (eager) and hold its updates in its own
// queues, counted by no one, as HPCC's reference (and direct) counts.
enum class TorusSends { synchronous, standard };

std::string to_string(TorusSends sends);

// Stream steps: the HPCC generator repeats after kPeriod steps, and the
// total is kept below 2^63 so that offset + steps never wraps.
inline constexpr std::uint64_t kMaxTotalUpdates = std::uint64_t{1} << 63;

// The most updates in flight per process or node that --lookahead takes.
inline constexpr std::uint64_t kMaxLookahead = std::uint64_t{1} << 24;

struct RunConfig {
  Algorithm algorithm = Algorithm::direct;
  unsigned log2_table = 22;
  unsigned updates_per_word = 4;
  OwnerMode owner = OwnerMode::division;
  std::uint64_t lookahead = 1024;
  std::string json_path;
  std::string shape;            // routed, multicore: "8x8x8"; empty: derived from the node count
  unsigned cores_per_node = 0;  // multicore; 0: the default of 4
  // multicore: "paper" (the fixed rule) or a PlanSpec such as 2xX/YZ+3.
  std::string role_plan = "paper";
  // routed, multicore: updates per bucket; 0: the sizing rule (look-ahead /
  // buckets per node). The paper's Table 4 sizes are a little above it.
  unsigned bucket_size = 0;
  bool explain = false;         // print the role plan and bucket sizes
  // Testing aid: flips this many table words after the update phase, so
  // the verification verdict and exit status can be checked end to end.
  std::uint64_t inject_errors = 0;
  // Testing aid (real runs): every update a routed or multicore core applies
  // takes this many nanoseconds longer, so that the updating core lags its
  // generator on purpose and the look-ahead budget has to hold it back.
  std::uint64_t slow_update_ns = 0;
  Handoffs handoffs = Handoffs::shared_memory;
  TorusSends sends = TorusSends::synchronous;
  // The paper's Table 1 (0: the algorithm's own, 1 or 8). Where a node's
  // cores share its table (modes 5, 6: direct), how their updates of it are
  // kept apart, and with how many striped locks.
  unsigned mapping_mode = 0;
  Protection protection = Protection::atomic;
  unsigned locks = 16;
  // Steps of the stream skipped before the first update (0: HPCC). The
  // stream starts from 1 and stays sparse for its first ~10^5 steps, which
  // skews short runs towards low indices (node 0); simulations of few
  // updates per node skip it.
  std::uint64_t stream_offset = 0;
  // Simulation only (gups-smpi): the per-core charges to pay, written by
  // the run plan from a machine file (empty: SMPI times the real code
  // instead), how to verify, and how often rank 0 reports progress (wall
  // seconds).
  std::string charges_path;
  Verification verify = Verification::full;
  // What carries the routing engine's messages: "mpi", or under SimGrid
  // "s4u" (the same messages without SMPI's per-call overhead: through
  // SimGrid's mailboxes at flow, timed by the level at the others) or
  // "s4u-comms" (through SimGrid's mailboxes at every level).
  std::string message_layer = "mpi";
  ModelledMechanisms mechanisms;  // simulation only, with a machine file
  bool link_load = false;         // simulation only: how busy the torus links were
  // Simulation only, at the levels that time messages themselves: a core's
  // sends and posts take effect at the end of its work, as events, and it
  // waits only to look (MessageSlots::runs_ahead); --no-run-ahead waits out
  // the work before each, for comparison.
  bool run_ahead = true;
  // With run_ahead: a look whose answer is already settled is answered
  // without waiting for the core's time (SimulatedMessages::early_looks);
  // --no-early-looks waits, for comparison.
  bool early_looks = true;
  double progress_seconds = 5;
  std::string progress_path;  // rank 0's progress as JSON lines too (gups-sim reads them)
  // Simulation only, routed and multicore: stop generating once the steady
  // state is settled within this relative tolerance (SteadyWatch), every
  // generator at the same count, and not before the leading one has
  // generated its share of settle_least updates a node (0: the whole
  // stream, as HPCC).
  double settle_tolerance = 0;
  std::uint64_t settle_least = 4096;

  std::uint64_t total_updates() const noexcept {
    return std::uint64_t{updates_per_word} << log2_table;
  }
};

struct ParsedCommandLine {
  enum class Outcome { run, help, error };
  Outcome outcome = Outcome::run;
  std::string message;  // the help text, or a one-line error
  RunConfig config;
};

// Pure: no MPI, no printing. `algorithms` lists the names --algo accepts;
// `simulated` adds the options of the SMPI build.
// gups's options whose values are names, as given, before they become the
// RunConfig's.
struct GupsOptionText {
  explicit GupsOptionText(const RunConfig& config);
  std::string algorithm, owner, protection, handoffs, sends;
};
// gups's options on `app`: what parse_command_line parses, and what
// gups-topology --catalogue exports (the simulated build's) for gups-sim.
void declare_gups_options(CLI::App& app, RunConfig& config, GupsOptionText& text,
                          const std::vector<std::string>& algorithms, bool simulated);

ParsedCommandLine parse_command_line(int argc, const char* const* argv,
                                     const std::vector<std::string>& algorithms,
                                     bool simulated = false);

}  // namespace gups
