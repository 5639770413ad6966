#include "sim/plan/exchange_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "kernel/exchange/run.hpp"
#include "models/src/bounds.hpp"
#include "topologies/torus_links.hpp"
#include "sim/plan/run_plan.hpp"

namespace gups::topology {

ExchangePlan plan_exchange_run(const ExchangeRequest& request) {
  if (!exchange::is_probe(request.probe)) {
    throw std::invalid_argument(fmt::format("'{}' is not a global-exchange probe", request.probe));
  }
  ExchangePlan plan;
  static_cast<ProbePlacement&>(plan) = place_probe(request);
  plan.probe = request.probe;
  const auto nodes = plan.shape.nodes();
  if (const auto why = exchange::problem(plan.probe, plan.ranks)) throw std::invalid_argument(*why);
  const auto sizes = request.sizes.empty() ? exchange::default_sizes(plan.probe) : request.sizes;
  plan.largest_message_bytes = *std::max_element(sizes.begin(), sizes.end());
  // A payload and the probe's receive buffers, each of the largest size.
  plan.simulation_bytes = (static_cast<double>(plan.largest_message_bytes) * (1 + exchange::receive_buffers(plan.probe)) +
                           kSimulatedBytesPerRank) *
                          static_cast<double>(plan.ranks);
  plan.kernel_arguments = {"--algo", plan.probe};
  const double bandwidth = plan.machine.link_bandwidth;
  plan.model_bisection_bytes_per_s = model::bisection_bandwidth(plan.shape, bandwidth, plan.mesh);
  const TorusLinks links(plan.shape, std::vector<bool>(plan.shape.dimensions(), !plan.mesh));
  if (nodes >= 2) {
    plan.probe_cut_bytes_per_s = bisection_peak_rate(links, bandwidth) * static_cast<double>(nodes) / 2;
    plan.all_to_all_peak_bytes_per_s = uniform_peak_rate(links, bandwidth);
  }
  return plan;
}

nlohmann::json to_json(const ExchangePlan& plan) {
  auto json = network_plan_json(plan.machine, plan.shape, plan.mesh, plan.network_level, plan.ranks_per_node,
                                plan.ranks);
  json.update({{"probe", "exchange"},
               {"algorithm", plan.probe},
               {"routes_over_torus", false},
               {"specialised_cores", false},
               {"largest_message_bytes", plan.largest_message_bytes},
               {"simulation_memory_bytes", plan.simulation_bytes},
               {"kernel_arguments", plan.kernel_arguments},
               {"links", {{"link_bytes_per_s", plan.machine.link_bandwidth},
                          {"model_bisection_bytes_per_s", plan.model_bisection_bytes_per_s},
                          {"probe_cut_bytes_per_s", plan.probe_cut_bytes_per_s},
                          {"all_to_all_peak_bytes_per_s_per_node", plan.all_to_all_peak_bytes_per_s}}}});
  return json;
}

}  // namespace gups::topology
