// One signature for every update algorithm, so that one driver runs them
// all on the same table and the same checks decide whether they agree.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "kernel/core/algorithm.hpp"
#include "kernel/core/algorithm_setup.hpp"
#include "kernel/core/local_table.hpp"
#include "kernel/core/steady_watch.hpp"
#include "kernel/core/run_config.hpp"
#include "kernel/core/table_distribution.hpp"
#include "kernel/core/table_layout.hpp"
#include "kernel/core/update_stats.hpp"
#include "kernel/mpi/link_load.hpp"
#include "kernel/mpi/node_handoffs.hpp"
#include "kernel/mpi/node_pending.hpp"
#include "kernel/mpi/operation_costs.hpp"
#include "kernel/mpi/shared_node_table.hpp"

namespace gups {

struct UpdateContext {
  MPI_Comm comm;  // the update phase's messages; all received when it returns
  int rank;
  int ranks;
  const TableLayout& layout;  // over nodes (for direct, a node is a rank)
  const OwnerFinder& owner_of;
  const RunConfig& config;
  const AlgorithmSetup& setup;
  const TableDistribution& distribution;
  OperationCosts& costs;  // this rank's marks of what the models count
  LinkLoad* links;        // simulated runs with --link-load: what the torus links carry
  NodePending* node_pending = nullptr;  // real runs whose nodes' cores share a host
  const NodeHandoffs* handoffs = nullptr;  // ... and hand off through shared memory
  SharedNodeTable* shared_table = nullptr;  // direct in mapping modes 5, 6: the node's table
  SteadyWatch* steady_watch = nullptr;      // simulated runs asked to settle: stop generating when settled
};

// Applies this rank's share of the stream to the table slice it holds;
// returns when every update of every rank has been applied.
using UpdateAlgorithm = UpdateStats (*)(const UpdateContext&, LocalTable&);

struct AlgorithmEntry {
  Algorithm algorithm;
  UpdateAlgorithm run;
};

const std::vector<AlgorithmEntry>& update_algorithms();
std::vector<std::string> update_algorithm_names();

// Each row's function (routed and multicore share one engine, driven by the
// role plan of the setup; declaring it twice is harmless).
#define GUPS_UPDATE_ALGORITHM(id, name, help, routes_over_torus, specialised_cores, in_stages, run) \
  UpdateStats run(const UpdateContext& context, LocalTable& table);
#include "kernel/core/variants.def"

}  // namespace gups
