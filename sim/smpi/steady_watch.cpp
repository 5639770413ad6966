// The simulation's side of simulation::steady_watch(): one watch for the
// whole simulated machine, made by the first rank to ask. State of the
// simulation, not of a rank: every rank's notes and questions meet in it.
#include <memory>

#include "kernel/mpi/simulation.hpp"

namespace gups::simulation {

SteadyWatch* steady_watch(const RunConfig& config, const AlgorithmSetup& setup) {
  if (config.settle_tolerance <= 0) return nullptr;
  static const auto watch = std::make_unique<SteadyWatch>(
      config.settle_tolerance, (config.settle_least + setup.plan.pipelines() - 1) / setup.plan.pipelines());
  return watch.get();
}

}  // namespace gups::simulation
