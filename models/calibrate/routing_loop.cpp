#include "models/calibrate/routing_loop.hpp"

#include "kernel/core/algorithm_setup.hpp"
#include "kernel/core/local_table.hpp"
#include "kernel/core/run_config.hpp"
#include "kernel/core/table_distribution.hpp"
#include "kernel/core/table_layout.hpp"
#include "kernel/mpi/operation_costs.hpp"
#include "kernel/mpi/update_algorithm.hpp"

namespace gups::calibrate {

Timing time_routing_loop(MPI_Comm comm, unsigned log2_words, unsigned repeats, const BeforeEachRepeat& before_each) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  RunConfig config;
  config.algorithm = Algorithm::routed;
  config.log2_table = log2_words;
  if (ranks == 1) config.shape = "1x1x1";  // otherwise the balanced shape a run of this many ranks takes
  const auto setup = plan_algorithm(config, ranks);
  const TableLayout layout(config.log2_table, setup.nodes);
  const OwnerFinder owner_of(layout, config.owner);
  const TableDistribution distribution(layout, setup.cores_per_node, setup.updater_cores());
  OperationCosts costs;
  const auto node = static_cast<std::uint64_t>(rank);
  LocalTable table(layout.global_start(node), layout.local_words(node));
  const UpdateContext context{comm,     rank,         ranks, layout,  owner_of, config,
                              setup,    distribution, costs, nullptr};
  const double share = static_cast<double>(config.total_updates()) / ranks;
  return repeat_timing(repeats, [&] {
    table.initialise();
    if (before_each) before_each();
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    run_routed(context, table);
    return (MPI_Wtime() - start) * 1e9 / share;
  });
}

}  // namespace gups::calibrate
