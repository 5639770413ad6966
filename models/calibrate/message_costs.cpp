#include "models/calibrate/message_costs.hpp"

#include <algorithm>
#include <cstdint>

namespace gups::calibrate {
namespace {

constexpr int kTag = 7;

int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

// One round: rank 0 sends `messages` messages (timed), then rank 1 receives
// them all (timed). Returns ns per call on the timing rank, 0 elsewhere.
std::pair<double, double> one_round(MPI_Comm comm, std::vector<std::uint64_t>& buffer, unsigned messages) {
  const int rank = rank_of(comm);
  const int count = static_cast<int>(buffer.size());
  double send_ns = 0, receive_ns = 0;
  MPI_Barrier(comm);
  if (rank == 0) {
    const double start = MPI_Wtime();
    for (unsigned m = 0; m < messages; ++m) {
      MPI_Send(buffer.data(), count, MPI_UINT64_T, 1, kTag, comm);
    }
    send_ns = (MPI_Wtime() - start) * 1e9 / messages;
  }
  MPI_Barrier(comm);  // every message is now waiting at rank 1
  if (rank == 1) {
    const double start = MPI_Wtime();
    for (unsigned m = 0; m < messages; ++m) {
      MPI_Recv(buffer.data(), count, MPI_UINT64_T, 0, kTag, comm, MPI_STATUS_IGNORE);
    }
    receive_ns = (MPI_Wtime() - start) * 1e9 / messages;
  }
  return {send_ns, receive_ns};
}

}  // namespace

std::vector<CallCost> time_calls(MPI_Comm comm, const std::vector<unsigned>& sizes, unsigned messages,
                                 unsigned repeats) {
  std::vector<CallCost> costs;
  for (const auto updates : sizes) {
    std::vector<std::uint64_t> buffer(updates, 1);
    one_round(comm, buffer, messages);  // warm up the path
    std::vector<double> sends, receives;
    for (unsigned r = 0; r < std::max(1u, repeats); ++r) {
      const auto [send_ns, receive_ns] = one_round(comm, buffer, messages);
      double pair[2] = {send_ns, receive_ns};
      MPI_Allreduce(MPI_IN_PLACE, pair, 2, MPI_DOUBLE, MPI_SUM, comm);
      sends.push_back(pair[0]);
      receives.push_back(pair[1]);
    }
    costs.push_back({updates, summarise(sends), summarise(receives)});
  }
  return costs;
}

Timing time_poll(MPI_Comm comm, unsigned polls, unsigned repeats) {
  std::uint64_t word = 0;
  std::vector<double> samples;
  for (unsigned r = 0; r < std::max(1u, repeats); ++r) {
    MPI_Request request;
    MPI_Irecv(&word, 1, MPI_UINT64_T, MPI_ANY_SOURCE, kTag + 1, comm, &request);
    int arrived = 0;
    const double start = MPI_Wtime();
    for (unsigned p = 0; p < polls; ++p) MPI_Test(&request, &arrived, MPI_STATUS_IGNORE);
    samples.push_back((MPI_Wtime() - start) * 1e9 / polls);
    MPI_Barrier(comm);
    const int rank = rank_of(comm);
    MPI_Send(&word, 1, MPI_UINT64_T, rank, kTag + 1, comm);  // completes the receive
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  double median = summarise(samples).median_ns;
  MPI_Bcast(&median, 1, MPI_DOUBLE, 0, comm);
  return {median, summarise(samples).min_ns, summarise(samples).max_ns};
}

namespace {

// Half a round trip of `bytes` between ranks 0 and 1, each repeat `trips`
// round trips long (ns; the repeats' median, least and most).
Timing half_round_trip(MPI_Comm comm, std::size_t bytes, unsigned trips, unsigned repeats) {
  const int rank = rank_of(comm);
  std::vector<char> buffer(bytes);
  const int count = static_cast<int>(bytes);
  std::vector<double> samples;
  for (unsigned r = 0; r < std::max(1u, repeats); ++r) {
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    for (unsigned t = 0; t < trips; ++t) {
      if (rank == 0) {
        MPI_Send(buffer.data(), count, MPI_CHAR, 1, kTag, comm);
        MPI_Recv(buffer.data(), count, MPI_CHAR, 1, kTag, comm, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buffer.data(), count, MPI_CHAR, 0, kTag, comm, MPI_STATUS_IGNORE);
        MPI_Send(buffer.data(), count, MPI_CHAR, 0, kTag, comm);
      }
    }
    samples.push_back((MPI_Wtime() - start) * 1e9 / trips / 2);
  }
  return summarise(samples);
}

// A train of `messages` 8-byte messages sent back to back by rank 0, whose
// last rank 1 acknowledges: rank 0's ns from the first send to the ack.
Timing train(MPI_Comm comm, unsigned messages, unsigned repeats) {
  const int rank = rank_of(comm);
  std::uint64_t word = 0;
  std::vector<double> samples;
  for (unsigned r = 0; r < std::max(1u, repeats); ++r) {
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    if (rank == 0) {
      for (unsigned m = 0; m < messages; ++m) MPI_Send(&word, 1, MPI_UINT64_T, 1, kTag, comm);
      MPI_Recv(&word, 1, MPI_UINT64_T, 1, kTag, comm, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      for (unsigned m = 0; m < messages; ++m) MPI_Recv(&word, 1, MPI_UINT64_T, 0, kTag, comm, MPI_STATUS_IGNORE);
      MPI_Send(&word, 1, MPI_UINT64_T, 0, kTag, comm);
    }
    samples.push_back((MPI_Wtime() - start) * 1e9);
  }
  return summarise(samples);
}

// Rank 0's figures on every rank.
Timing shared_from_rank0(MPI_Comm comm, Timing t) {
  double values[] = {t.median_ns, t.min_ns, t.max_ns};
  MPI_Bcast(values, 3, MPI_DOUBLE, 0, comm);
  return {values[0], values[1], values[2]};
}

}  // namespace

LinkFigures link_figures(const LayerTimings& timed) {
  const auto& [largest_bytes, largest] = timed.ping_pongs.back();
  return {largest_bytes / (1e-9 * largest.median_ns), 1e-9 * timed.half_round_trip.median_ns};
}

LayerTimings time_layer(MPI_Comm comm, unsigned repeats) {
  LayerTimings t;
  t.half_round_trip = shared_from_rank0(comm, half_round_trip(comm, 8, 2000, repeats));
  for (const unsigned messages : {1u, 64u, 256u, 1024u}) {
    t.trains.emplace_back(messages, shared_from_rank0(comm, train(comm, messages, repeats)));
  }
  for (const std::size_t bytes : {64u << 10, 256u << 10, 1u << 20, 4u << 20}) {
    const unsigned trips = bytes > (1u << 20) ? 10 : 50;
    t.ping_pongs.emplace_back(static_cast<double>(bytes), shared_from_rank0(comm, half_round_trip(comm, bytes, trips, repeats)));
  }
  return t;
}

}  // namespace gups::calibrate
