#include "models/src/hypercube_traffic.hpp"

#include <algorithm>
#include <stdexcept>

#include "kernel/core/hypercube_stages.hpp"

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
  std::vector<std::vector<double>> load(stage_count, std::vector<double>(links.count(), 0.0));
  std::vector<std::uint32_t> route;
  // Each process makes 1/processes_per_node of its node's updates.
  const double weight = static_cast<double>(stride) / processes_per_node;
  const double per_process = static_cast<double>(stride) / static_cast<double>(processes);
  for (std::uint64_t p = 0; p < processes; p += stride) {
    const auto stages = hypercube_stages(static_cast<int>(p), static_cast<int>(processes));
    for (std::size_t s = 0; s < stages.size(); ++s) {
      const auto& stage = stages[s];
      const int lower = stage.mid - stage.lo, upper = stage.hi - stage.mid;
      const bool in_lower = stage.in_lower(static_cast<int>(p));
      const double moved = static_cast<double>(in_lower ? upper : lower) / (stage.hi - stage.lo);
      auto& row = traffic.stages[s];
      row.moved_share += moved * per_process;
      row.active_share += per_process;
      const std::uint64_t from = p / processes_per_node, to = static_cast<std::uint64_t>(*stage.send_to) / processes_per_node;
      if (from == to) continue;
      links.route(from, to, route);
      for (const auto link : route) load[s][link] += moved * weight;
      row.longest_route = std::max(row.longest_route, static_cast<std::uint32_t>(route.size()));
      traffic.network_crossings += moved * per_process;
      traffic.link_crossings += moved * per_process * static_cast<double>(route.size());
    }
  }
  const auto classes = links.class_names();
  for (std::size_t s = 0; s < stage_count; ++s) {
    auto& row = traffic.stages[s];
    if (row.active_share > 0) row.moved_share /= row.active_share;
    for (std::uint32_t link = 0; link < links.count(); ++link) {
      if (!links.exists(link)) continue;
      const double relative = load[s][link] / links.bandwidth_factor(link);
      if (relative > row.busiest_link_load) {
        row.busiest_link_load = relative;
        row.busiest_class = classes.at(links.link_class(link));
      }
    }
  }
  return traffic;
}

}  // namespace gups::model
