#include "sim/plan/probe_plan.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "kernel/apex_map/access.hpp"
#include "kernel/apex_map/run.hpp"
#include "models/src/simulation_charges.hpp"
#include "sim/plan/run_plan.hpp"

namespace gups::topology {

ProbePlan plan_probe_run(const ProbeRequest& request) {
  if (!apex_map::is_implementation(request.algorithm)) {
    throw std::invalid_argument(fmt::format("'{}' is not an Apex-Map implementation", request.algorithm));
  }
  ProbePlan plan;
  static_cast<ProbePlacement&>(plan) = place_probe(request);
  plan.algorithm = request.algorithm;
  plan.memory_words = request.memory_words ? request.memory_words : kSimulatedShareWords * plan.ranks;
  apex_map::Parameters p;
  p.memory_words = plan.memory_words;
  p.block_words = request.block_words;
  p.receive_buffers = request.receive_buffers;
  if (const auto why = apex_map::problem(p, plan.ranks)) throw std::invalid_argument(*why);
  // A share, the one-sided window's copy of it, and the two-sided receive buffers.
  const double words = 2.0 * static_cast<double>(apex_map::share_words(p, plan.ranks)) +
                       static_cast<double>(request.receive_buffers) * static_cast<double>(request.block_words);
  plan.simulation_bytes = (8.0 * words + kSimulatedBytesPerRank) * static_cast<double>(plan.ranks);
  plan.kernel_arguments = {"--algo", plan.algorithm, "--memory-words", std::to_string(plan.memory_words)};
  plan.charges = model::access_charges_of(plan.machine);
  return plan;
}

nlohmann::json to_json(const ProbePlan& plan) {
  auto json = network_plan_json(plan.machine, plan.shape, plan.mesh, plan.network_level, plan.ranks_per_node, plan.ranks);
  json.update({{"probe", "apex-map"},
               {"algorithm", plan.algorithm},
               {"routes_over_torus", false},
               {"specialised_cores", false},
               {"memory_words", plan.memory_words},
               {"share_words", plan.memory_words / plan.ranks},
               {"simulation_memory_bytes", plan.simulation_bytes},
               {"charges", access_charges_document(plan.machine.name, plan.charges)["process"]},
               {"kernel_arguments", plan.kernel_arguments}});
  return json;
}

}  // namespace gups::topology
