// gups: the driver of every program variant (kernel/core/variants.def), on
// real MPI or, compiled with smpicxx, as gups-smpi under SimGrid. Every rank
// parses the same command line and checks the same limits, so a bad input
// stops all ranks alike, with one message from rank 0, instead of leaving
// some of them waiting.
#include <mpi.h>

#include <algorithm>
#include <fmt/format.h>
#include <cstdio>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "kernel/apex_map/probe.hpp"
#include "kernel/core/launcher_world.hpp"
#include "kernel/core/option_scopes.hpp"
#include "kernel/core/program_variants.hpp"
#include "kernel/core/result_output.hpp"
#include "kernel/core/run_report.hpp"
#include "kernel/core/stream_stretches.hpp"
#include "kernel/exchange/probe.hpp"
#include "kernel/mpi/distributed_verification.hpp"
#include "kernel/mpi/host_memory_check.hpp"
#include "kernel/mpi/host_sharing.hpp"
#include "kernel/mpi/link_load.hpp"
#include "kernel/mpi/patient_collectives.hpp"
#include "kernel/mpi/phase_barrier.hpp"
#include "kernel/mpi/progress_report.hpp"
#include "kernel/mpi/run_statistics.hpp"
#include "kernel/mpi/simulation.hpp"
#include "kernel/mpi/update_algorithm.hpp"

