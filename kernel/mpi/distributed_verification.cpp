#include "kernel/mpi/distributed_verification.hpp"

#include <algorithm>
#include <vector>

#include "kernel/mpi/patient_collectives.hpp"

namespace gups {
namespace {

constexpr std::uint64_t kUpdatesPerRound = std::uint64_t{1} << 16;

}  // namespace

void reapply_stream(MPI_Comm comm, const TableDistribution& distribution,
                    const std::vector<StreamStretch>& stretches, LocalTable& table) {
  int rank = 0;
  int ranks = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const auto me = static_cast<std::uint64_t>(rank);
  const auto peers = static_cast<std::size_t>(ranks);
  const TableLayout& layout = distribution.node_layout();

  const std::uint64_t total_updates = total_count(stretches);
  const std::uint64_t share = total_updates / peers;
  const std::uint64_t extra = total_updates % peers;
  const std::uint64_t first_step = me * share + std::min<std::uint64_t>(me, extra);
  std::uint64_t remaining = share + (me < extra ? 1 : 0);
  StretchWalk stream(stretches, first_step);
  const std::uint64_t most_updates = share + (extra > 0 ? 1 : 0);
  const std::uint64_t rounds = (most_updates + kUpdatesPerRound - 1) / kUpdatesPerRound;

  std::vector<std::uint64_t> generated;
  std::vector<int> owner_of_generated;
  std::vector<std::uint64_t> outgoing;
  std::vector<std::uint64_t> incoming;
  std::vector<int> send_counts(peers);
  std::vector<int> send_offsets(peers);
  std::vector<int> receive_counts(peers);
  std::vector<int> receive_offsets(peers);

  for (std::uint64_t round = 0; round < rounds; ++round) {
    const std::uint64_t batch = std::min(remaining, kUpdatesPerRound);
    remaining -= batch;
    generated.resize(batch);
    owner_of_generated.resize(batch);
    std::fill(send_counts.begin(), send_counts.end(), 0);
    for (std::uint64_t i = 0; i < batch; ++i) {
      const std::uint64_t random = stream.next();
      const auto owner = static_cast<int>(distribution.rank_holding(layout.index_of(random)));
      generated[i] = random;
      owner_of_generated[i] = owner;
      ++send_counts[static_cast<std::size_t>(owner)];
    }
    for (std::size_t peer = 0, offset = 0; peer < peers; ++peer) {
      send_offsets[peer] = static_cast<int>(offset);
      offset += static_cast<std::size_t>(send_counts[peer]);
    }
    outgoing.resize(batch);
    std::vector<int> fill = send_offsets;
    for (std::uint64_t i = 0; i < batch; ++i) {
      outgoing[static_cast<std::size_t>(fill[static_cast<std::size_t>(owner_of_generated[i])]++)] =
          generated[i];
    }

    patient::alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), comm);
    std::size_t received = 0;
    for (std::size_t peer = 0; peer < peers; ++peer) {
      receive_offsets[peer] = static_cast<int>(received);
      received += static_cast<std::size_t>(receive_counts[peer]);
    }
    incoming.resize(received);
    patient::alltoallv(outgoing.data(), send_counts.data(), send_offsets.data(), incoming.data(),
                       receive_counts.data(), receive_offsets.data(), MPI_UINT64_T, comm);
    for (const auto update : incoming) {
      table.apply(layout.index_of(update), update);
    }
  }
}

}  // namespace gups
