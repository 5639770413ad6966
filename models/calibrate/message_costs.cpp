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

LinkFigures time_link(MPI_Comm comm, unsigned repeats) {
  const int rank = rank_of(comm);
  auto ping_pong_seconds = [&](std::size_t bytes, unsigned trips) {
    std::vector<char> buffer(bytes);
    std::vector<double> samples;
    for (unsigned r = 0; r < std::max(1u, repeats); ++r) {
      MPI_Barrier(comm);
      const double start = MPI_Wtime();
      for (unsigned t = 0; t < trips; ++t) {
        if (rank == 0) {
          MPI_Send(buffer.data(), static_cast<int>(bytes), MPI_CHAR, 1, kTag, comm);
          MPI_Recv(buffer.data(), static_cast<int>(bytes), MPI_CHAR, 1, kTag, comm, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
          MPI_Recv(buffer.data(), static_cast<int>(bytes), MPI_CHAR, 0, kTag, comm, MPI_STATUS_IGNORE);
          MPI_Send(buffer.data(), static_cast<int>(bytes), MPI_CHAR, 0, kTag, comm);
        }
      }
      samples.push_back((MPI_Wtime() - start) / trips);
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];  // seconds per round trip
  };
  LinkFigures figures;
  figures.latency_s = ping_pong_seconds(8, 2000) / 2;
  constexpr std::size_t kLarge = 4u << 20;
  figures.bandwidth_bytes_per_s = kLarge / (ping_pong_seconds(kLarge, 10) / 2);
  double pair[2] = {figures.latency_s, figures.bandwidth_bytes_per_s};
  MPI_Bcast(pair, 2, MPI_DOUBLE, 0, comm);
  return {pair[1], pair[0]};
}

LinearFit fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  const double denominator = n * sxx - sx * sx;
  if (denominator == 0) return {sy / n, 0};
  const double slope = (n * sxy - sx * sy) / denominator;
  return {std::max(0.0, (sy - slope * sx) / n), std::max(0.0, slope)};
}

}  // namespace gups::calibrate
