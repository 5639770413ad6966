// The plan of one simulated run of a global-exchange probe (bisection,
// exchange, all-to-all) on a machine: its torus, processes per node, the
// memory its message buffers need, and beside it what the machine's links
// allow, so that a measured figure is read against the model's: the
// bisection B of the network bound (the cut across the longest side), the
// cut the probe's pairs i -> i + n/2 cross (across the last dimension, the
// slowest in rank order), and the all-to-all's peak per node.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernel/core/torus_shape.hpp"
#include "models/src/machine.hpp"
#include "sim/levels/network_level.hpp"
#include "sim/plan/run_plan.hpp"

namespace gups::topology {

struct ExchangeRequest : ProbeWhere {
  std::string probe = "bisection";
  std::vector<std::uint64_t> sizes;  // bytes; empty: the probe's defaults
};

struct ExchangePlan : ProbePlacement {
  std::string probe;
  std::uint64_t largest_message_bytes = 0;
  double simulation_bytes = 0;
  std::vector<std::string> kernel_arguments;
  double model_bisection_bytes_per_s = 0;  // B, one way across the longest side's cut
  double probe_cut_bytes_per_s = 0;        // one way across the cut the probe's pairs cross
  double all_to_all_peak_bytes_per_s = 0;  // per node: the busiest line's links full under uniform traffic
};

// Throws std::invalid_argument naming the option or field at fault.
ExchangePlan plan_exchange_run(const ExchangeRequest& request);

nlohmann::json to_json(const ExchangePlan& plan);

}  // namespace gups::topology
