#include "models/src/hypercube_traffic.hpp"

#include <algorithm>
#include <stdexcept>

#include "kernel/core/hypercube_stages.hpp"
#include "models/src/network_bound.hpp"

namespace gups::model {
namespace {

constexpr std::uint64_t kExactProcesses = 1u << 16;

}  // namespace

HypercubeTraffic hypercube_traffic(const PhysicalLinks& links, unsigned processes_per_node) {
  if (processes_per_node == 0) throw std::invalid_argument("hypercube traffic: no process on a node");
  const std::uint64_t nodes = links.nodes();
  const std::uint64_t processes = nodes * processes_per_node;
  if (processes > static_cast<std::uint64_t>(1) << 30) throw std::invalid_argument("hypercube traffic: too many processes");
  const std::uint64_t stride = (processes + kExactProcesses - 1) / kExactProcesses;
  const auto stage_count = static_cast<std::size_t>(hypercube_stage_count(static_cast<int>(processes)));
  HypercubeTraffic traffic;
  traffic.stages.resize(stage_count);
  // One stage's load at a time (a 158,976-node 6D torus has 1.9 million links: every stage's at once would
  // hold hundreds of megabytes), and the sum of every stage's.
  std::vector<double> load(links.count(), 0.0), overlapped(links.count(), 0.0);
  std::vector<std::uint32_t> route;
  // What each process holds, in its own chunks: the updates a process holds
  // at a stage are owned evenly across its group, so a share of the other
  // half's size moves. Followed exactly where every process is counted;
  // with a stride, every process holds one chunk (exact for a power of two).
  const bool exact = stride == 1;
  std::vector<double> held(exact ? processes : 0, 1.0);
  std::vector<std::vector<HypercubeStage>> stages_of;  // of each process counted
  for (std::uint64_t p = 0; p < processes; p += stride) {
    stages_of.push_back(hypercube_stages(static_cast<int>(p), static_cast<int>(processes)));
  }
  const double weight = static_cast<double>(stride) / processes_per_node;  // a process makes 1/ppn of its node's updates
  const double per_process = static_cast<double>(stride) / static_cast<double>(processes);
  std::vector<double> moved_total(stage_count, 0.0), held_total(stage_count, 0.0);
  for (std::size_t s = 0; s < stage_count; ++s) {
    std::fill(load.begin(), load.end(), 0.0);
    std::vector<double> arriving(exact ? processes : 0, 0.0);
    for (std::uint64_t p = 0; p < processes; p += stride) {
      const auto& stages = stages_of[p / stride];
      if (s >= stages.size()) continue;
      const auto& stage = stages[s];
      const int lower = stage.mid - stage.lo, upper = stage.hi - stage.mid;
      const double other = static_cast<double>(stage.in_lower(static_cast<int>(p)) ? upper : lower) / (stage.hi - stage.lo);
      const double holds = exact ? held[p] : 1.0;
      const double moved = holds * other;
      if (exact) {
        arriving[static_cast<std::uint64_t>(*stage.send_to)] += moved;
        held[p] -= moved;
      }
      moved_total[s] += moved;
      held_total[s] += holds;
      traffic.stages[s].active_share += per_process;
      const std::uint64_t from = p / processes_per_node, to = static_cast<std::uint64_t>(*stage.send_to) / processes_per_node;
      if (from == to) continue;
      links.route(from, to, route);
      for (const auto link : route) load[link] += moved * weight;
      traffic.stages[s].longest_route = std::max(traffic.stages[s].longest_route, static_cast<std::uint32_t>(route.size()));
      traffic.network_crossings += moved * per_process;
      traffic.link_crossings += moved * per_process * static_cast<double>(route.size());
    }
    for (std::uint64_t p = 0; exact && p < processes; ++p) held[p] += arriving[p];
    if (held_total[s] > 0) traffic.stages[s].moved_share = moved_total[s] / held_total[s];
    const auto busiest = busiest_link(links, load);
    traffic.stages[s].busiest_link_load = busiest.load;
    traffic.stages[s].busiest_class = busiest.link_class;
    for (std::size_t link = 0; link < overlapped.size(); ++link) overlapped[link] += load[link];
  }
  const auto busiest = busiest_link(links, overlapped);
  traffic.overlapped_busiest_link_load = busiest.load;
  traffic.overlapped_busiest_class = busiest.link_class;
  return traffic;
}

}  // namespace gups::model
