// The plan of one run of the kernel on a machine: its torus, ranks per node,
// table, verification, memory and the kernel's own arguments, worked out
// once, here, from the machine file and the kernel's rules (run_config,
// plan_algorithm, TableLayout). gups-sim and the analysis read it as JSON
// (gups-topology prints it) instead of keeping copies of those rules.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernel/core/algorithm.hpp"
#include "kernel/core/operation_charges.hpp"
#include "kernel/core/run_config.hpp"
#include "kernel/core/torus_shape.hpp"
#include "models/src/host_placement.hpp"
#include "models/src/machine.hpp"
#include "sim/levels/network_level.hpp"

namespace gups::topology {

// Above this many ranks, gups-sim's "auto" verifies by checksums: the
// distributed check's all-to-all costs O(ranks^2) to simulate.
inline constexpr std::uint64_t kFullVerificationMaxRanks = 1024;
// What one simulated rank costs the simulating process, SimGrid's state and
// the kernel's, measured at 2,048 to 131,072 ranks (sim-scale benchmark:
// 102, 87, 89 KiB). The memory check refuses what cannot fit.
inline constexpr double kSimulatedBytesPerRank = 88 * 1024;

enum class Wrap { torus, mesh, machine };

// A partition's wrap-around links by dimension: "torus", "mesh", "machine"
// (a mesh below the machine's torus.mesh_below_nodes) or one letter per
// dimension, t where it wraps and m where it does not ("ttm"). Throws
// std::invalid_argument naming the forms.
std::vector<bool> wraps_named(const std::string& wrap, const model::Machine& machine, const TorusShape& shape);
// "ttm" for {true, true, false}.
std::string wraps_text(const std::vector<bool>& wraps);

struct PlanRequest {
  std::string machine = "bgp";
  Algorithm algorithm = Algorithm::multicore;
  std::string shape;                 // or
  std::uint64_t nodes = 0;           // mapped by the machine's shape rule
  bool balanced_shapes = false;      // the balanced rule even where the machine lists a partition
  unsigned cores_per_node = 0;       // multicore: 0 = the machine's; direct: processes per node (0 = 1)
  // Processes a node (multicore: groups of whole cores, each its own role
  // plan), HPCC's mode 1: routed and multicore route over the torus of
  // processes (model::torus_of_processes), direct and hypercube run that
  // many ranks a node. 0: one (direct, hypercube: --cores-per-node's).
  unsigned processes_per_node = 0;
  std::string role_plan;             // multicore: "" = the machine's, paper, best or a PlanSpec
  std::optional<unsigned> log2_table;
  std::uint64_t words_per_node = 1024;      // with no log2_table: the table has at least this many per node
  std::optional<std::uint64_t> updates_per_node;
  std::optional<unsigned> updates_per_word;
  std::uint64_t min_updates_per_node = 0;   // with neither: the default run length, at least this
  std::uint64_t lookahead = 1024;
  OwnerMode owner = OwnerMode::division;
  std::string verify = "auto";              // auto, full, checksum, none
  bool paper_buckets = false;               // the machine's reference_bucket_sizes
  Wrap wrap = Wrap::torus;
  std::string wrap_pattern;                 // one letter per dimension (t, m); set, it overrides wrap
  unsigned nodes_per_host = 1;              // torus nodes per machine node (model::kFillHost: as its cores hold)
  std::optional<NetworkLevel> network_level;  // none: automatic_network_level(nodes)
  // The machine's inputs: "file" (its values), or the input set of the
  // model's "low" or "high" end of the interval at this size
  // (model/prediction_interval.hpp), structural unknowns included.
  std::string inputs = "file";
};

// The level `--network auto` picks: flow, the finest, where a run of it is
// cheap (up to kFlowMaxNodes nodes), queue above, where flow's wall time
// per message grows with the side of the torus (its sharing system is a
// whole torus line) and queue's grows far less, and where the cores bind
// queue's steady state is flow's to a fraction of a percent
// (docs/simulator.md, "Network levels").
inline constexpr std::uint64_t kFlowMaxNodes = 1024;
NetworkLevel automatic_network_level(std::uint64_t nodes);

struct RunPlan {
  model::Machine machine;
  std::string inputs = "file";                               // PlanRequest::inputs
  std::vector<std::pair<std::string, double>> input_set;     // at an end: each ranged input's value there
  nlohmann::json model_interval;  // gups-model's exact interval for the run over the file's ranges (update algorithms)
  // multicore: the node's cores within 2% of the slowest in the model at the
  // file's values (a balanced plan: several cores bind at once).
  unsigned model_binding_cores = 0;
  Algorithm algorithm = Algorithm::multicore;
  TorusShape shape{std::vector<std::uint32_t>{1}};
  bool mesh = false;
  // By dimension, when some wrap and others not (PlanRequest::wrap_pattern);
  // empty when every one is as `mesh` says.
  std::vector<bool> wraps;
  NetworkLevel network_level;  // flow unless asked
  unsigned ranks_per_node = 1;               // on each node (host) of `shape`
  std::uint64_t ranks = 1;
  unsigned processes_per_node = 1;           // PlanRequest::processes_per_node, settled
  TorusShape process_shape{std::vector<std::uint32_t>{1}};  // the torus the kernel routes over (--shape)
  std::optional<PlanSpec> role_plan;        // multicore: the plan the cores follow
  std::string role_plan_choice;             // paper, best or given
  unsigned log2_table = 1;
  unsigned updates_per_word = 1;
  std::uint64_t updates_per_node = 0;
  std::uint64_t default_updates_per_node = 0;  // the run's length when none is asked (--converge's least)
  std::optional<unsigned> bucket_size;      // the paper's, when asked
  std::optional<unsigned> reference_bucket_size;
  Verification verify = Verification::full;
  double table_bytes = 0;
  double simulation_bytes = 0;              // tables (twice when checked by checksums) and every rank's state
  std::vector<std::string> kernel_arguments;  // gups and gups-smpi alike
  model::HostPlacement placement;            // sets tu in the charges
  std::vector<OperationCharges> charges;      // per core of a node, from the machine's cycles
};

// The run length when none is asked for, the same for gups-sim and every
// study: 16,384 updates a node up to 64 nodes, 8,192 up to 4,096 nodes,
// 4,096 above (at least 2^25 updates in all, and four times a node's
// look-ahead of 1,024 for the pipeline to fill). With DMA injection a
// generator runs ahead of the core that binds and the pipeline fills slowly,
// so a short run does not settle; larger machines average over more nodes
// and settle on fewer updates a node. Whether a run settled is the
// steady-state verdict's to say (sim/sim_convergence.py).
std::uint64_t default_updates_per_node(std::uint64_t nodes);
// The rule above in words, with the figures it gives at a few sizes (gups-sim's --help reads it from the catalogue).
std::string default_updates_per_node_help();

// Throws std::invalid_argument naming the option at fault.
RunPlan plan_run(const PlanRequest& request);

nlohmann::json to_json(const RunPlan& plan);

// The torus a request names: --shape as given, or --nodes by the machine's
// shape rule (exactly one of them); throws std::invalid_argument.
TorusShape requested_shape(const model::Machine& machine, const std::string& shape, std::uint64_t nodes);

// What every plan says of its machine and networks: the plan's schema, the
// machine file (with its path), the physical network and the virtual
// torus, nodes, level, ranks and clock.
// Where a probe (Apex-Map, the global-exchange probes) runs, as asked and
// as planned: the machine, its torus by the machine's shape rule, processes.
struct ProbeWhere {
  std::string machine = "bgp";
  std::string shape;             // or
  std::uint64_t nodes = 0;       // mapped by the machine's shape rule
  bool balanced_shapes = false;  // the balanced rule even where the machine lists a partition
  unsigned ranks_per_node = 1;
  bool mesh = false;
  std::optional<NetworkLevel> network_level;
};
struct ProbePlacement {
  model::Machine machine;
  TorusShape shape{std::vector<std::uint32_t>{1}};
  bool mesh = false;
  NetworkLevel network_level;  // flow unless asked (automatic_network_level)
  unsigned ranks_per_node = 1;
  std::uint64_t ranks = 1;
};
// Throws std::invalid_argument naming the option at fault.
ProbePlacement place_probe(const ProbeWhere& where);

// `wraps`: by dimension, when they differ (else every one as `mesh` says).
nlohmann::json network_plan_json(const model::Machine& machine, const TorusShape& shape, bool mesh, NetworkLevel level,
                               unsigned ranks_per_node, std::uint64_t ranks, const std::vector<bool>& wraps = {});

}  // namespace gups::topology
