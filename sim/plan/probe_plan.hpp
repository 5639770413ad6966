// The plan of one simulated run of the Apex-Map probe on a machine: its
// torus (the machine's shape rule), processes per node, the memory the
// simulation needs, the probe's own arguments and the charges of one
// process, from the machine file's costs_cycles (message calls) and
// data_access_cycles (memory and polls). gups-sim reads it as JSON, as it
// reads the update algorithms' plan.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernel/apex_map/charges.hpp"
#include "kernel/core/torus_shape.hpp"
#include "models/src/machine.hpp"
#include "sim/levels/network_level.hpp"
#include "sim/plan/run_plan.hpp"

namespace gups::topology {

// A simulated process's share when M is not given: 2^16 words (512 KiB),
// not the real probe's 2^20, because every simulated process's share lives
// in the one simulating process (4,096 of them: 2 GiB, with the one-sided
// window's copy 4 GiB).
inline constexpr std::uint64_t kSimulatedShareWords = 1ULL << 16;

struct ProbeRequest : ProbeWhere {
  std::string algorithm = "apex-map-mpi";
  std::uint64_t memory_words = 0;          // M (0: kSimulatedShareWords per process)
  std::uint64_t block_words = 1;           // L, for the receive buffers' memory
  unsigned receive_buffers = 32;           // B
};

struct ProbePlan : ProbePlacement {
  std::string algorithm;
  std::uint64_t memory_words = 0;
  double simulation_bytes = 0;  // every process's share, copies and buffers, and SimGrid's state per rank
  std::vector<std::string> kernel_arguments;
  AccessCharges charges;
};

// Throws std::invalid_argument naming the option or field at fault.
ProbePlan plan_probe_run(const ProbeRequest& request);

nlohmann::json to_json(const ProbePlan& plan);

}  // namespace gups::topology
