// HPCC verification over MPI: every rank regenerates its own stretch of the
// stream and the updates are re-applied by their owners (XOR undoes them),
// exchanged in fixed rounds of all-to-all so that it cannot hang. It shares
// only the reference owner formula with the algorithms it checks.
#pragma once

#include <mpi.h>

#include "local_table.hpp"
#include "table_layout.hpp"

namespace gups {

// Re-applies the stream; afterwards a correct table holds T[i] == i.
void reapply_stream(MPI_Comm comm, const TableLayout& layout, unsigned updates_per_word,
                    LocalTable& table);

}  // namespace gups
