// What rank 0 reports of a run that every rank took part in: the table's
// checksums, the counters of each core role, the node peaks, the timeline of
// applied updates and the steady state.
#pragma once

#include "kernel/core/algorithm_setup.hpp"
#include "kernel/core/local_table.hpp"
#include "kernel/core/run_report.hpp"
#include "kernel/core/update_stats.hpp"

namespace gups {

// Collective over MPI_COMM_WORLD. Fills, at rank 0: checksums, window_gups,
// applied_over_time, first_generator_done, steady, stats, cores and
// node_pending_bound. `seconds`: the update phase's length on this rank.
void reduce_run_statistics(const UpdateStats& mine, const TableChecksums& local_sums, double seconds,
                           const AlgorithmSetup& setup, int rank, RunResult& result);

}  // namespace gups
