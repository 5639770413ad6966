#include "models/src/bounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/src/bucket_counts.hpp"
#include "kernel/core/hpcc_stream.hpp"
#include "kernel/core/mapping_mode.hpp"
#include "kernel/core/role_plan.hpp"
#include "models/src/plan_cache.hpp"
#include "models/src/host_placement.hpp"
#include "models/src/machine_network.hpp"
#include "models/src/network_bound.hpp"
#include "models/src/role_planner.hpp"

namespace gups::model {
namespace {

// A mean fill is a fraction of an update: its last update takes a packet.
double mean_wire_bytes(const PacketFormat& packet, double mean_fill) {
  return static_cast<double>(message_wire_bytes(packet, static_cast<std::uint64_t>(std::ceil(mean_fill))));
}

double gups_of(double workers, double clock_hz, double cycles_per_update) {
  return workers * clock_hz / cycles_per_update * 1e-9;
}

unsigned chosen_bucket_size(const Machine& machine, const ModelOptions& options, Prediction& p) {
  const auto reference = machine.reference_bucket_sizes.find(p.nodes);
  if (reference != machine.reference_bucket_sizes.end()) p.reference_bucket_size = reference->second;
  if (options.buckets == BucketRule::reference && p.reference_bucket_size) return *p.reference_bucket_size;
  return p.rule_bucket_size;
}

void size_from_plan(const Machine& machine, const ModelOptions& options, const RolePlan& plan,
                    Prediction& p) {
  const auto sizing = cached_bucket_sizing(plan, p.shape, options.lookahead);
  p.buckets = sizing.total();
  p.rule_bucket_size = sizing.capacity;
  if (p.rule_bucket_size == 0) {
    throw std::invalid_argument(fmt::format(
        "a look-ahead of {} cannot give each of the {} buckets of a {} node one update",
        options.lookahead, p.buckets, p.shape.to_string()));
  }
  p.bucket_size = chosen_bucket_size(machine, options, p);
  p.mean_fill = p.bucket_size;
}


// How many torus nodes share one machine node, and how many of its cores
// then update at once: that sets tu (Machine::update_cycles).
void place_prediction_on_hosts(const Machine& machine, const ModelOptions& options, const RolePlan* plan,
                               Prediction& p) {
  if (options.processes_per_node == 0) throw std::invalid_argument("processes per node must be at least 1");
  unsigned ranks = 1, updaters = 1;  // per torus node
  // Updates applied in a loop that does nothing else overlap their misses
  // (direct's, and a core that only updates); a core that also generates
  // and routes applies one at a time between its other work.
  bool streamed = false;
  const auto model = model_of(options.algorithm);
  if (model == AlgorithmModel::direct || model == AlgorithmModel::hypercube) {
    ranks = updaters = options.processes_per_node;
    streamed = true;  // hypercube: a chunk's updates applied in a loop of their own
  } else if (model == AlgorithmModel::multicore) {
    ranks = plan->cores();
    updaters = plan->updaters();
    streamed = plan->role(plan->updater_cores().front()).only_updates();
  }
  const auto placement = place_on_hosts(machine, p.nodes, ranks, updaters, options.nodes_per_host);
  p.nodes_per_host = placement.nodes_per_host;
  p.updating_cores = placement.updating_cores;
  const auto update = machine.update_load(streamed, p.updating_cores);
  p.update_cycles = update.issue + update.wait;
  p.update_wait_cycles = update.wait;
}

// The bounds the node sets besides its cores': its messaging unit's packets
// (`packets_per_update`: what the unit injects, and as many it receives, per
// update the node makes) and its near-memory updates. The lowest binds.
// The lowest of the node's bounds binds: its cores', its messaging unit's,
// its near-memory updates'.
void bind_lowest_node_bound(Prediction& p) {
  p.cpu_gups = p.cores_gups;
  p.node_binds = "cores";
  if (p.messaging_unit_gups && *p.messaging_unit_gups < p.cpu_gups) {
    p.cpu_gups = *p.messaging_unit_gups;
    p.node_binds = "messaging unit";
  }
  if (p.near_memory_gups && *p.near_memory_gups < p.cpu_gups) {
    p.cpu_gups = *p.near_memory_gups;
    p.node_binds = "near-memory updates";
  }
}

void bound_by_node_resources(const Machine& machine, double packets_per_update, Prediction& p) {
  p.cores_gups = p.cpu_gups;
  const double nodes = static_cast<double>(p.nodes);
  if (const auto& unit = machine.node.messaging_unit; unit && packets_per_update > 0) {
    p.messaging_unit_gups = nodes * unit->packets_per_s / packets_per_update * 1e-9;
  }
  if (const auto& near = machine.node.near_memory) p.near_memory_gups = nodes * near->updates_per_s * 1e-9;
  bind_lowest_node_bound(p);
}

// Processes of one node spread over its cores (core_of_thread): the node's
// updates a second when each process takes `load` per update of its own.
double shared_process_rate(const Machine& machine, unsigned processes, ThreadLoad load) {
  const unsigned cores = machine.cores_per_node;
  double rate = 0;
  for (unsigned core = 0; core < cores; ++core) {
    const unsigned here = processes / cores + (core < processes % cores ? 1 : 0);
    if (here == 0) continue;
    rate += here / shared_core_cycles(std::vector<ThreadLoad>(here, load));
  }
  return rate * machine.clock_hz;
}

void direct_bound(const Machine& machine, const ModelOptions& options, Prediction& p) {
  const auto& c = machine.costs;
  p.processes = p.nodes * options.processes_per_node;
  // Modes 5 and 6: a node's processes share its table, so updates go to
  // nodes, each process under its share of the node's look-ahead (6).
  const auto mode = mapping_mode(options.mapping_mode ? options.mapping_mode : 1);
  const std::uint64_t owners = mode.table_per_node ? p.nodes : p.processes;
  const auto lookahead = lookahead_limits(mode, options.lookahead, options.processes_per_node).per_core;
  if (lookahead == 0) {
    throw std::invalid_argument(fmt::format("mapping mode {}: a look-ahead of {} a node leaves none to each of its {} "
                                            "processes", mode.number, options.lookahead, options.processes_per_node));
  }
  const auto fill = direct_fill(machine.packet, owners, lookahead, options.routes_cache.get());
  p.mean_fill = fill.mean_updates_per_message;
  p.bytes_per_update = fill.mean_wire_bytes_per_update;
  const double remote = static_cast<double>(owners - 1) / static_cast<double>(owners);
  double packets = 0;
  if (owners > 1) {
    packets = message_packets(machine.packet, static_cast<unsigned>(std::ceil(p.mean_fill)));
    p.send_cycles = machine.send_call_cycles() / p.mean_fill;
    p.receive_cycles = machine.packet_receive_cycles(false) * packets / p.mean_fill;
  }
  p.owner_cycles = machine.owner_lookup_cycles(options.owner, owners);
  const double cycles = c.generate + p.owner_cycles + p.update_cycles + c.loop_overhead +
                        remote * (p.send_cycles + p.receive_cycles + c.message_overhead);
  p.cores = {{"generate, send, receive, update (Eq. 1)", cycles, 1.0, p.update_wait_cycles, 0, cycles}};
  p.cpu_cycles_per_update = cycles;
  p.cpu_gups = gups_of(static_cast<double>(p.processes), machine.clock_hz, cycles);
  if (machine.node.threaded()) {
    const ThreadLoad load{cycles - p.update_wait_cycles, p.update_wait_cycles};
    p.cpu_gups = static_cast<double>(p.nodes) * shared_process_rate(machine, options.processes_per_node, load) * 1e-9;
  }
  bound_by_node_resources(machine, remote * packets / p.mean_fill * options.processes_per_node, p);
}

// The stages' traffic depends on no cost: an interval's draws take it from the cache.
HypercubeTraffic hypercube_traffic_of(const Machine& machine, const ModelOptions& options, const Prediction& p) {
  const auto wraps = machine.wraps_of(p.shape);
  const auto work_out = [&] { return hypercube_traffic(*physical_links(machine, p.shape, wraps), options.processes_per_node); };
  if (!options.routes_cache) return work_out();
  const auto key = fmt::format("{} {} {} {} {}", machine.topology->name, machine.network_parameters,
                               p.shape.to_string(), wraps_letters(wraps), options.processes_per_node);
  auto& cache = options.routes_cache->hypercube;
  auto found = cache.find(key);
  if (found == cache.end()) found = cache.emplace(key, work_out()).first;
  return found->second;
}

// Every process goes through the stages a chunk at a time (its look-ahead,
// mode 1): it generates the chunk, and at each stage looks at every update it
// holds, sends its partner those owned across the split (messages of at most
// a chunk) and takes what its partner sends; it then applies what it holds.
// A chunk's time is its cores' work plus what the synchronous stages wait on
// the network (Prediction::stage_wait_seconds).
void hypercube_bound(const Machine& machine, const ModelOptions& options, Prediction& p) {
  const auto& c = machine.costs;
  const unsigned per_node = options.processes_per_node;
  p.processes = p.nodes * per_node;
  const double chunk = static_cast<double>(options.lookahead);
  const auto traffic = hypercube_traffic_of(machine, options, p);
  p.stages = static_cast<unsigned>(traffic.stages.size());
  p.stage_loads = traffic.stages;
  p.overlapped_busiest_link_load = traffic.overlapped_busiest_link_load;
  p.overlapped_busiest_class = traffic.overlapped_busiest_class;
  p.software_hops = traffic.network_crossings;
  p.physical_hops_per_software_hop = traffic.network_crossings > 0 ? traffic.link_crossings / traffic.network_crossings : 0;
  // A stage tells an update's side by its index against the upper half's
  // first word (as HPCC's code does): no owner is found, whatever P.
  p.owner_cycles = 0;
  double split = 0, packets = 0, moved = 0, wire_bytes = 0;
  for (const auto& stage : traffic.stages) {
    const double held = stage.active_share;
    const double updates = chunk * stage.moved_share;  // in this stage's message(s)
    const auto whole = static_cast<std::uint64_t>(std::ceil(updates));
    const double messages = std::floor(updates / chunk) + 1;  // the last one shorter than a chunk, maybe empty
    const double stage_packets = message_packets(machine.packet, whole);
    split += held * c.stage_split;
    const double rendezvous = rendezvous_cycles(machine, std::min(updates, chunk) * machine.packet.update_bytes);
    p.send_cycles += held * messages * (machine.send_call_cycles() + rendezvous) / chunk;
    p.receive_cycles += held * (stage_packets * machine.packet_receive_cycles(true) + messages * rendezvous) / chunk;
    packets += held * stage_packets / chunk;
    const double message_bytes = static_cast<double>(message_wire_bytes(machine.packet, whole));
    moved += held * updates;
    wire_bytes += held * message_bytes;
    if (stage.longest_route > 0) {
      const double latency = stage.longest_route * machine.link_latency;
      p.stage_wait_seconds += latency + message_bytes / machine.link_bandwidth;
      // The busiest link's bytes of the stage: what it carries per update
      // made on a node, for a node's chunks, at the message's bytes an update.
      const double busiest_bytes = stage.busiest_link_load * per_node * chunk * message_bytes / std::max(updates, 1.0);
      p.contended_stage_wait_seconds += latency + std::max(message_bytes, busiest_bytes) / machine.link_bandwidth;
    }
  }
  p.mean_fill = p.stages > 0 ? moved / p.stages : 0;
  p.bytes_per_update = moved > 0 ? wire_bytes / moved : 0;
  const double cycles = c.generate + c.loop_overhead + split + p.send_cycles + p.receive_cycles + p.update_cycles;
  p.cores = {{fmt::format("generate, {} stages of split, send, receive, then update", p.stages), cycles, 1.0,
              p.update_wait_cycles, 0, cycles}};
  p.cpu_cycles_per_update = cycles;
  const double node_rate = shared_process_rate(machine, per_node, {cycles - p.update_wait_cycles, p.update_wait_cycles});
  const double work_seconds = per_node * chunk / node_rate;
  const double made = static_cast<double>(p.nodes) * per_node * chunk * 1e-9;
  p.cpu_gups = made / (work_seconds + p.stage_wait_seconds);
  if (p.contended_stage_wait_seconds > p.stage_wait_seconds) {
    p.contended_gups = made / (work_seconds + p.contended_stage_wait_seconds);
  }
  bound_by_node_resources(machine, packets * per_node, p);
}

// A full bucket's calls per update it carries: its send, its packets'
// receive (batched), and the rendezvous handshake on both sides where the
// message layer says a bucket that long takes one.
void message_call_cycles(const Machine& machine, Prediction& p) {
  const double size = static_cast<double>(p.bucket_size);
  const double rendezvous = rendezvous_cycles(machine, size * machine.packet.update_bytes);
  p.send_cycles = (machine.send_call_cycles() + rendezvous) / size;
  p.receive_cycles = (machine.packet_receive_cycles(true) * message_packets(machine.packet, p.bucket_size) + rendezvous) / size;
}

void routed_bound(const Machine& machine, const ModelOptions& options, Prediction& p) {
  const auto& c = machine.costs;
  p.processes = p.nodes;
  size_from_plan(machine, options, cached_role_plan(1, p.shape.dimensions(), PlanSpec::rule(1, p.shape.dimensions())), p);
  p.bytes_per_update = mean_wire_bytes(machine.packet, p.mean_fill) / p.mean_fill;
  // The paper's first-order model: a fixed cost per software hop. The owner
  // is found where the update is made and again on every node it reaches.
  p.owner_cycles = machine.owner_lookup_cycles(options.owner, p.nodes);
  double hop = c.routing_hop;
  double packets_per_hop = 0;
  if (machine.message_layer) {
    // A message layer prices the calls: each hop pays its share of a bucket's
    // send and receive besides its own work, and its packets pass the unit.
    message_call_cycles(machine, p);
    hop = c.routing_hop_without_calls + p.send_cycles + p.receive_cycles;
    packets_per_hop = message_packets(machine.packet, p.bucket_size) / static_cast<double>(p.bucket_size);
  }
  const double cycles = c.generate + p.update_cycles + c.loop_overhead +
                        p.expected_hops * hop + (1 + p.expected_hops) * p.owner_cycles;
  p.cores = {{"generate, route, update (Eq. 1, per hop)", cycles, 1.0, p.update_wait_cycles, 0, cycles}};
  p.cpu_cycles_per_update = cycles;
  p.cpu_gups = gups_of(static_cast<double>(p.nodes), machine.clock_hz, cycles);
  // A measured routing_hop holds its calls (the paper's): no messaging unit's share is told apart.
  bound_by_node_resources(machine, p.expected_hops * packets_per_hop, p);
}

// Expected moves of an average update along a core's dimensions.
double expected_moves(const CoreRole& role, const TorusShape& shape) {
  double moves = 0;
  for (unsigned d = role.first_dimension; d < role.end_dimension; ++d) moves += 1 - 1.0 / shape.size(d);
  return moves;
}

// The share of updates handed past a router that does not generate: held
// by an earlier core (no move along the previous router's last dimension)
// and with no move along this router's dimensions, an update goes on to the
// next core with a move, or to its updater, and never reaches this one.
double skipped_router(const CoreRole& role, const TorusShape& shape) {
  if (role.generates || role.first_dimension == 0) return 0;
  double skipped = 1.0 / shape.size(role.first_dimension - 1);
  for (unsigned d = role.first_dimension; d < role.end_dimension; ++d) skipped /= shape.size(d);
  return skipped;
}

// Each thread's core cycles with the threads of its core shared; each
// thread's share is its core's of the slowest core's. Returns the slowest.
double share_threads(unsigned cores, std::vector<CoreLoad>& threads) {
  std::vector<std::vector<ThreadLoad>> by_core(cores);
  for (const auto& t : threads) by_core[t.core].push_back({t.cycles - t.wait, t.wait});
  double slowest = 0;
  for (auto& t : threads) {
    t.core_cycles = shared_core_cycles(by_core[t.core]);
    slowest = std::max(slowest, t.core_cycles);
  }
  for (auto& t : threads) t.share = t.core_cycles / slowest;
  return slowest;
}

// Eq. 6 for any role plan. Every send by a routing core (to a line
// neighbour, or a hand-off to a later core) costs ts + top, every arrival tr.
// A router sends once per dimension the update moves in, plus a hand-off
// when it stays in the last one; a move lands on the same core of the next
// node unless it was along the last dimension. On the paper's plan each core
// thus sends or receives every update once, which is Eq. 6 as printed. A
// pipeline's cores see only its share of the node's updates; each updater
// applies its slice's share of all of them.
void multicore_bound(const Machine& machine, const ModelOptions& options, const RolePlan& plan, Prediction& p) {
  const auto& c = machine.costs;
  const unsigned k = plan.cores();
  // Without hardware threads every role has a core of its own.
  const unsigned physical_cores = machine.node.threaded() ? node_cores(machine, options) / machine.node.threads_per_core : k;
  const auto overhead = machine.core_overheads(plan);
  p.overheads_by_kind = machine.overheads_by_kind(plan);
  p.role_plan = plan.spec();
  p.processes = p.nodes * k;
  size_from_plan(machine, options, plan, p);
  p.bytes_per_update = mean_wire_bytes(machine.packet, p.mean_fill) / p.mean_fill;
  message_call_cycles(machine, p);
  p.owner_cycles = machine.owner_lookup_cycles(options.owner, p.nodes);
  const double updaters = plan.updaters();
  const double pipeline_share = 1.0 / plan.pipelines();
  for (unsigned core = 0; core < k; ++core) {
    const auto& role = plan.role(core);
    double cycles = 0, wait = 0;
    if (role.routes()) {
      const double moves = expected_moves(role, p.shape);
      const double entering = role.generates ? 0 : 1;  // arrivals from an earlier core
      const double skipped = skipped_router(role, p.shape);
      double sends = 0, receives = 0;
      if (role.updater >= 0) {
        // A pipeline of one core: it hands the other pipelines' slices of
        // what reaches home to their cores, and takes its own from each
        // (as many, with as many pipelines as updaters); one core alone hands nothing.
        const double handed = 1 - 1 / updaters;
        sends = receives = moves + handed;
      } else if (plan.dispatches(core)) {  // the last dimension lands here too
        sends = moves + 1 - skipped;
        receives = moves + entering - skipped;
      } else {
        sends = moves + 1.0 / p.shape.size(role.end_dimension - 1) - skipped;
        receives = sends - (1 - entering);
      }
      cycles += sends * (p.send_cycles + overhead[core]) + receives * p.receive_cycles;
      // Each update a routing core decides on needs its owner: one send per
      // decision, except on a core that also applies (its arrivals at home).
      const double decisions = role.updater >= 0 ? (role.generates ? 1 : 0) + receives : sends;
      cycles += decisions * p.owner_cycles;
    }
    if (role.generates) cycles += c.generate + c.loop_overhead;
    cycles *= pipeline_share;
    if (role.updater >= 0) {
      const double share = 1 / updaters;
      cycles += share * p.update_cycles;
      wait = share * p.update_wait_cycles;
      if (role.only_updates()) cycles += share * (p.receive_cycles + overhead[core]);
    }
    p.cores.push_back({options.describe_roles ? plan.describe(core) : std::string(), cycles, 0, wait,
                       core_of_thread(core, physical_cores), cycles});
  }
  const double slowest = share_threads(physical_cores, p.cores);
  p.cpu_cycles_per_update = slowest;
  p.cpu_gups = gups_of(static_cast<double>(p.nodes), machine.clock_hz, slowest);
  bound_by_node_resources(machine, p.expected_hops * message_packets(machine.packet, p.bucket_size) / p.bucket_size, p);
}

// The hypercube's stages one after another: each stage's busiest link, at
// its bandwidth, holds the whole run for its time (whatever the topology;
// the bisection is told for comparison). The stages' traffic is the one
// hypercube_bound worked out.
void hypercube_network_bound(const Machine& machine, Prediction& p) {
  p.bisection_bytes_per_s = machine.topology->is_virtual_torus ? bisection_bandwidth(p.shape, machine.link_bandwidth, p.wraps)
                                                               : partition_bisection(machine, p.nodes);
  p.model_bisection_bytes_per_s = p.bisection_bytes_per_s;
  double busiest = 0, most = 0;
  for (const auto& stage : p.stage_loads) {
    busiest += stage.busiest_link_load;
    if (stage.busiest_link_load > most) {
      most = stage.busiest_link_load;
      p.network_bottleneck = stage.busiest_class;
    }
  }
  if (busiest <= 0 || p.bytes_per_update <= 0) return;
  const double per_load = static_cast<double>(p.nodes) * machine.link_bandwidth / p.bytes_per_update * 1e-9;
  p.routes_network_gups = per_load / busiest;
  p.network_gups = p.routes_network_gups;
  if (p.overlapped_busiest_link_load > 0) p.overlapped_network_gups = per_load / p.overlapped_busiest_link_load;
}

// On a torus, the paper's 4B/b (the busiest links are the bisection's when
// the virtual torus is the physical one); elsewhere the busiest link of the
// traffic routed as the network routes it.
// (On a torus direct's all-to-all traffic is not routed: 4B/b alone.)
void routed_network_bound(const Machine& machine, const ModelOptions& options, Prediction& p);

// The achievable bound: the routes' (or 4B/b) times the share the network
// delivers under the traffic (network.efficiency), on networks that wrap or
// are no torus (a mesh's ring ties are none: the simulator's meshes reach
// their bound).
void network_bound_of(const Machine& machine, const ModelOptions& options, Prediction& p) {
  if (model_of(options.algorithm) == AlgorithmModel::hypercube) {
    hypercube_network_bound(machine, p);
  } else {
    routed_network_bound(machine, options, p);
  }
  const bool wraps = !machine.topology->is_virtual_torus || std::any_of(p.wraps.begin(), p.wraps.end(), [](bool w) { return w; });
  if (p.network_gups && wraps && machine.network_efficiency_given) {
    p.network_efficiency = std::min(1.0, machine.network_efficiency);  // a share: an interval's end cannot pass 1
    *p.network_gups *= p.network_efficiency;
  }
}

void routed_network_bound(const Machine& machine, const ModelOptions& options, Prediction& p) {
  const bool routes = traits(options.algorithm).routes_over_torus;
  const bool on_torus = machine.topology->is_virtual_torus;
  if (on_torus) {
    p.model_bisection_bytes_per_s = bisection_bandwidth(p.shape, machine.link_bandwidth, p.wraps);
    p.bisection_bytes_per_s = p.model_bisection_bytes_per_s;
    if (options.measured_bisection && options.measured_bisection->nodes == p.nodes) {
      p.bisection_bytes_per_s = options.measured_bisection->bytes_per_s;
      p.bisection_measured = true;
    }
    if (options.measured_bisection) p.links_network_gups = 4 * p.model_bisection_bytes_per_s / p.bytes_per_update * 1e-9;
    if (p.bisection_bytes_per_s > 0) p.network_gups = 4 * p.bisection_bytes_per_s / p.bytes_per_update * 1e-9;
    p.bisection_network_gups = p.network_gups;
    if (!routes) return;
  } else {
    p.bisection_bytes_per_s = partition_bisection(machine, p.nodes);
    p.model_bisection_bytes_per_s = p.bisection_bytes_per_s;
  }
  const auto wraps = wraps_letters(p.wraps);
  const auto key = fmt::format("{} {} {} {} {}", machine.topology->name, machine.network_parameters, p.shape.to_string(),
                                wraps, routes);
  NetworkBound bound;
  const auto cached = options.routes_cache ? options.routes_cache->bounds.find(key) : decltype(RoutesCache::bounds)::iterator();
  if (options.routes_cache && cached != options.routes_cache->bounds.end()) {
    bound = cached->second;
    if (bound.busiest_link_load > 0) {
      bound.gups = static_cast<double>(p.nodes) * machine.link_bandwidth / (bound.busiest_link_load * p.bytes_per_update) * 1e-9;
    }
  } else {
    const auto links = physical_links(machine, p.shape, p.wraps);
    bound = network_bound(*links, p.shape, routes, p.bytes_per_update, machine.link_bandwidth);
    if (options.routes_cache) options.routes_cache->bounds.emplace(key, bound);
  }
  p.software_hops = bound.software_hops;
  p.physical_hops_per_software_hop = bound.physical_hops_per_software_hop;
  p.network_bottleneck = bound.busiest_class;
  if (bound.gups > 0) {
    p.routes_network_gups = bound.gups;
    // The bound reported is the achievable one: on a torus the lower of 4B/b
    // and the routes' busiest links (uneven ring ties put more on some links
    // than the bisection's share), so no figure is above a bound it prints.
    // A measured bisection stands in for the links the routes are priced on.
    const bool links_priced = !p.bisection_measured;
    if (!on_torus || !p.network_gups || (links_priced && bound.gups < *p.network_gups)) p.network_gups = bound.gups;
  }
}

// The CPU bound (and what it rests on) of `shape` on `machine`.
Prediction cpu_bound(const Machine& machine, const TorusShape& shape, const ModelOptions& options) {
  Prediction p;
  p.algorithm = options.algorithm;
  p.mapping_mode = options.mapping_mode;
  p.shape = shape;
  p.nodes = shape.nodes();
  p.expected_hops = shape.expected_hops();
  const RolePlan* plan = nullptr;
  if (model_of(options.algorithm) == AlgorithmModel::multicore) {
    const auto chosen = choose_role_plan(machine, shape, options);
    plan = &cached_role_plan(node_cores(machine, options), shape.dimensions(), chosen.spec);
    p.role_plan_choice = chosen.how;
    p.role_plans_compared = chosen.compared;
  }
  place_prediction_on_hosts(machine, options, plan, p);
  switch (model_of(options.algorithm)) {
    case AlgorithmModel::direct:
      direct_bound(machine, options, p);
      break;
    case AlgorithmModel::routed:
      routed_bound(machine, options, p);
      break;
    case AlgorithmModel::multicore:
      multicore_bound(machine, options, *plan, p);
      break;
    case AlgorithmModel::hypercube:
      hypercube_bound(machine, options, p);
      break;
  }
  return p;
}

}  // namespace

double bisection_bandwidth(const TorusShape& shape, double link_bandwidth, bool mesh) {
  const auto longest = *std::max_element(shape.sizes().begin(), shape.sizes().end());
  if (longest < 2) return 0;
  const double lines = static_cast<double>(shape.nodes() / longest);
  return (longest > 2 && !mesh ? 2.0 : 1.0) * lines * link_bandwidth;
}

double bisection_bandwidth(const TorusShape& shape, double link_bandwidth, const std::vector<bool>& wraps) {
  const auto wrapping = std::count(wraps.begin(), wraps.end(), true);
  if (wrapping == 0 || wrapping == static_cast<long>(wraps.size())) return bisection_bandwidth(shape, link_bandwidth, wrapping == 0);
  double least = 0;
  for (unsigned d = 0; d < shape.dimensions(); ++d) {
    if (shape.size(d) < 2) continue;
    const double lines = static_cast<double>(shape.nodes() / shape.size(d));
    const double cut = (wraps[d] && shape.size(d) > 2 ? 2.0 : 1.0) * lines * link_bandwidth;
    if (least == 0 || cut < least) least = cut;
  }
  return least;
}

std::vector<std::uint64_t> direct_message_sizes(std::uint64_t processes, std::uint64_t lookahead) {
  std::vector<std::uint64_t> by_size(lookahead + 1, 0);
  BucketCounts buckets(static_cast<std::uint32_t>(lookahead));
  std::uint64_t value = starts(0);
  // Warm up to a steady state, then count; the same stream every time, so
  // the model is deterministic.
  // Four messages a destination, at most 2^22 (a 48-core node's 7.6 million processes would replay 30 million:
  // the mean fill is settled to a part in a thousand long before).
  const std::uint64_t warm_up = 8 * lookahead,
                      counted = std::max<std::uint64_t>(1u << 18, std::min<std::uint64_t>(4 * processes, 1u << 22));
  for (std::uint64_t i = 0; i < warm_up + counted; ++i) {
    value = next_random(value);
    buckets.insert(static_cast<std::uint32_t>(value % processes));
    if (!buckets.full()) continue;
    const auto size = buckets.take_fullest();
    if (i < warm_up) continue;
    ++by_size[size];
  }
  return by_size;
}

namespace {

const std::vector<std::uint64_t>& cached_message_sizes(RoutesCache& cache, std::uint64_t processes,
                                                       std::uint64_t lookahead) {
  const std::pair key{processes, lookahead};
  auto found = cache.direct_message_sizes.find(key);
  if (found == cache.direct_message_sizes.end())
    found = cache.direct_message_sizes.emplace(key, direct_message_sizes(processes, lookahead)).first;
  return found->second;
}

}  // namespace

DirectFill direct_fill(const PacketFormat& packet, std::uint64_t processes, std::uint64_t lookahead,
                       RoutesCache* cache) {
  DirectFill fill{1.0, static_cast<double>(message_wire_bytes(packet, 1))};
  if (processes < 2) return fill;
  std::vector<std::uint64_t> uncached;
  const auto& by_size = cache ? cached_message_sizes(*cache, processes, lookahead)
                              : (uncached = direct_message_sizes(processes, lookahead));
  std::uint64_t messages = 0, updates = 0;
  double bytes = 0;
  for (std::size_t size = 1; size < by_size.size(); ++size) {
    if (by_size[size] == 0) continue;
    messages += by_size[size];
    updates += by_size[size] * size;
    bytes += static_cast<double>(by_size[size]) * static_cast<double>(message_wire_bytes(packet, size));
  }
  fill.mean_updates_per_message = static_cast<double>(updates) / static_cast<double>(messages);
  fill.mean_wire_bytes_per_update = bytes / static_cast<double>(updates);
  return fill;
}

unsigned node_cores(const Machine& machine, const ModelOptions& options) {
  return (options.cores_per_node ? options.cores_per_node : machine.cores_per_node) * machine.node.threads_per_core;
}

// A torus of processes: the node's processes one more dimension, first
// (fastest), whose hops stay inside the node: a move along it costs a core
// what a move between nodes does (an MPI message, over shared memory), and
// no link. A node torus of six dimensions (the most a virtual torus takes)
// folds them into its first instead, each line of it then ppn times longer.
TorusShape torus_of_processes(const TorusShape& nodes, unsigned per_node) {
  std::vector<std::uint32_t> sizes(nodes.sizes().begin(), nodes.sizes().end());
  if (sizes.size() >= 6) {
    sizes.front() *= per_node;
  } else {
    sizes.insert(sizes.begin(), per_node);
  }
  return TorusShape(sizes);
}

namespace {

// Routed or multicore with several processes (multicore: groups of cores)
// on each node, in HPCC's mode 1: each routes over a torus of processes with
// its own look-ahead and stream (a multicore group, its own role plan over
// its share of the node's cores). The cores' bound is that of a torus of
// processes placed several to a node (sharing its cores and memory); the
// network's (predict) is the node torus's, carrying the updates' hops
// between nodes.
Prediction processes_cpu_bound(const Machine& machine, const TorusShape& shape, const ModelOptions& options) {
  const unsigned per_node = options.processes_per_node;
  const bool groups = model_of(options.algorithm) == AlgorithmModel::multicore;
  ModelOptions each = options;
  each.processes_per_node = 1;
  each.nodes_per_host = per_node;
  if (groups) {
    const unsigned cores = node_cores(machine, options) / machine.node.threads_per_core;
    if (cores % per_node != 0) {
      throw std::invalid_argument(fmt::format("{} groups of cores do not divide a node of {} cores", per_node, cores));
    }
    each.cores_per_node = cores / per_node;
  }
  Prediction p = cpu_bound(machine, torus_of_processes(shape, per_node), each);
  // The node's own resources serve all its processes.
  if (p.messaging_unit_gups) *p.messaging_unit_gups /= per_node;
  if (p.near_memory_gups) *p.near_memory_gups /= per_node;
  if (!groups) {  // processes beyond the cores share them as hardware threads
    const double wait = p.update_wait_cycles;
    p.cores_gups = static_cast<double>(shape.nodes()) *
                   shared_process_rate(machine, per_node, {p.cpu_cycles_per_update - wait, wait}) * 1e-9;
  }
  bind_lowest_node_bound(p);
  p.nodes = shape.nodes();
  p.shape = shape;  // the processes' torus is the shape's with one more dimension (torus_of_processes)
  return p;
}

// The CPU side of a prediction, for the placement the options ask.
Prediction cpu_side(const Machine& machine, const TorusShape& shape, const ModelOptions& options) {
  if (traits(options.algorithm).routes_over_torus && options.processes_per_node > 1) {
    return processes_cpu_bound(machine, shape, options);
  }
  return cpu_bound(machine, shape, options);
}

}  // namespace

Prediction cpu_prediction(const Machine& machine, const TorusShape& shape, const ModelOptions& options) {
  return cpu_side(machine, shape, options);
}

Prediction predict(const Machine& machine, const TorusShape& shape, const ModelOptions& options) {
  if (options.lookahead == 0) throw std::invalid_argument("the look-ahead must be at least 1");
  Prediction p = cpu_side(machine, shape, options);
  if (!machine.cost_spread.empty()) {  // only the CPU bound depends on the costs
    Machine typical = machine;
    typical.costs = with_spread(machine.costs, machine.cost_spread);
    ModelOptions same_plan = options;  // the plan chosen at the least costs
    if (p.role_plan) same_plan.role_plan = p.role_plan->to_string();
    p.cpu_gups_at_median_costs = cpu_side(typical, shape, same_plan).cpu_gups;
  }
  p.wraps = machine.wraps_of(p.shape);
  p.mesh = std::none_of(p.wraps.begin(), p.wraps.end(), [](bool w) { return w; });
  p.topology = machine.topology;
  network_bound_of(machine, options, p);
  p.network_binds = p.network_gups && *p.network_gups < p.cpu_gups;
  p.gups = p.network_binds ? *p.network_gups : p.cpu_gups;
  return p;
}

std::vector<std::uint64_t> crossover_sizes(const Machine& machine) {
  // Powers of two below the file's smallest partition, its partitions, then
  // powers of two past the largest (the balanced rule's shapes); a file with
  // none: powers of two from 1. The same sizes whatever a sweep starts from,
  // and between the first and last partition only shapes the machine has.
  std::vector<std::uint64_t> listed;
  if (!machine.balanced_shapes) {
    for (const auto& [nodes, shape] : machine.torus.partitions) listed.push_back(nodes);
  }
  std::vector<std::uint64_t> sizes;
  std::uint64_t next = 1;
  for (; !listed.empty() && next < listed.front(); next *= 2) sizes.push_back(next);
  sizes.insert(sizes.end(), listed.begin(), listed.end());
  while (!listed.empty() && next <= listed.back()) next *= 2;
  for (; next < (1ull << 40); next *= 2) sizes.push_back(next);
  return sizes;
}

std::optional<std::uint64_t> crossover_nodes(const Machine& machine, const ModelOptions& options) {
  for (const auto nodes : crossover_sizes(machine)) {
    // The search ends where the shape rules, or the look-ahead's buckets, allow no larger torus.
    try {
      if (predict(machine, machine.shape_for(nodes), options).network_binds) return nodes;
    } catch (const std::invalid_argument&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace gups::model
