#include "handoff_costs.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "handoff_slot.hpp"

namespace gups::calibrate {
namespace {

using Clock = std::chrono::steady_clock;

double ns_since(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

// One round of `messages` hand-offs; the calling rank's ns per update copied.
double one_round(HandoffSlot& slot, int rank, std::vector<std::uint64_t>& bucket, unsigned messages, MPI_Comm comm) {
  MPI_Barrier(comm);
  double copying = 0;
  for (unsigned m = 0; m < messages; ++m) {
    if (rank == 0) {
      // A routing core fills its bucket between hand-offs: its lines start in this core's cache.
      for (std::size_t i = 0; i < bucket.size(); ++i) bucket[i] = m + i;
      while (!slot.empty()) {
      }
      const auto start = Clock::now();
      slot.publish(bucket.data(), bucket.size());
      copying += ns_since(start);
    } else {
      for (;;) {
        const auto start = Clock::now();
        if (slot.take(bucket.data(), bucket.size())) {
          copying += ns_since(start);
          break;
        }
      }
    }
  }
  return copying / (static_cast<double>(messages) * static_cast<double>(bucket.size()));
}

}  // namespace

std::optional<HandoffCost> time_handoffs(MPI_Comm comm, unsigned updates, unsigned messages, unsigned repeats) {
  MPI_Comm host = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  int host_ranks = 0, rank = 0;
  MPI_Comm_size(host, &host_ranks);
  MPI_Comm_rank(host, &rank);
  int everywhere = host_ranks == 2 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &everywhere, 1, MPI_INT, MPI_MIN, comm);
  if (!everywhere) {
    MPI_Comm_free(&host);
    return std::nullopt;
  }
  const auto bytes = static_cast<MPI_Aint>(rank == 0 ? HandoffSlot::bytes(updates) + HandoffSlot::kAlignment : 0);
  std::byte* base = nullptr;
  MPI_Win window = MPI_WIN_NULL;
  MPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, host, &base, &window);
  MPI_Aint size = 0;
  int unit = 0;
  MPI_Win_shared_query(window, 0, &size, &unit, &base);
  const auto address = reinterpret_cast<std::uintptr_t>(base);
  auto* aligned = base + (HandoffSlot::kAlignment - address % HandoffSlot::kAlignment) % HandoffSlot::kAlignment;
  HandoffSlot slot(aligned, updates);
  if (rank == 0) slot.clear();
  std::vector<std::uint64_t> bucket(updates, 1);
  one_round(slot, rank, bucket, messages, host);  // warm up: pages and lines in place
  HandoffCost cost;
  std::vector<double> publishes, takes;
  for (unsigned r = 0; r < std::max(1u, repeats); ++r) {
    double pair[2] = {0, 0};
    pair[rank] = one_round(slot, rank, bucket, messages, host);
    MPI_Allreduce(MPI_IN_PLACE, pair, 2, MPI_DOUBLE, MPI_SUM, host);
    publishes.push_back(pair[0]);
    takes.push_back(pair[1]);
  }
  cost.publish = summarise(publishes);
  cost.take = summarise(takes);
  MPI_Win_free(&window);
  MPI_Comm_free(&host);
  return cost;
}

}  // namespace gups::calibrate
