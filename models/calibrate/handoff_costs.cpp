#include "models/calibrate/handoff_costs.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "kernel/core/role_plan.hpp"
#include "kernel/mpi/node_group.hpp"
#include "kernel/mpi/node_handoffs.hpp"

namespace gups::calibrate {
namespace {

using Clock = std::chrono::steady_clock;

double ns_since(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

// One round of `messages` hand-offs from core 0 to core 1; the calling
// core's ns per update copied.
double one_round(const NodeHandoffs& handoffs, int core, std::vector<std::uint64_t>& bucket, unsigned messages,
                 MPI_Comm node) {
  MPI_Barrier(node);
  double copying = 0;
  auto slot = core == 0 ? handoffs.outgoing(1) : handoffs.incoming(0);
  for (unsigned m = 0; m < messages; ++m) {
    if (core == 0) {
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

std::optional<HandoffCost> time_handoffs(int rank, unsigned updates, unsigned messages, unsigned repeats) {
  // The kernel's own node and slots: two cores of one node, core 0 handing on to core 1.
  const NodeGroup node(rank, 2);
  if (!node.shares_host()) return std::nullopt;
  const RolePlan plan(2, 3);
  const NodeHandoffs handoffs(node, plan, updates);
  const int core = node.rank();
  std::vector<std::uint64_t> bucket(updates, 1);
  one_round(handoffs, core, bucket, messages, node.comm());  // warm up: pages and lines in place
  std::vector<double> publishes, takes;
  for (unsigned r = 0; r < std::max(1u, repeats); ++r) {
    double pair[2] = {0, 0};
    pair[core] = one_round(handoffs, core, bucket, messages, node.comm());
    MPI_Allreduce(MPI_IN_PLACE, pair, 2, MPI_DOUBLE, MPI_SUM, node.comm());
    publishes.push_back(pair[0]);
    takes.push_back(pair[1]);
  }
  return HandoffCost{summarise(publishes), summarise(takes)};
}

}  // namespace gups::calibrate