namespace gups {
namespace {

constexpr int kExitBadInput = 2;
constexpr int kExitVerificationFailed = 1;

class MpiSession {
 public:
  MpiSession(int* argc, char*** argv) { MPI_Init(argc, argv); }
  ~MpiSession() { MPI_Finalize(); }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string version(text, static_cast<std::size_t>(length));
  // Its first line up to a comma: "Open MPI v4.1.4", "MPICH Version:\t4.0.2",
  // the latter as "MPICH 4.0.2".
  version = version.substr(0, version.find_first_of(",\n"));
  if (const auto label = version.find(" Version:"); label != std::string::npos) {
    const auto number = version.find_first_not_of(" \t", label + std::string(" Version:").size());
    version = version.substr(0, label) + " " + (number == std::string::npos ? "" : version.substr(number));
  }
  return version;
}

BuildInfo build_info() {
  return {GUPS_VERSION, GUPS_GIT_COMMIT, std::string("g++ ") + __VERSION__, GUPS_BUILD_TYPE,
          mpi_library_version()};
}

// Besides its table a rank holds, for each update of its look-ahead, a bucket
// slot (value and link: 12 bytes), a send buffer word and a receive buffer
// word, rounded up to three words; and for each peer rank a bucket's head,
// tail, count and count-list entries (DestinationBuckets: six 32-bit words).
constexpr double kBytesPerPendingUpdate = 3 * sizeof(std::uint64_t);
constexpr double kBytesPerPeerRank = 6 * sizeof(std::uint32_t);

// Every host checks that the tables of all its ranks fit before any is
// allocated; the first host short of memory says so.
std::optional<std::string> check_host_memory(const TableLayout& layout, unsigned cores_per_node,
                                             const RunConfig& config, int rank, int ranks) {
  // Whichever core of a node holds the table, the node's words are on its host.
  // In doubles: 2^62 words are 2^65 bytes, which no integer here holds.
  const double table_bytes = 8.0 * static_cast<double>(layout.local_words(0)) / cores_per_node;
  const double buffer_bytes = kBytesPerPendingUpdate * static_cast<double>(config.lookahead) +
                             kBytesPerPeerRank * static_cast<double>(ranks);
  return host_memory_shortfall(table_bytes + buffer_bytes,
                               "a table of 2^" + std::to_string(config.log2_table) + " words", rank);
}

// A node whose ranks are on several hosts works, through MPI messages, but
// not as its cores would on one node: the user hears of it once.
void note_nodes_over_hosts(const NodeGroup& node, unsigned cores_per_node, int rank) {
  const int first = first_rank_with(!node.shares_host(), rank, MPI_COMM_WORLD);
  if (first < 0 || rank != first) return;
  std::fprintf(stderr,
               "gups: note: the %u ranks of node %d are not all on one host (place a node's ranks together, "
               "e.g. mpirun --map-by slot with slots a multiple of %u); its cores hand updates on through MPI "
               "messages, and its pending count is the sum of its cores' peaks\n",
               cores_per_node, rank / static_cast<int>(cores_per_node), cores_per_node);
}

// A different pattern in each word: the same bit flipped in two words would
// leave both checksums (sum mod 2^64, xor) as they were.
void inject_errors(LocalTable& table, std::uint64_t count) {
  constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ULL;
  for (std::uint64_t g = table.global_start(); g < count && table.owns(g); ++g) {
    table.apply(g, kGolden * (g + 1));
  }
}

// What carried updates between the cores of a node in this run, if any did.
std::string handoffs_description(const AlgorithmSetup& setup, bool shared) {
  if (simulation::active() || setup.cores_per_node < 2 || !setup.shape) return "";
  return shared ? "shared memory" : "MPI messages";
}

// Checks the final table as config.verify asks, against what the run
// generated (`stretches`: run_stretches of the plan and its limit); every
// rank returns the verdict, rank 0's result also gets the figures behind it.
// The stretches are listed only where they are read: a settled run has one a
// pipeline, and at scale every rank holding the list would cost as much as
// the table.
bool verify(const RunConfig& config, const TableDistribution& distribution,
            const std::function<const std::vector<StreamStretch>&()>& stretches, int rank, LocalTable& table,
            RunResult& result) {
  const auto& layout = distribution.node_layout();
  switch (config.verify) {
    case Verification::full: {
      reapply_stream(MPI_COMM_WORLD, distribution, stretches(), table);
      const std::uint64_t local_errors = table.count_errors();
      patient::allreduce(&local_errors, &result.errors, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
      return verification_passed(result.errors, layout.total_words());
    }
    case Verification::checksum: {
      // The run's checksums were reduced to rank 0, which redoes the run alone.
      int equal = 0;
      if (rank == 0) {
        result.serial_checksums = serial_checksums(layout, stretches());
        equal = result.serial_checksums == result.checksums ? 1 : 0;
      }
      patient::bcast(&equal, 1, MPI_INT, 0, MPI_COMM_WORLD);
      return equal == 1;
    }
    case Verification::none:
      break;
  }
  return true;
}

int run(int rank, int ranks, const RunConfig& config, const AlgorithmSetup& setup,
        const TableLayout& layout, OperationCosts& costs, std::optional<LinkLoad>& links,
        const PhaseReport& phases) {
  const auto& algorithms = update_algorithms();
  const auto algorithm = std::find_if(algorithms.begin(), algorithms.end(),
                                      [&](const auto& entry) { return entry.algorithm == config.algorithm; });
  const OwnerFinder owner_of(layout, config.owner);
  if (rank == 0 && owner_of.fell_back()) {
    std::fprintf(stderr,
                 "gups: note: owner prediction needs fewer owners (%llu) than words per owner "
                 "(%llu); using division\n",
                 static_cast<unsigned long long>(layout.owners()),
                 static_cast<unsigned long long>(layout.min_local_words()));
  }
  if (rank == 0 && config.explain) std::fputs(setup.explain(setup.limits.per_node).c_str(), stdout);

  const TableDistribution distribution(layout, setup.cores_per_node, setup.updater_cores());
  const auto slice = distribution.slice_of_rank(static_cast<std::uint64_t>(rank));
  std::optional<NodeGroup> node;
  if (!simulation::active() && setup.cores_per_node > 1) node.emplace(rank, setup.cores_per_node);
  // Modes 5 and 6: the node's table is one array in memory its cores share.
  std::optional<SharedNodeTable> shared_table;
  std::optional<LocalTable> own_table;
  if (setup.cores_share_table()) {
    const int apart = first_rank_with(!node->shares_host(), rank, MPI_COMM_WORLD);
    if (apart >= 0) {
      if (rank == apart) {
        std::fprintf(stderr,
                     "gups: error: mapping mode %u shares each node's table between its %u cores, and the ranks of "
                     "node %d are not all on one host (place a node's ranks together, e.g. mpirun --map-by slot)\n",
                     setup.mode.number, setup.cores_per_node, rank / static_cast<int>(setup.cores_per_node));
      }
      return kExitBadInput;
    }
    const auto node_index = static_cast<std::uint64_t>(rank) / setup.cores_per_node;
    shared_table.emplace(*node, slice, layout.global_start(node_index), config.protection, config.locks);
  } else {
    own_table.emplace(slice.global_start, slice.words);
    own_table->initialise();
  }
  LocalTable& table = shared_table ? shared_table->slice() : *own_table;

  // No MPI_Comm_dup: SMPI copies the whole group into each rank's duplicate
  // (12 bytes per rank, per rank). The update phase's tags cannot meet the
  // collectives', which MPI keeps apart, and it ends with every message received.
  // Nodes of several cores count what they hold, and hand updates on, in
  // memory the cores share.
  std::optional<NodePending> node_pending;
  std::optional<NodeHandoffs> handoffs;
  if (node && setup.shape) {
    note_nodes_over_hosts(*node, setup.cores_per_node, rank);
    node_pending.emplace(*node);
    if (node->shares_host() && config.handoffs == Handoffs::shared_memory) {
      handoffs.emplace(*node, setup.plan, setup.node_buckets.capacity);
    }
  }
  SteadyWatch* const steady_watch = simulation::steady_watch(config, setup);
  const UpdateContext context{MPI_COMM_WORLD, rank,         ranks, layout, owner_of, config,
                              setup,          distribution, costs, links ? &*links : nullptr,
                              node_pending && node_pending->shared() ? &*node_pending : nullptr,
                              handoffs ? &*handoffs : nullptr,
                              shared_table ? &*shared_table : nullptr,
                              steady_watch};
  // Read before the barrier: no rank has begun the update phase, and after the
  // next one every rank has ended it.
  const auto woken_before = simulation::wake_ups();
  phase_barrier(ranks, config.charges_path.empty());
  phases.done("set-up");
  const double start = MPI_Wtime();
  HostLoadWatch host_load;
  UpdateStats mine = algorithm->run(context, table);
  if (context.node_pending) mine.node_peak = context.node_pending->peak();
  phase_barrier(ranks, config.charges_path.empty());
  const double seconds = MPI_Wtime() - start;
  const auto others_cpu_share = host_load.end(seconds);
  const auto woken = simulation::wake_ups() - woken_before;
  phases.done("update phase");
  std::vector<LinkClassLoad> link_loads;
  if (links && rank == 0) link_loads = links->finish(*setup.shape, seconds);

  inject_errors(table, config.inject_errors);
  RunResult result;
  reduce_run_statistics(mine, table.checksums(), seconds, setup, rank, result);
  phases.done("statistics");

  // A settled run's generators each stopped at the same count of their stretches.
  const auto settled = steady_watch ? steady_watch->decision() : std::nullopt;
  std::optional<std::vector<StreamStretch>> listed;  // made where first read, once
  const auto stretches = [&, limit = settled ? settled->limit : kWholeStretch]() -> const std::vector<StreamStretch>& {
    if (!listed) listed = run_stretches(config, layout, setup.plan, limit);
    return *listed;
  };
  const double verify_start = MPI_Wtime();
  const bool passed = verify(config, distribution, stretches, rank, table, result);
  const double verification_seconds = MPI_Wtime() - verify_start;
  if (config.verify != Verification::none) phases.done("verification");
  const auto shared_cores = most_shared_host();

  if (rank == 0) {
    result.config = config;
    result.ranks = ranks;
    result.owner_effective = owner_of.effective();
    result.total_words = layout.total_words();
    result.max_local_words = layout.local_words(0);
    result.updates = total_count(stretches());
    if (steady_watch) result.settling = settling_report(*steady_watch, config.total_updates());
    // A settled run's steady state is the one found settled: the middle half
    // of the time up to the decision, when every node still generated. The
    // window up to the first generator's stop, a little later, could read its
    // quarters on the other side of the tolerance than the check did.
    if (settled) result.steady = settled->check.run;
    if (simulation::active()) result.wake_ups = woken;
    result.seconds = seconds;
    result.passed = passed;
    result.verification_seconds = verification_seconds;
    result.nodes = setup.nodes;
    result.cores_per_node = setup.cores_per_node;
    if (traits(config.algorithm).specialised_cores) result.role_plan = setup.plan.spec().to_string();
    result.shape = setup.shape ? setup.shape->to_string() : "";
    result.node_buckets = setup.node_buckets.total();
    result.handoffs = handoffs_description(setup, handoffs.has_value());
    result.shared_cores = shared_cores;
    result.others_cpu_share = others_cpu_share;
    result.mapping_mode = setup.mode.number;
    result.node_lookahead = setup.limits.per_node;
    result.bucket_capacity = setup.shape ? setup.node_buckets.capacity : config.lookahead;
    result.link_loads = std::move(link_loads);
    result.build = build_info();
    if (!print_and_save(format_hpcc_lines(result), to_json(result), config.json_path)) return kExitBadInput;
  }
  return passed ? 0 : kExitVerificationFailed;
}

int main_with_mpi(int argc, char** argv, PhaseReport::Clock::time_point process_start) {
  int rank = 0;
  int ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  auto say_error = [&](const std::string& message) {
    if (rank == 0 && !message.empty()) std::fprintf(stderr, "gups: error: %s\n", message.c_str());
    return kExitBadInput;
  };
  // Before anything is read or run: a launcher of another MPI starts this
  // many one-rank runs; the first of them, as the launcher numbers them, says so.
  if (!simulation::active() && refuse_another_mpis_launcher("gups", ranks, mpi_library_version())) return kExitBadInput;

  // Before any message: the platform's network level decides what messages cost.
  try {
    simulation::install_network_level();
  } catch (const std::invalid_argument& error) {
    return say_error(error.what());
  }
  // Each family of variants (variants.def) is a program of its own behind the same --algo; a name of none
  // (or none given) is the update algorithms', whose command line says what it takes.
  if (const auto* variant = variant_named(algo_argument(argc, argv))) {
    switch (variant->family) {
      case VariantFamily::apex_map:
        return apex_map::probe_main(argc, argv, rank, ranks, mpi_library_version());
      case VariantFamily::exchange_probe:
        return exchange::probe_main(argc, argv, rank, ranks, mpi_library_version());
      case VariantFamily::update_algorithm:
        break;
    }
  }
  const auto parsed = parse_command_line(argc, argv, update_algorithm_names(), simulation::active());
  if (parsed.outcome == ParsedCommandLine::Outcome::help) {
    if (rank == 0) std::fputs(parsed.message.c_str(), stdout);
    return 0;
  }
  if (parsed.outcome == ParsedCommandLine::Outcome::error) return say_error(parsed.message);
  const RunConfig& config = parsed.config;

  std::optional<AlgorithmSetup> setup;
  try {
    setup.emplace(plan_algorithm(config, static_cast<std::uint64_t>(ranks)));
  } catch (const std::invalid_argument& error) {
    return say_error(error.what());
  }
  std::optional<TableLayout> layout;
  try {
    layout.emplace(config.log2_table, setup->nodes);
  } catch (const std::invalid_argument& error) {
    return say_error(std::string(error.what()) + " (use a larger --log2-table or fewer ranks)");
  }
  // Simulated ranks share one real process: the launcher checks its memory.
  if (!simulation::active()) {
    if (const auto shortfall = check_host_memory(*layout, setup->cores_per_node, config, rank, ranks)) {
      if (!shortfall->empty()) std::fprintf(stderr, "gups: error: %s\n", shortfall->c_str());
      return kExitBadInput;
    }
  }
  std::optional<OperationCosts> costs;
  std::optional<LinkLoad> links;
  try {
    costs.emplace(simulation::operation_costs(config, *setup, rank));
    if (config.link_load) {
      if (!setup->shape) throw std::invalid_argument(refusal("--link-load"));
      links.emplace();
    }
  } catch (const std::invalid_argument& error) {
    return say_error(error.what());
  }
  return run(rank, ranks, config, *setup, *layout, *costs, links,
             PhaseReport(rank == 0, config.progress_seconds, process_start, simulation::active(), config.progress_path));
}

// Simulated ranks have small stacks without guard pages (gups-sim): the
// first rank that came near the end of its own says so, with what to do
// (once: every rank of the simulation shares the one setting).
void warn_of_a_deep_stack(const void* top) {
  static bool warned = false;
  const std::size_t depth = simulation::stack_depth(top), size = simulation::stack_size();
  if (!warned && size > 0 && 4 * depth > 3 * size) {
    warned = true;
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::fprintf(stderr,
                 "gups: warning: rank %d's stack went %zu KiB deep of its %zu KiB: give more (gups-sim "
                 "--extra-cfg contexts/stack-size:%zu)\n",
                 rank, (depth + 1023) / 1024, size / 1024, 2 * size / 1024);
  }
}

}  // namespace
}  // namespace gups

int main(int argc, char** argv) {
  const volatile char stack_top = 0;  // the rank's first frame, whence its stack's depth is measured
  const auto process_start = gups::PhaseReport::Clock::now();
  int status = 0;
  {
    gups::MpiSession session(&argc, &argv);
    try {
      status = gups::main_with_mpi(argc, argv, process_start);
      gups::warn_of_a_deep_stack(const_cast<const char*>(&stack_top));
    } catch (const std::exception& error) {
      std::fprintf(stderr, "gups: fatal: %s\n", error.what());
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
  return status;
}
