// The Apex-Map probe inside gups: parse, fill each process's share, then N
// repetitions of new indices (made before the clock starts), each timed to
// the moment every process has finished, and every sum checked against its
// serial recomputation.
#include <algorithm>
#include <cstdio>

#include "kernel/apex_map/probe.hpp"
#include "kernel/apex_map/run.hpp"
#include "kernel/core/program_variants.hpp"
#include "kernel/core/result_output.hpp"
#include "kernel/mpi/host_memory_check.hpp"
#include "kernel/mpi/host_sharing.hpp"
#include "kernel/mpi/simulation.hpp"

namespace gups::apex_map {
namespace {

constexpr int kExitBadInput = 2;
constexpr int kExitWrongSum = 1;

}  // namespace

const std::vector<Implementation>& implementations() {
  static const std::vector<Implementation> table{
#define GUPS_APEX_MAP(id, name, help, make) {name, help, make},
#include "kernel/core/variants.def"
  };
  return table;
}

int probe_main(int argc, char** argv, int rank, int ranks, const std::string& mpi_library) {
  const auto processes = static_cast<std::uint64_t>(ranks);
  const auto parsed = parse_probe_command_line(argc, argv, variant_names(VariantFamily::apex_map), processes);
  if (const auto status = exit_without_running(parsed, rank)) return *status;
  const auto& config = parsed.config;
  const auto& p = config.parameters;
  const auto share = share_words(p, processes);
  if (const auto shortfall = host_memory_shortfall(8.0 * static_cast<double>(share),
                                                   "the processes' shares of the array (--memory-words)", rank)) {
    if (!shortfall->empty()) std::fprintf(stderr, "gups: error: %s\n", shortfall->c_str());
    return kExitBadInput;
  }
  AccessCosts costs;
  if (!config.charges_path.empty()) {
    try {
      costs = AccessCosts(read_access_charges(config.charges_path));
    } catch (const std::invalid_argument& error) {
      if (rank == 0) std::fprintf(stderr, "gups: error: %s\n", error.what());
      return kExitBadInput;
    }
  }
  std::vector<std::uint64_t> memory(share);
  const auto first = static_cast<std::uint64_t>(rank) * share;
  for (std::uint64_t j = 0; j < share; ++j) memory[j] = word_at(first + j);
  if (const auto changed = std::min(config.inject_errors, share); changed > 0) {
    for (std::uint64_t j = 0; j < changed; ++j) memory[j * (share / changed)] ^= 1;
  }

  const auto& implementation = *std::find_if(implementations().begin(), implementations().end(),
                                             [&](const auto& i) { return i.name == config.algorithm; });
  const std::string layer =
      !config.message_layer.empty() ? config.message_layer : simulation::active() ? "s4u" : "mpi";
  std::unique_ptr<Accessor> accessor;
  try {
    accessor = implementation.make(MPI_COMM_WORLD, p, memory, costs, layer);
  } catch (const std::invalid_argument& error) {
    if (rank == 0) std::fprintf(stderr, "gups: error: --message-layer: %s\n", error.what());
    return kExitBadInput;
  }
  double seconds = 0;
  std::uint64_t remote = 0;
  std::uint64_t wrong = 0;
  for (unsigned repetition = 0; repetition < p.repeats; ++repetition) {
    const auto starts = start_indices(p, processes, static_cast<std::uint64_t>(rank), repetition);
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    const auto totals = accessor->run(starts);
    seconds += MPI_Wtime() - start;
    remote += totals.remote;
    wrong += totals.sum != serial_sum(starts, p.block_words);
  }
  accessor.reset();
  ProbeResult result;
  MPI_Reduce(&seconds, &result.seconds, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&remote, &result.remote_accesses, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&wrong, &result.wrong_sums, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  result.shared_cores = most_shared_host();
  if (rank == 0) {
    result.config = config;
    result.summary = implementation.summary;
    result.processes = processes;
    result.mpi_library = mpi_library;
    if (!print_and_save(format_lines(result), to_json(result), config.json_path)) return kExitBadInput;
  }
  return result.passed() ? 0 : kExitWrongSum;
}

}  // namespace gups::apex_map
