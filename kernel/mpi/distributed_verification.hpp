// HPCC verification over MPI: the whole stream is regenerated, split evenly
// over the ranks (XOR commutes, so who regenerates what does not matter),
// and each update is re-applied by the rank holding its word, exchanged in
// fixed rounds of all-to-all so that it cannot hang. It shares only the
// reference owner formula with the algorithms it checks.
#pragma once

#include <mpi.h>

#include "kernel/core/local_table.hpp"
#include "kernel/core/table_distribution.hpp"

namespace gups {

// Re-applies the stream; afterwards a correct table holds T[i] == i.
void reapply_stream(MPI_Comm comm, const TableDistribution& distribution,
                    std::uint64_t stream_offset, std::uint64_t total_updates, LocalTable& table);

}  // namespace gups
