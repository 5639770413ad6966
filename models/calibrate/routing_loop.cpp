#include "models/calibrate/routing_loop.hpp"

#include <mpi.h>

#include "kernel/core/algorithm_setup.hpp"
#include "kernel/core/local_table.hpp"
#include "kernel/core/run_config.hpp"
#include "kernel/core/table_distribution.hpp"
#include "kernel/core/table_layout.hpp"
#include "kernel/mpi/operation_costs.hpp"
#include "kernel/mpi/update_algorithm.hpp"

namespace gups::calibrate {

Timing time_routing_loop(unsigned log2_words, unsigned repeats, const BeforeEachRepeat& before_each) {
  RunConfig config;
  config.algorithm = Algorithm::routed;
  config.log2_table = log2_words;
  config.shape = "1x1x1";
  const auto setup = plan_algorithm(config, 1);
  const TableLayout layout(config.log2_table, setup.nodes);
  const OwnerFinder owner_of(layout, config.owner);
  const TableDistribution distribution(layout, setup.cores_per_node, setup.updater_cores());
  OperationCosts costs;
  LocalTable table(0, layout.local_words(0));
  const UpdateContext context{MPI_COMM_SELF, 0,     1,       layout, owner_of, config,
                              setup,         distribution, costs,  nullptr};
  return repeat_timing(repeats, [&] {
    table.initialise();
    if (before_each) before_each();
    const double start = MPI_Wtime();
    run_routed(context, table);
    return (MPI_Wtime() - start) * 1e9 / static_cast<double>(config.total_updates());
  });
}

}  // namespace gups::calibrate
