// A machine file: the single description of a machine that the analytic
// model and the simulator both read, so they never disagree about inputs.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernel/core/packet_format.hpp"
#include "kernel/core/table_layout.hpp"
#include "kernel/core/role_plan.hpp"
#include "kernel/core/torus_shape.hpp"
#include "models/src/input_ranges.hpp"
#include "models/src/message_layer.hpp"
#include "models/src/node_hardware.hpp"
#include "topologies/topology.hpp"

namespace gups::model {

// Per-operation costs in cycles of one core.
struct CycleCosts {
  double generate = 0;              // tg: one stream step and its owner
  double update = 0;                // tu: one table update, as routing loops do it (one miss at a time)
  double update_streamed = 0;       // tu in a tight loop of updates (direct), where misses overlap
  // The same two when every core of the node updates at once, each its own
  // table: the cores then share the memory system. A machine file without
  // them gives no such figure, and the single-core ones stand.
  double update_all_cores = 0;
  double update_streamed_all_cores = 0;
  double loop_overhead = 0;         // tos
  double send_call = 0;             // one send call, any size
  double receive_call = 0;          // one receive call, one packet
  double receive_call_batched = 0;  // per packet when receive_batch_packets come in one call
  unsigned receive_batch_packets = 1;
  double routing_hop = 0;           // single core: ts + tr + top of one software hop, per update
  double message_overhead = 0;      // direct: top, per update sent and received
  // routing_hop less its send and receive calls: what a simulated routed
  // core pays per hop besides the calls it makes. A machine file without it
  // (Blue Gene: message_overhead is derived so) gives message_overhead.
  double routing_hop_without_calls = 0;
  double stage_split = 0;           // hypercube: one update in one stage, kept or put out to the partner
  std::vector<double> core_overhead;  // multicore: top0 .. top(k-1), per update
  bool core_overhead_uniform = false; // the file gives one figure for every core, whatever their number
  // Finding an update's owner when the owner count is not a power of two,
  // beyond the shift a power of two takes (which the overheads include).
  double owner_division = 0;        // HPCC's integer divisions
  double owner_prediction = 0;      // the paper's prediction (multiply, shift, one correction)
};

// What a process of a global data-access probe (Apex-Map) spends besides
// its messages, whose calls are costs_cycles' send_call and receive_call.
struct DataAccessCycles {
  double block_start = 0;  // the first word of a block: a random access to memory
  double word = 0;         // each word of a block read and added to a sum
  double poll = 0;         // one look at the network that finds nothing
};

// The machine's physical network. A torus (or mesh) of 1 to 6 dimensions is
// also the virtual torus the routed algorithms route over (the paper's
// mapping); on a fat-tree or a dragonfly the virtual torus is a balanced
// grid of `torus.dimensions` dimensions laid on the nodes in order.

struct TorusLimits {
  unsigned dimensions = 3;  // of the physical torus; on the other topologies, of the virtual one
  std::uint32_t max_side = 0;  // longest torus side a partition may have
  // Partitions of fewer nodes have no wrap-around links (0: none is a mesh).
  std::uint64_t mesh_below_nodes = 0;
  // The machine's own partitions by node count (the file's torus.partitions):
  // shape_for gives these where listed, the balanced rule elsewhere.
  std::map<std::uint64_t, TorusShape> partitions;
  // Which dimensions have wrap-around links (torus.wraps, "tttmtm"; empty:
  // every one), for partitions from mesh_below_nodes up; a listed partition
  // may give its own (Mira's 1024 nodes: a mesh in one dimension).
  std::vector<bool> wraps;
  std::map<std::uint64_t, std::vector<bool>> partition_wraps;
};

struct Machine {
  std::string name;
  std::string description;
  double clock_hz = 0;
  unsigned cores_per_node = 1;
  double memory_per_node_bytes = 0;
  double memory_latency_s = 0;  // 0: not given (it only sets costs_cycles.update's default)
  // The share of the routes' bound the network delivers under the algorithms'
  // traffic (the network section's efficiency; 1: not given, the bound as routed).
  double network_efficiency = 1;
  bool network_efficiency_given = false;  // an input (with a range) only where the file gives it
  double link_bandwidth = 0;  // bytes per second, each way
  double link_latency = 0;    // seconds
  const TopologyKind* topology = &topology_named("torus");  // its network section's (topologies.def)
  TorusLimits torus;
  // SimGrid's topo_parameters of the whole machine's network, where its
  // partitions are not shapes (a fat-tree's, a dragonfly's).
  std::string network_parameters;
  PacketFormat packet;
  // Each network level's own parameters, by level name, as the file gives
  // them (the level checks them when a platform asks for it).
  nlohmann::json network_levels = nlohmann::json::object();
  CycleCosts costs;
  // The message layer in LogGP terms (the file's `message_layer`), from which
  // the calls in `costs` and the messaging unit's core costs are derived;
  // absent where the file gives those costs in cycles (bgp, bgl). With it
  // the file gives no routing_hop: a hop costs routing_hop_without_calls plus
  // its calls spread over the bucket.
  std::optional<MessageLayer> message_layer;
  // Hardware threads, a messaging unit, updates near memory (the file's
  // `node` section; absent: one thread a core, everything on the cores).
  NodeHardware node;
  // How far each timed cost's typical value lies above the one in `costs`:
  // cost name -> (median of its timings' repeats / their least) - 1, written
  // by gups-calibrate. Empty: the costs are not timed (the paper's machines).
  std::map<std::string, double> cost_spread;
  std::optional<DataAccessCycles> data_access;  // absent: the machine cannot run the probe simulated
  std::map<std::uint64_t, unsigned> reference_bucket_sizes;  // node count -> size used by the paper
  // Published figures to print beside the model: series name (such as
  // "multicore_bound") -> node count -> GUPS.
  std::map<std::string, std::map<std::uint64_t, double>> reference_gups;
  // The machine the references were measured on (references_of): its name,
  // cores, clock and links. A file whose own differ (a copy of bgp.json with
  // other cores, say) has its references left out, with a warning.
  nlohmann::ordered_json references_of;
  std::map<std::string, InputSource> sources;                 // field -> where its value comes from
  // The inputs (machine_schema.hpp) the file left out, which took their defaults.
  std::vector<std::string> defaulted;
  // Every input's kind and range (input_ranges.hpp), as the loader read them.
  std::vector<InputRange> ranges;
  std::vector<std::string> warnings;                          // what the loader left out, and why (one line each)
  nlohmann::json notes;                                       // free-form, kept as read
  std::string path;                                           // file it was read from, empty if made
  // The role plan multicore runs by default: "paper" (the fixed rule, the
  // paper's plan on Blue Gene/P), "best" (the planner's) or a PlanSpec.
  // Where a file names none, the paper's rule: the plan gups runs by
  // default, having no costs to plan from, so that a host's measured run
  // and its model (a calibrated file) follow one plan.
  std::string role_plan = "paper";

