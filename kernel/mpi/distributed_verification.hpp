// HPCC verification over MPI: the run's stream is regenerated, split evenly
// over the ranks (XOR commutes, so who regenerates what does not matter),
// and each update is re-applied by the rank holding its word, exchanged in
// fixed rounds of all-to-all so that it cannot hang. It shares only the
// reference owner formula with the algorithms it checks.
#pragma once

#include <mpi.h>

#include <vector>

#include "kernel/core/local_table.hpp"
#include "kernel/core/stream_stretches.hpp"
#include "kernel/core/table_distribution.hpp"

namespace gups {

// Re-applies the stretches of the stream the run generated (the whole
// stream, as HPCC, or each generator's stretch cut where the run settled);
// afterwards a correct table holds T[i] == i.
void reapply_stream(MPI_Comm comm, const TableDistribution& distribution,
                    const std::vector<StreamStretch>& stretches, LocalTable& table);

}  // namespace gups
