// Checks that run on every rank before memory is allocated, so that an
// oversized run stops everywhere with one message instead of being killed.
#pragma once

#include <mpi.h>

#include <optional>
#include <string>

namespace gups {

// The lowest rank whose flag is set, or -1 when no rank has one (collective).
int first_rank_with(bool flag, int rank, MPI_Comm comm);

// Every host adds up what its ranks are about to allocate (`mine` bytes
// each) and checks it against its available memory. Nothing when every host
// has room; else the message for the lowest rank of the first host short of
// memory, and "" for every other rank (collective over MPI_COMM_WORLD).
std::optional<std::string> host_memory_shortfall(double mine, const std::string& what, int rank);

}  // namespace gups