  // The mapping mode (the paper's Table 1) the machine's published figures
  // ran, or "best": the mode planner's choice among those HPCC permits.
  // Empty: each algorithm's own (default_mapping_mode).
  std::string mapping_mode;

  // Hardware threads of a node: what a role plan or direct's processes fill.
  unsigned hardware_threads() const noexcept { return cores_per_node * node.threads_per_core; }

  // Set by a program asked for balanced shapes (--shape-rule balanced): the
  // listed partitions are then left aside.
  bool balanced_shapes = false;

  // The partition shape for a node count under this machine's rules: its
  // listed partition, else the most balanced shape; throws
  // std::invalid_argument naming the count when it cannot be mapped.
  TorusShape shape_for(std::uint64_t nodes) const;
  // Where shape_for takes a count's shape from: "partition" or "balanced".
  std::string shape_rule_for(std::uint64_t nodes) const;

  // A partition of this many nodes is a mesh, not a torus.
  bool is_mesh(std::uint64_t nodes) const noexcept {
    return topology->is_virtual_torus && nodes < torus.mesh_below_nodes;
  }

  // Each dimension's wrap-around for a partition of this shape (all false for
  // a mesh; all true off the torus, whose virtual torus always wraps); a
  // listed partition's own only for its own shape.
  std::vector<bool> wraps_of(const TorusShape& shape) const;

  // tu (or its streamed form) when `updating_cores` of a node's cores update
  // at once: from the one-core figure at 1 to the all-cores figure at
  // cores_per_node, in a straight line (assumed: the cores share the memory
  // system evenly), and no further beyond it.
  double update_cycles(bool streamed, unsigned updating_cores) const noexcept;

  // What a core pays for one send call and for one packet received (a call
  // of one packet, or one of a batch): the messaging unit's descriptor and
  // FIFO costs where the node has one, else costs_cycles'.
  double send_call_cycles() const noexcept;
  double packet_receive_cycles(bool batched) const noexcept;
  // One update as a core's thread spends it (update_cycles, split into what
  // the core issues and what it waits on memory); an atomic update near
  // memory is issued and not waited for.
  ThreadLoad update_load(bool streamed, unsigned updating_cores) const noexcept;

  // top of each core of `plan`. A file's list of per-core figures is for
  // the fixed rule's plan on its own core count; on any other plan each core
  // takes the mean of that plan's cores of its kind (routing, or only
  // updating): see overheads_by_kind.
  std::vector<double> core_overheads(const RolePlan& plan) const;
  // True when core_overheads(plan) had to average the file's figures by kind.
  bool overheads_by_kind(const RolePlan& plan) const;

  // Cycles to find one update's owner among `owners`, beyond the shift a
  // power of two takes: 0 for a power of two.
  double owner_lookup_cycles(OwnerMode mode, std::uint64_t owners) const noexcept;
};

// The names of CycleCosts' numbers, as the machine file spells them
// (core_overhead: every core's).
std::vector<std::string> cost_names();
// A cost by its name (core_overhead: the slowest core's), for comparing two
// calibrations; throws std::invalid_argument for an unknown name.
double cost_named(const CycleCosts& costs, const std::string& name);
// The costs with each named one raised by its spread: what the host costs
// at the median of its calibration's repeats rather than their least.
CycleCosts with_spread(CycleCosts costs, const std::map<std::string, double>& spread);

// Reads and checks a machine file. `name_or_path` is a path, or a name looked
// up as <directory>/<name>.json in each of `directories`. Throws
// std::invalid_argument naming the file and the field at fault.
Machine load_machine(const std::string& name_or_path, const std::vector<std::string>& directories);

// The machine file's document: what load_machine reads back as the same
// machine (fields in the file's order). The one writer of machine files.
nlohmann::ordered_json to_json(const Machine& machine);

// The directories searched for machine names: $TORUS_GUPS_MACHINES, then an
// installed program's PREFIX/share/torus-gups/machines, then the source
// tree's models/machines.
std::vector<std::string> default_machine_directories();

}  // namespace gups::model
