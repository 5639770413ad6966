// The analytic bounds of the paper for one machine, algorithm and torus:
// the CPU bound (Eq. 1 for direct and routed, Eq. 6/7 for multicore), the
// network bound 4B/b, and which one binds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernel/core/algorithm.hpp"
#include "kernel/core/role_plan.hpp"
#include "kernel/core/torus_shape.hpp"
#include "models/src/machine.hpp"
#include "models/src/hypercube_traffic.hpp"
#include "models/src/measured_bisection.hpp"
#include "models/src/network_bound.hpp"

#include <map>
#include <memory>

namespace gups::model {

enum class BucketRule {
  sizing,     // floor(look-ahead / buckets of the role plan), what `gups` uses
  reference,  // the machine file's published sizes where it lists the node count
};

// Work an interval's draws would otherwise repeat, since it depends on no
// cost: the traffic of one shape on its physical routes (network_bound.hpp),
// by the network, the shape, mesh or torus and software routing; and the
// direct algorithm's message sizes, by processes and look-ahead.
struct RoutesCache {
  std::map<std::string, NetworkBound> bounds;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::vector<std::uint64_t>> direct_message_sizes;
  std::map<std::string, HypercubeTraffic> hypercube;
};

struct ModelOptions {
  Algorithm algorithm = Algorithm::multicore;
  std::uint64_t lookahead = 1024;
  unsigned cores_per_node = 0;          // multicore: 0 = the machine's
  unsigned processes_per_node = 1;      // direct, hypercube: 4 on Blue Gene/P is virtual-node mode
  // The paper's Table 1 mode (0: the algorithm's own, default_mapping_mode).
  // Direct in modes 5 and 6 sends to nodes, whose processes share a table,
  // under a look-ahead of the node's (6) or each process's (5).
  unsigned mapping_mode = 0;
  BucketRule buckets = BucketRule::sizing;
  OwnerMode owner = OwnerMode::division;  // how owners are found when their count is not a power of two
  // Torus nodes placed on one of the machine's nodes, sharing its cores and
  // memory (a routed run of 2 nodes on one 2-core host: 2). 0: as many as
  // its cores hold, up to the node count (mpirun's placement by slot).
  unsigned nodes_per_host = 1;
  // A bisection measured by the bisection probe: at its node count the
  // torus's network bound 4B/b takes it for B (gups-model --bisection).
  std::optional<MeasuredBisection> measured_bisection;
  // multicore: "" = the machine's role_plan, "paper" (the fixed rule),
  // "best" (the planner's), or a PlanSpec such as 2xX/YZ+3.
  std::string role_plan;
  // The plan itself, where a program already holds it (the planner weighing
  // its family): taken before role_plan, with no text to parse.
  std::optional<PlanSpec> role_plan_spec;
  // Each core's role in words (CoreLoad::role): the role planner, weighing
  // hundreds of plans, needs only their cycles.
  bool describe_roles = true;
  // Set by a caller that predicts one shape many times over (an interval's
  // draws): the traffic on the physical routes depends on the shape and the
  // network, not on the costs, so it is worked out once.
  std::shared_ptr<RoutesCache> routes_cache;
};

// One role plan as the planner weighed it.
struct PlanOption {
  PlanSpec spec;
  double cycles = 0;  // of the slowest core, per update of the node
  double gups = 0;    // the lower of its CPU bound and its network bound
};

struct CoreLoad {
  std::string role;
  double cycles = 0;  // per update of the node, of this hardware thread alone (issued and waited)
  double share = 0;   // core_cycles / the slowest core's
  double wait = 0;    // of cycles, those it waits on memory while its core may issue for another thread
  unsigned core = 0;  // the physical core it runs on (core_of_thread)
  double core_cycles = 0;  // that core's, its threads shared (shared_core_cycles)
};

struct Prediction {
  Algorithm algorithm = Algorithm::multicore;
  std::uint64_t nodes = 0;
  std::uint64_t processes = 0;
  TorusShape shape{std::vector<std::uint32_t>{1}};
  unsigned buckets = 0;                 // per node (routed, multicore)
  unsigned bucket_size = 0;             // used in the bound
  unsigned rule_bucket_size = 0;        // floor(look-ahead / buckets)
  std::optional<unsigned> reference_bucket_size;
  double mean_fill = 0;                 // updates per message
  double expected_hops = 0;
  double send_cycles = 0;               // ts per update
  double receive_cycles = 0;            // tr per update
  double owner_cycles = 0;              // per owner found, on each core that decides where an update goes
  unsigned nodes_per_host = 1;          // torus nodes on one of the machine's nodes
  unsigned updating_cores = 1;          // cores of one machine node applying updates at once
  double update_cycles = 0;             // tu at that many updating cores
  double update_wait_cycles = 0;        // of update_cycles, those its thread waits on memory (node_hardware.hpp)
  // hypercube: its stages, and what each chunk of look-ahead waits on the
  // network besides the cores' work (every stage's longest route's latency
  // and its message's transfer: the stages are synchronous).
  unsigned stages = 0;
  double stage_wait_seconds = 0;
  std::vector<HypercubeStageLoad> stage_loads;  // each stage's traffic (hypercube_traffic.hpp)
  // network_gups is the stages in lockstep, each stage's busiest link in
  // turn. A pair goes on once its own exchange is done, so pairs' stages
  // may overlap: with every stage's traffic on the links at once, the
  // busiest link of their sum is what no run can beat (a run above the
  // lockstep figure stays below this one).
  double overlapped_busiest_link_load = 0;
  std::string overlapped_busiest_class;
  std::optional<double> overlapped_network_gups;
  // The same chunk with every message of a stage in flight at once, its
  // busiest link shared by all it carries: the CPU bound's low end. Between
  // the two lies what a network that shares links fairly gives (SimGrid's
  // flow level); cpu_gups is the latency level's, each message alone.
  double contended_stage_wait_seconds = 0;
  std::optional<double> contended_gups;
  std::vector<CoreLoad> cores;          // one entry for direct and routed
  // multicore: the plan the cores follow, how it was chosen ("paper",
  // "best", "given") and whether the machine's per-core overheads were
  // averaged by kind to fit it (Machine::overheads_by_kind).
  std::optional<PlanSpec> role_plan;
  std::string role_plan_choice;
  std::vector<PlanOption> role_plans_compared;  // when the planner chose: the best of each pipeline count, the rule's
  bool overheads_by_kind = false;
  double cpu_cycles_per_update = 0;     // of the slowest core
  // The node's bound: the lowest of its cores' and, where the node has them,
  // its messaging unit's packet rate and its near-memory update rate.
  double cpu_gups = 0;
  double cores_gups = 0;
  std::optional<double> messaging_unit_gups;
  std::optional<double> near_memory_gups;
  std::string node_binds = "cores";     // which of them sets cpu_gups
  unsigned mapping_mode = 0;            // the paper's Table 1 mode the prediction runs (0: the algorithm's)
  // The CPU bound with every timed cost at the median of its calibration's
  // repeats (Machine::cost_spread); none when the machine's costs carry no spread.
  std::optional<double> cpu_gups_at_median_costs;
  double bytes_per_update = 0;          // b: on the wire, with headers, acks, partial packets
  bool mesh = false;                    // the machine's partition of this size has no wrap-around links
  std::vector<bool> wraps;              // each dimension's wrap-around (Machine::wraps_of)
  const TopologyKind* topology = nullptr;  // of the physical network
  double bisection_bytes_per_s = 0;     // B: one way across the cut of the longest side (or halving the nodes)
  double model_bisection_bytes_per_s = 0;  // B from the links, whether or not a measured one replaced it
  bool bisection_measured = false;      // B is the bisection probe's (ModelOptions::measured_bisection)
  // Given a measured B (on a torus): 4B/b from the links' B, to set beside network_gups from the measured one.
  std::optional<double> links_network_gups;
  double software_hops = 0;             // network crossings per update (0: not worked out, direct on a torus)
  double physical_hops_per_software_hop = 0;
  std::string network_bottleneck;       // the busiest links' class
  // The busiest link's bound on the physical routes (SimGrid's); off the
  // torus it is network_gups, on a torus it departs from 4B/b where ties
  // half-way round a ring all go one way (network_bound.hpp).
  std::optional<double> routes_network_gups;
  // On a torus: the paper's 4B/b (from the bisection, measured or not).
  std::optional<double> bisection_network_gups;
  // The achievable bound: on a torus the lower of 4B/b and the routes'
  // busiest links, elsewhere the routes', times network_efficiency; none
  // when no update crosses a network.
  std::optional<double> network_gups;
  double network_efficiency = 1;        // the share of those bounds network_gups takes (Machine::network_efficiency)
  bool network_binds = false;
  double gups = 0;
};

// Throws std::invalid_argument for an unknown algorithm or options the
// machine cannot take.
Prediction predict(const Machine& machine, const TorusShape& shape, const ModelOptions& options);

// multicore's k: the options' cores per node, else the machine's.
unsigned node_cores(const Machine& machine, const ModelOptions& options);

// The torus that routed or multicore runs over with `per_node` processes
// (multicore: groups of cores) on each node of `nodes`: the node's
// processes one more dimension, first (fastest), so that processes n*p ..
// n*p+p-1 share node n; a six-dimensional node torus folds them into its
// first dimension instead.
TorusShape torus_of_processes(const TorusShape& nodes, unsigned per_node);

// The CPU bound alone (no network), for the role planner's comparisons.
Prediction cpu_prediction(const Machine& machine, const TorusShape& shape, const ModelOptions& options);

// The sizes the crossover is searched over (crossover_sizes), and the first
// of them where the network bound is below the CPU bound; none if the
// machine's shape rules stop first. Independent of any sweep's sizes.
std::vector<std::uint64_t> crossover_sizes(const Machine& machine);
std::optional<std::uint64_t> crossover_nodes(const Machine& machine, const ModelOptions& options);

// One-way bandwidth across the cut that halves the longest side; a ring of
// more than two nodes is cut twice (the wrap-around link), a chain of a
// mesh once.
double bisection_bandwidth(const TorusShape& shape, double link_bandwidth, bool mesh = false);
// With each dimension's wrap-around: where only some wrap, the least of the
// cuts that halve a dimension (twice its lines where it wraps, once where not).
double bisection_bandwidth(const TorusShape& shape, double link_bandwidth, const std::vector<bool>& wraps);

struct DirectFill {
  double mean_updates_per_message = 0;
  double mean_wire_bytes_per_update = 0;
};
// The HPCC reference policy (send the fullest bucket when the budget is
// used up) replayed on the HPCC stream for `processes` destinations.
DirectFill direct_fill(const PacketFormat& packet, std::uint64_t processes, std::uint64_t lookahead,
                       RoutesCache* cache = nullptr);
// How many messages of each size (index: updates in it) that policy sends
// over its counted stretch of the stream.
std::vector<std::uint64_t> direct_message_sizes(std::uint64_t processes, std::uint64_t lookahead);

}  // namespace gups::model
