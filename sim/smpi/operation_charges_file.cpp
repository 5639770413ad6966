// A simulated rank's operation costs: its core's entry of the charges file
// gups-topology wrote (--charges), which every operation mark then charges
// to the simulated clock.
#include <fmt/format.h>

#include <stdexcept>

#include "kernel/core/operation_charges.hpp"
#include "kernel/mpi/simulation.hpp"

namespace gups::simulation {

OperationCosts operation_costs(const RunConfig& config, const AlgorithmSetup& setup, int rank) {
  if (config.charges_path.empty()) return OperationCosts{};
  const auto cores = read_core_charges(config.charges_path);
  if (cores.size() != setup.cores_per_node) {
    throw std::invalid_argument(fmt::format("--charges {} gives the charges of {} core(s) per node; the run has {}",
                                            config.charges_path, cores.size(), setup.cores_per_node));
  }
  auto charges = cores[static_cast<unsigned>(rank) % setup.cores_per_node];
  if (config.mechanisms.receive_batches && charges.batch_packets == 0) {
    throw std::invalid_argument("--receive-batches: the charges file gives no cost per receive call and per packet");
  }
  charges.mechanisms = config.mechanisms;
  return OperationCosts(charges);
}

}  // namespace gups::simulation
