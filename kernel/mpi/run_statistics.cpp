// Five reductions, each packing every figure of one type and operation.
// Reductions only: a gather to one rank is O(ranks^2) to simulate (SMPI
// matches each arrival by a linear search of rank 0's mailbox). And few of
// them: each costs 2 x ranks simulated messages.
#include "kernel/mpi/run_statistics.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <vector>

#include "kernel/mpi/patient_collectives.hpp"

namespace gups {
namespace {

// After the update phase, whose tags are below it.
constexpr int kNodePendingTag = 100;

// A node's peak, on its core 0 (0 on the other cores): its own, where its
// cores counted it in shared memory, else the sum of its cores' peaks.
std::uint64_t node_pending(const UpdateStats& mine, unsigned cores, int rank) {
  const unsigned core = static_cast<unsigned>(rank) % cores;
  if (mine.node_peak >= 0) return core == 0 ? static_cast<std::uint64_t>(mine.node_peak) : 0;
  std::uint64_t sum = mine.max_pending;
  if (core != 0) {
    MPI_Send(&sum, 1, MPI_UINT64_T, rank - static_cast<int>(core), kNodePendingTag, MPI_COMM_WORLD);
    return 0;
  }
  for (unsigned c = 1; c < cores; ++c) {
    std::uint64_t theirs = 0;
    MPI_Recv(&theirs, 1, MPI_UINT64_T, rank + static_cast<int>(c), kNodePendingTag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    sum += theirs;
  }
  return sum;
}

template <typename T>
std::vector<T> reduce_at_root(const std::vector<T>& mine, MPI_Datatype type, MPI_Op op) {
  std::vector<T> all(mine.size(), T{});
  patient::reduce(mine.data(), all.data(), static_cast<int>(mine.size()), type, op, 0, MPI_COMM_WORLD);
  return all;
}

void fill_core_summaries(const std::vector<std::uint64_t>& sums, const std::vector<std::uint64_t>& maxima,
                         const std::vector<double>& busy, const AlgorithmSetup& setup, RunResult& result) {
  constexpr std::size_t kCounters = UpdateStats::kCounters;
  const unsigned cores = setup.cores_per_node;
  result.cores.assign(cores, {});
  for (unsigned c = 0; c < cores; ++c) {
    std::array<std::uint64_t, kCounters> totals{};
    std::copy_n(sums.begin() + static_cast<std::ptrdiff_t>(c * kCounters), kCounters, totals.begin());
    auto stats = UpdateStats::from(totals, busy[c]);
    stats.stalled_seconds = busy[cores + 1 + c];
    stats.max_pending = maxima[3 * c];
    stats.bucket_capacity = maxima[3 * c + 1];
    stats.max_waiting_messages = maxima[3 * c + 2];
    result.stats.merge(stats);
    auto& summary = result.cores[c];
    summary.totals = stats;
    summary.core = c;
    summary.role = setup.shape ? setup.plan.describe(c) : "generate, send to owners, update";
    summary.mean_busy_seconds = stats.busy_seconds / static_cast<double>(setup.nodes);
    summary.mean_stalled_seconds = stats.stalled_seconds / static_cast<double>(setup.nodes);
    const auto messages = stats.messages_sent + stats.local_messages_sent;
    summary.mean_bucket_fill =
        messages == 0 || stats.bucket_capacity == 0
            ? 0.0
            : static_cast<double>(stats.updates_sent + stats.updates_handed) /
                  static_cast<double>(messages) / static_cast<double>(stats.bucket_capacity);
  }
}

}  // namespace

void reduce_run_statistics(const UpdateStats& mine, const TableChecksums& local_sums, double seconds,
                           const AlgorithmSetup& setup, int rank, RunResult& result) {
  constexpr std::size_t kCounters = UpdateStats::kCounters;
  const unsigned cores = setup.cores_per_node;
  const unsigned core = static_cast<unsigned>(rank) % cores;

  // Every rank needs the widest timeline to bin its own into; the steady
  // state starts at the first generator's end (min, as the max of negatives).
  // Ranks that generate nothing offer the whole phase.
  const double generation_end = mine.generation_end >= 0 ? mine.generation_end : seconds;
  std::array<double, 2> mine_max{mine.applied_over_time.width(), -generation_end}, all_max{};
  patient::allreduce(mine_max.data(), all_max.data(), 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  UpdateTimeline timeline = mine.applied_over_time;
  timeline.widen_to(all_max[0]);

  // Sums: the table's checksum, then each core role's counters.
  std::vector<std::uint64_t> sums(1 + cores * kCounters, 0);
  sums[0] = local_sums.sum;
  const auto counters = mine.counters();
  std::copy(counters.begin(), counters.end(), sums.begin() + static_cast<std::ptrdiff_t>(1 + core * kCounters));
  // Maxima: each core role's peak, bucket capacity and most messages
  // waiting, then the node's peak, then whether any node was not counted in
  // shared memory.
  std::vector<std::uint64_t> maxima(cores * 3 + 2, 0);
  maxima[3 * core] = mine.max_pending;
  maxima[3 * core + 1] = mine.bucket_capacity;
  maxima[3 * core + 2] = mine.max_waiting_messages;
  maxima[cores * 3] = node_pending(mine, cores, rank);
  maxima.back() = mine.node_peak < 0 && cores > 1 ? 1 : 0;
  // Real sums: each core role's busy seconds, the generators' rates, each
  // core role's stalled seconds, the timeline.
  std::vector<double> real_sums(2 * cores + 1, 0.0);
  real_sums[core] = mine.busy_seconds;
  real_sums[cores] = mine.window_rate;
  real_sums[cores + 1 + core] = mine.stalled_seconds;
  real_sums.insert(real_sums.end(), timeline.counts().begin(), timeline.counts().end());

  const auto all_sums = reduce_at_root(sums, MPI_UINT64_T, MPI_SUM);
  const auto all_maxima = reduce_at_root(maxima, MPI_UINT64_T, MPI_MAX);
  const auto all_xor = reduce_at_root(std::vector<std::uint64_t>{local_sums.xor_all}, MPI_UINT64_T, MPI_BXOR);
  const auto all_real_sums = reduce_at_root(real_sums, MPI_DOUBLE, MPI_SUM);
  if (rank != 0) return;

  result.checksums.sum = all_sums[0];
  result.checksums.xor_all = all_xor[0];
  fill_core_summaries({all_sums.begin() + 1, all_sums.end()}, all_maxima, all_real_sums, setup, result);
  result.node_pending_bound = all_maxima[cores * 3];
  result.node_pending_exact = all_maxima.back() == 0;
  result.window_gups = 1e-9 * all_real_sums[cores];
  result.applied_over_time = UpdateTimeline::from(
      all_max[0], {all_real_sums.begin() + static_cast<std::ptrdiff_t>(2 * cores + 1), all_real_sums.end()});
  result.first_generator_done = -all_max[1];
  result.steady = steady_state(result.applied_over_time, result.first_generator_done);
}

}  // namespace gups
