// MPI's collectives as a real rank should wait for them: started
// non-blocking and polled with an IdleWait (kernel/mpi/idle_wait.hpp), so
// that a rank which arrives early gives its core to the ranks still on
// their way when the host has more ranks than cores. MPICH's ch4 spins
// inside every blocking collective, so an early rank keeps the core from
// the late ones it waits for. Simulated ranks call the blocking
// collective, as before: SMPI times it, and a poll would not let simulated
// time pass.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace gups::patient {

void barrier(MPI_Comm comm);
void allreduce(const void* mine, void* all, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);
void reduce(const void* mine, void* all, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm);
void bcast(void* data, int count, MPI_Datatype type, int root, MPI_Comm comm);
void allgather(const void* mine, int count, MPI_Datatype type, void* all, MPI_Comm comm);
void alltoall(const void* out, int count, MPI_Datatype type, void* in, MPI_Comm comm);
void alltoallv(const void* out, const int* out_counts, const int* out_offsets, void* in, const int* in_counts,
               const int* in_offsets, MPI_Datatype type, MPI_Comm comm);

// A number that names this rank's host (a hash of MPI's processor name):
// ranks with the same number share a host's memory. MPI_Comm_split_type
// answers the same, but is itself a collective that spins under MPICH.
std::uint64_t host_number();

}  // namespace gups::patient
