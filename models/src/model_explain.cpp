#include "models/src/model_explain.hpp"

#include <fmt/format.h>

#include "kernel/core/role_plan.hpp"
#include "models/src/machine_network.hpp"
#include "models/src/message_layer.hpp"
#include "models/src/role_planner.hpp"

namespace gups::model {
namespace {

std::string network_of(const Machine& machine, const Prediction& p) {
  if (machine.topology->is_virtual_torus) {
    return fmt::format("the physical {} {} itself (the paper's mapping)", p.shape.to_string(), p.mesh ? "mesh" : "torus");
  }
  return fmt::format("a {} (SimGrid {} {}), the virtual torus laid on its nodes in order, dimension 0 fastest",
                     machine.topology->label, machine.topology->simgrid_name, simgrid_parameters(machine, p.nodes));
}

std::string plan_explained(const Machine& machine, const Prediction& p, const ModelOptions& options) {
  // Several groups a node: each group's plan, over its share of the cores and the torus of processes.
  const unsigned groups = options.processes_per_node;
  const unsigned k = node_cores(machine, options) / groups;
  const TorusShape routed_over = groups > 1 ? torus_of_processes(p.shape, groups) : p.shape;
  const auto dimensions = routed_over.dimensions();
  const RolePlan plan(k, dimensions, *p.role_plan);
  const bool papers = k == 4 && dimensions == 3 && plan.spec() == PlanSpec::rule(4, 3);
  const auto how = papers && p.role_plan_choice == "paper" ? "the paper's" : role_plan_choice_text(p.role_plan_choice);
  // Every pipeline has a core per group; the one-core plan's routes too.
  const auto routing = plan.pipelines() * plan.spec().groups.size();
  const auto units = machine.node.threaded()
                         ? fmt::format("{} hardware threads on {} cores", k, k / machine.node.threads_per_core)
                         : fmt::format("{} cores", k);
  std::string text = fmt::format(
      "\nRole plan {} ({}){}: {}, {} pipeline(s), {} routing, {} updating, {} idle.\n", plan.spec().to_string(), how,
      groups > 1 ? fmt::format(", each of the node's {} groups on the torus of processes {}", groups,
                               routed_over.to_string())
                 : "",
      units, plan.pipelines(), routing, plan.updaters(), k - plan.busy_cores());
  if (p.overheads_by_kind) {
    text += "Each core's top is the mean of the machine's per-core figures of its kind (routing, updating): they "
            "were measured on the paper's plan, not this one.\n";
  }
  if (!p.role_plans_compared.empty()) {
    text += "Plans compared (the slowest core's cycles per update, and GUPS: the lower of the CPU and network "
            "bounds; the best of each pipeline count, and the paper's rule):\n";
    for (const auto& option : p.role_plans_compared) {
      text += fmt::format("  {:<16} {:>8.1f} cycles {:>10.4g} GUPS {:>3} {}{}\n", option.spec.to_string(),
                          option.cycles, option.gups, option.spec.cores(), machine.node.threaded() ? "threads" : "cores",
                          option.spec == plan.spec() ? "  <- chosen" : "");
    }
  }
  return text;
}

// Each core's cycles; with hardware threads, each thread's own and its
// core's with the threads shared; then the node's own bounds.
std::string node_explained(const Machine& machine, const Prediction& p) {
  const bool threads = machine.node.threaded();
  std::string text = threads ? "\nCycles per update of the node, per hardware thread (own: issued + waited on memory; "
                               "core: its threads shared, at least the sum of their issues):\n"
                             : "\nCycles per update of the node, per core:\n";
  std::size_t idle = 0;
  for (std::size_t core = 0; core < p.cores.size(); ++core) {
    const auto& load = p.cores[core];
    if (threads && load.cycles == 0) {
      ++idle;
      continue;
    }
    if (threads) {
      text += fmt::format("  thread {:>2} on core {:>2}: own {:>8.1f} ({:.1f} waited), core {:>8.1f} ({:>3.0f}% of the "
                          "slowest)  {}\n",
                          core, load.core, load.cycles, load.wait, load.core_cycles, 100 * load.share, load.role);
    } else {
      text += fmt::format("  core {:>2}: {:>8.1f} ({:>3.0f}% of the slowest)  {}\n", core, load.cycles, 100 * load.share,
                          load.role);
    }
  }
  if (idle > 0) text += fmt::format("  ({} threads idle)\n", idle);
  const bool node_bounds = p.messaging_unit_gups || p.near_memory_gups;
  text += fmt::format("{}: {:.4g} GUPS (nodes x {:.4g} Hz / {:.1f} cycles of the slowest core)\n",
                      node_bounds ? "Cores' bound" : "CPU bound", node_bounds ? p.cores_gups : p.cpu_gups,
                      machine.clock_hz, p.cpu_cycles_per_update);
  if (p.messaging_unit_gups) {
    text += fmt::format("Messaging unit's bound: {:.4g} GUPS (nodes x {:.4g} packets/s / packets per update)\n",
                        *p.messaging_unit_gups, machine.node.messaging_unit->packets_per_s);
  }
  if (p.near_memory_gups) {
    text += fmt::format("Near-memory updates' bound: {:.4g} GUPS (nodes x {:.4g} updates/s)\n", *p.near_memory_gups,
                        machine.node.near_memory->updates_per_s);
  }
  if (node_bounds) {
    text += fmt::format("CPU bound (the node's): {:.4g} GUPS, set by the {}\n", p.cpu_gups, p.node_binds);
  }
  return text;
}

// One figure of the file's layer, with its kind and range where it is an
// input (scale and unit as printed: 1e6 and "us").
std::string layer_figure_text(const Machine& machine, const char* name, double scale, const char* unit) {
  const std::string field = std::string("message_layer.") + name;
  std::string text = fmt::format("{} {:.3g} {}", name, scale * layer_figure(*machine.message_layer, name), unit);
  for (const auto& r : machine.ranges) {
    if (r.field != field) continue;
    text += r.ranged() ? fmt::format(" ({}, {:.3g}..{:.3g})", to_string(r.kind), scale * r.low, scale * r.high)
                       : fmt::format(" ({})", to_string(r.kind));
  }
  return text;
}

// The network's efficiency with its kind and range, as the bound takes it.
std::string efficiency_text(const Machine& machine, double efficiency) {
  const std::string field = std::string(machine.topology->name) + ".efficiency";
  std::string text = fmt::format("the share the network delivers under this traffic, {:.3g}", efficiency);
  for (const auto& r : machine.ranges) {
    if (r.field != field) continue;
    text += r.ranged() ? fmt::format(" ({}, {:.3g}..{:.3g})", to_string(r.kind), r.low, r.high)
                       : fmt::format(" ({})", to_string(r.kind));
  }
  return text;
}

// The message layer in LogGP terms: the file's, each figure with its kind
// and range, and the call costs derived from it; or what the file's cycle
// costs amount to.
std::string message_layer_explained(const Machine& machine) {
  if (!machine.message_layer) {
    const auto layer = message_layer_of_costs(machine);
    std::string text = fmt::format("\nMessage layer (LogGP, one process; read from the file's cycle costs): o_send "
                                   "{:.3g} us, o_recv {:.3g} us",
                                   1e6 * layer.o_send, 1e6 * layer.o_recv);
    if (layer.O > 0) text += fmt::format(", O {:.3g} ns/byte", 1e9 * layer.O);
    return text + " (L, g, G and S are not in them).\n";
  }
  const auto& layer = *machine.message_layer;
  std::string text = fmt::format("\nMessage layer (LogGP, one process of {} a node, from the file's message_layer): ",
                                 layer.processes_per_node);
  text += fmt::format("{}, {}, {}, {}, {}", layer_figure_text(machine, "o_send", 1e6, "us"),
                      layer_figure_text(machine, "o_recv", 1e6, "us"), layer_figure_text(machine, "L", 1e6, "us"),
                      layer_figure_text(machine, "g", 1e6, "us"), layer_figure_text(machine, "G", 1e9, "ns/byte"));
  if (layer.O > 0) text += ", " + layer_figure_text(machine, "O", 1e9, "ns/byte");
  if (layer.S > 0) text += fmt::format(", rendezvous above {:.0f} bytes", layer.S);
  return text + fmt::format(".\nDerived: send_call {:.1f}, receive_call {:.1f}, receive_call_batched {:.1f} cycles "
                            "(o x clock; docs/models.md, \"The message layer\").\n",
                            machine.costs.send_call, machine.costs.receive_call, machine.costs.receive_call_batched);
}

}  // namespace

// The hypercube's stages: what each moves, how far, and its busiest link.
std::string stages_explained(const Prediction& p) {
  std::string text = fmt::format(
      "\n{} synchronous stages a chunk; each waits {:.3g} us in all on the network besides the cores' work (its "
      "longest route's latency and one message's transfer, added up):\n",
      p.stages, 1e6 * p.stage_wait_seconds);
  if (p.contended_gups) {
    text += fmt::format("With every message of a stage in flight at once, each busiest link shared by all it carries, "
                        "the stages wait {:.3g} us and the bound is {:.4g} GUPS: a network that shares its links "
                        "fairly gives between the two, as the stages overlap less or more.\n",
                        1e6 * p.contended_stage_wait_seconds, *p.contended_gups);
  }
  text += "  stage  moved share  held share  longest route  busiest link (updates per update made on a node)\n";
  for (std::size_t s = 0; s < p.stage_loads.size(); ++s) {
    const auto& stage = p.stage_loads[s];
    text += fmt::format("  {:>5}  {:>11.3f}  {:>10.3f}  {:>13}  {:.3f}{}\n", s, stage.moved_share, stage.active_share,
                        stage.longest_route, stage.busiest_link_load,
                        stage.busiest_class.empty() ? "" : " (" + stage.busiest_class + ")");
  }
  if (p.overlapped_network_gups && p.network_gups) {
    text += fmt::format("The network bound takes the stages in lockstep ({:.4g} GUPS); a pair goes on once its own "
                        "exchange is done, so stages of different pairs overlap, and with all of them on the links at "
                        "once the busiest link ({}) allows {:.4g} GUPS: a run may pass the first, never the second.\n",
                        *p.network_gups, p.overlapped_busiest_class.empty() ? "-" : p.overlapped_busiest_class,
                        *p.overlapped_network_gups);
  }
  return text;
}

std::string explain_prediction(const Machine& machine, const Prediction& p, const ModelOptions& options) {
  std::string text = fmt::format("## {} on {}, {} nodes\n\nVirtual torus {} on {}.\n", to_string(p.algorithm),
                                 machine.name, p.nodes, p.shape.to_string(), network_of(machine, p));
  if (model_of(p.algorithm) == AlgorithmModel::multicore) text += plan_explained(machine, p, options);
  text += node_explained(machine, p);
  text += message_layer_explained(machine);
  if (model_of(p.algorithm) == AlgorithmModel::hypercube) text += stages_explained(p);
  text += fmt::format(
      "\nNetwork: bisection {:.4g} B/s one way; {:.3f} software hops per update, {:.3f} links per software hop "
      "(on SimGrid's routes); {:.2f} bytes per update on the wire.\n",
      p.bisection_bytes_per_s, p.software_hops, p.physical_hops_per_software_hop, p.bytes_per_update);
  if (machine.topology->is_virtual_torus) {
    text += fmt::format("Network bound: {}", p.network_gups ? fmt::format("{:.4g} GUPS", *p.network_gups) : "-");
    if (p.routes_network_gups && p.bisection_network_gups) {
      text += fmt::format(", the lower of the paper's 4B/b ({:.4g}) and what SimGrid's routes allow, their busiest "
                          "links ({}) {:.4g}", *p.bisection_network_gups, p.network_bottleneck, *p.routes_network_gups);
    } else if (p.bisection_network_gups) {
      text += " (the paper's 4B/b)";
    }
    if (p.network_efficiency != 1) text += ", times " + efficiency_text(machine, p.network_efficiency);
    text += "\n";
  } else if (p.network_gups) {
    text += fmt::format("Network bound: {:.4g} GUPS, set by the busiest links ({}): nodes x link bandwidth / (their "
                        "crossings per update x bytes per update){}\n",
                        *p.network_gups, p.network_bottleneck,
                        p.network_efficiency != 1 ? ", times " + efficiency_text(machine, p.network_efficiency) : "");
  }
  text += fmt::format("Binds: {} at {:.4g} GUPS.\n", p.network_binds ? "the network" : "the CPU", p.gups);
  return text;
}

}  // namespace gups::model
