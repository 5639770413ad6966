#include "kernel/mpi/host_sharing.hpp"

#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "kernel/core/host_load.hpp"
#include "kernel/mpi/patient_collectives.hpp"
#include "kernel/mpi/simulation.hpp"

namespace gups {

namespace {

constexpr int kHostGroupTag = 8;
constexpr std::size_t kMaskWords = CPU_SETSIZE / 64;
using CoreMask = std::array<std::uint64_t, kMaskWords>;

CoreMask own_cores() {
  CoreMask mask{};
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return mask;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) mask[static_cast<std::size_t>(cpu) / 64] |= std::uint64_t{1} << (cpu % 64);
  }
  return mask;
}

// The world ranks that share this rank's host, in rank order.
std::vector<int> ranks_on_my_host(int ranks) {
  const std::uint64_t mine = patient::host_number();
  std::vector<std::uint64_t> hosts(static_cast<std::size_t>(ranks));
  patient::allgather(&mine, 1, MPI_UINT64_T, hosts.data(), MPI_COMM_WORLD);
  std::vector<int> members;
  for (int r = 0; r < ranks; ++r) {
    if (hosts[static_cast<std::size_t>(r)] == mine) members.push_back(r);
  }
  return members;
}

// The cores the host's ranks may run on together (collective over them only).
int cores_of_host(const std::vector<int>& members) {
  MPI_Group world_group, host_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Group_incl(world_group, static_cast<int>(members.size()), members.data(), &host_group);
  MPI_Comm host;
  MPI_Comm_create_group(MPI_COMM_WORLD, host_group, kHostGroupTag, &host);
  MPI_Group_free(&host_group);
  MPI_Group_free(&world_group);
  const CoreMask mine = own_cores();
  CoreMask all{};
  patient::allreduce(mine.data(), all.data(), static_cast<int>(kMaskWords), MPI_UINT64_T, MPI_BOR, host);
  MPI_Comm_free(&host);
  int cores = 0;
  for (const auto word : all) cores += std::popcount(word);
  return cores;
}

}  // namespace

std::optional<SharedCores> most_shared_host() {
  if (simulation::active()) return std::nullopt;
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const auto members = ranks_on_my_host(ranks);
  SharedCores here{static_cast<int>(members.size()), cores_of_host(members)};
  // The host with the most ranks a core; its first rank then tells every rank its figures.
  struct {
    double ranks_per_core;
    int rank;
  } mine{here.cores > 0 ? static_cast<double>(here.ranks) / here.cores : 0.0, rank}, worst{};
  patient::allreduce(&mine, &worst, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  int figures[2] = {here.ranks, here.cores};
  patient::bcast(figures, 2, MPI_INT, worst.rank, MPI_COMM_WORLD);
  if (figures[0] <= figures[1] || figures[1] == 0) return std::nullopt;
  return SharedCores{figures[0], figures[1]};
}

HostLoadWatch::HostLoadWatch() {
  if (simulation::active()) return;
  host_start_ = host_busy_seconds();
  own_start_ = own_cpu_seconds();
}

std::optional<double> HostLoadWatch::end(double wall_seconds) {
  if (simulation::active()) return std::nullopt;
  const auto host_end = host_busy_seconds();
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // Per rank: what its host spent (negative where it cannot say) and what the rank itself spent.
  const double spent[2] = {host_start_ && host_end ? *host_end - *host_start_ : -1.0,
                           own_cpu_seconds() - own_start_};
  std::vector<double> spending(2 * static_cast<std::size_t>(ranks));
  patient::allgather(spent, 2, MPI_DOUBLE, spending.data(), MPI_COMM_WORLD);
  // This host's share, by its first rank's reading, less what all its ranks spent; the busiest host's for all.
  const auto members = ranks_on_my_host(ranks);
  const double host_spent = spending[2 * static_cast<std::size_t>(members.front())];
  double own = 0;
  for (const int member : members) own += spending[2 * static_cast<std::size_t>(member) + 1];
  const double mine = host_spent < 0 || !load_measurable(wall_seconds) ? -1.0
                                     : others_share(host_spent, own, wall_seconds,
                                                    static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)));
  double busiest = -1.0;
  patient::allreduce(&mine, &busiest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return busiest < 0 ? std::nullopt : std::optional<double>(busiest);
}

}  // namespace gups
