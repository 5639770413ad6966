#include "kernel/mpi/host_memory_check.hpp"

#include <climits>

#include "kernel/core/host_memory.hpp"

namespace gups {

int first_rank_with(bool flag, int rank, MPI_Comm comm) {
  int candidate = flag ? rank : INT_MAX;
  int first = INT_MAX;
  MPI_Allreduce(&candidate, &first, 1, MPI_INT, MPI_MIN, comm);
  return first == INT_MAX ? -1 : first;
}

std::optional<std::string> host_memory_shortfall(double mine, const std::string& what, int rank) {
  MPI_Comm host_comm;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host_comm);
  int host_rank = 0;
  MPI_Comm_rank(host_comm, &host_rank);
  double host_total = 0;
  MPI_Reduce(&mine, &host_total, 1, MPI_DOUBLE, MPI_SUM, 0, host_comm);
  MPI_Comm_free(&host_comm);

  std::optional<std::string> shortfall;
  if (host_rank == 0) {
    if (const auto available = available_host_memory_bytes()) {
      shortfall = memory_shortfall(host_total, *available, what);
    }
  }
  const int reporter = first_rank_with(shortfall.has_value(), rank, MPI_COMM_WORLD);
  if (reporter < 0) return std::nullopt;
  return rank == reporter ? shortfall : std::optional<std::string>{""};
}

}  // namespace gups
