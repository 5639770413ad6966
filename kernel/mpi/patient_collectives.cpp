#include "kernel/mpi/patient_collectives.hpp"

#include <string_view>

#include "kernel/mpi/idle_wait.hpp"
#include "kernel/mpi/simulation.hpp"

namespace gups::patient {

namespace {

// The blocking collective where ranks are simulated, else the non-blocking
// one, polled.
template <typename Blocking, typename Start>
void collective(Blocking blocking, Start start) {
  if (simulation::active()) {
    blocking();
    return;
  }
  MPI_Request request;
  start(&request);
  poll_until([&] {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    return done != 0;
  });
}

}  // namespace

void barrier(MPI_Comm comm) {
  collective([&] { MPI_Barrier(comm); }, [&](MPI_Request* request) { MPI_Ibarrier(comm, request); });
}

void allreduce(const void* mine, void* all, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  collective([&] { MPI_Allreduce(mine, all, count, type, op, comm); },
             [&](MPI_Request* request) { MPI_Iallreduce(mine, all, count, type, op, comm, request); });
}

void reduce(const void* mine, void* all, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  collective([&] { MPI_Reduce(mine, all, count, type, op, root, comm); },
             [&](MPI_Request* request) { MPI_Ireduce(mine, all, count, type, op, root, comm, request); });
}

void bcast(void* data, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  collective([&] { MPI_Bcast(data, count, type, root, comm); },
             [&](MPI_Request* request) { MPI_Ibcast(data, count, type, root, comm, request); });
}

void allgather(const void* mine, int count, MPI_Datatype type, void* all, MPI_Comm comm) {
  collective([&] { MPI_Allgather(mine, count, type, all, count, type, comm); },
             [&](MPI_Request* request) { MPI_Iallgather(mine, count, type, all, count, type, comm, request); });
}

void alltoall(const void* out, int count, MPI_Datatype type, void* in, MPI_Comm comm) {
  collective([&] { MPI_Alltoall(out, count, type, in, count, type, comm); },
             [&](MPI_Request* request) { MPI_Ialltoall(out, count, type, in, count, type, comm, request); });
}

void alltoallv(const void* out, const int* out_counts, const int* out_offsets, void* in, const int* in_counts,
               const int* in_offsets, MPI_Datatype type, MPI_Comm comm) {
  collective([&] { MPI_Alltoallv(out, out_counts, out_offsets, type, in, in_counts, in_offsets, type, comm); },
             [&](MPI_Request* request) {
               MPI_Ialltoallv(out, out_counts, out_offsets, type, in, in_counts, in_offsets, type, comm, request);
             });
}

std::uint64_t host_number() {
  char name[MPI_MAX_PROCESSOR_NAME];
  int length = 0;
  MPI_Get_processor_name(name, &length);
  // FNV-1a, 64 bits: two hosts of one job share a number with odds of about
  // hosts^2 / 2^65.
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const unsigned char c : std::string_view(name, static_cast<std::size_t>(length))) {
    hash = (hash ^ c) * 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace gups::patient
