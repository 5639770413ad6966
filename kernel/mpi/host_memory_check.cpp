#include "kernel/mpi/host_memory_check.hpp"

#include <climits>
#include <cstdint>
#include <vector>

#include "kernel/core/host_memory.hpp"
#include "kernel/mpi/patient_collectives.hpp"
#include "kernel/mpi/simulation.hpp"

namespace gups {

int first_rank_with(bool flag, int rank, MPI_Comm comm) {
  int candidate = flag ? rank : INT_MAX;
  int first = INT_MAX;
  patient::allreduce(&candidate, &first, 1, MPI_INT, MPI_MIN, comm);
  return first == INT_MAX ? -1 : first;
}

namespace {

struct HostNeed {
  double bytes = 0;  // what the host's ranks need together
  bool checks = false;  // this rank checks it: the host's lowest
};

// Simulated ranks ask MPI (SMPI groups them by simulated host, within one
// process): an all-gather would hold every rank's need in every rank.
HostNeed host_need_simulated(double mine, int rank) {
  MPI_Comm host_comm;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host_comm);
  int host_rank = 0;
  MPI_Comm_rank(host_comm, &host_rank);
  HostNeed need;
  MPI_Reduce(&mine, &need.bytes, 1, MPI_DOUBLE, MPI_SUM, 0, host_comm);
  MPI_Comm_free(&host_comm);
  need.checks = host_rank == 0;
  return need;
}

// Real ranks learn every rank's host and need (16 bytes a rank: 2 MiB at
// 131,072 ranks), polled (kernel/mpi/patient_collectives.hpp).
HostNeed host_need_real(double mine, int rank) {
  struct RankNeed {
    std::uint64_t host;
    double bytes;
  };
  static_assert(sizeof(RankNeed) == 2 * sizeof(std::uint64_t));
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const RankNeed own{patient::host_number(), mine};
  std::vector<RankNeed> all(static_cast<std::size_t>(ranks));
  patient::allgather(&own, 2, MPI_UINT64_T, all.data(), MPI_COMM_WORLD);
  HostNeed need;
  int host_first = rank;
  for (int other = ranks - 1; other >= 0; --other) {
    if (all[static_cast<std::size_t>(other)].host != own.host) continue;
    need.bytes += all[static_cast<std::size_t>(other)].bytes;
    host_first = other;
  }
  need.checks = host_first == rank;
  return need;
}

}  // namespace

std::optional<std::string> host_memory_shortfall(double mine, const std::string& what, int rank) {
  const HostNeed need = simulation::active() ? host_need_simulated(mine, rank) : host_need_real(mine, rank);
  std::optional<std::string> shortfall;
  if (need.checks) {
    if (const auto available = available_host_memory_bytes()) {
      shortfall = memory_shortfall(need.bytes, *available, what);
    }
  }
  const int reporter = first_rank_with(shortfall.has_value(), rank, MPI_COMM_WORLD);
  if (reporter < 0) return std::nullopt;
  return rank == reporter ? shortfall : std::optional<std::string>{""};
}

}  // namespace gups
