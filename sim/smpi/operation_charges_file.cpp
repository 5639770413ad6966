// A simulated rank's operation costs: its core's entry of the charges file
// gups-topology wrote (--charges), which every operation mark then charges
// to the simulated clock.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <stdexcept>

#include "kernel/core/operation_charges.hpp"
#include "kernel/mpi/simulation.hpp"

namespace gups::simulation {
namespace {

// The cores whose threads are several ranks, by (node, core): SMPI runs
// every rank in this process, so a node's ranks find their core here.
std::shared_ptr<IssuePort> issue_port(std::uint64_t node, unsigned core) {
  static std::map<std::pair<std::uint64_t, unsigned>, std::weak_ptr<IssuePort>> ports;
  auto& slot = ports[{node, core}];
  auto port = slot.lock();
  if (!port) {
    port = std::make_shared<IssuePort>();
    slot = port;
  }
  return port;
}

}  // namespace

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
  if (charges.threads_on_core < 2) return OperationCosts(charges);
  return OperationCosts(charges, issue_port(static_cast<unsigned>(rank) / setup.cores_per_node, charges.core));
}

}  // namespace gups::simulation
