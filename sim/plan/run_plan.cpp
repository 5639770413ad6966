#include "sim/plan/run_plan.hpp"
#include "models/src/model_intervals.hpp"
#include "models/src/prediction_interval.hpp"
#include "topologies/torus_links.hpp"

#include <algorithm>

#include <fmt/format.h>

#include <optional>
#include <set>
#include <fmt/ranges.h>

#include <bit>
#include <cmath>
#include <stdexcept>

#include "kernel/core/option_scopes.hpp"
#include "kernel/core/algorithm_setup.hpp"
#include "kernel/core/table_layout.hpp"
#include "models/src/machine_network.hpp"
#include "models/src/role_planner.hpp"
#include "models/src/simulation_charges.hpp"

namespace gups::topology {
namespace {

// The ranges of run_config's --log2-table and --updates-per-word.
constexpr unsigned kMaxLog2Table = 62;
constexpr unsigned kMaxUpdatesPerWord = 1024;

// The processes (multicore: groups of whole cores) on each node:
// --processes-per-node, else direct's and hypercube's --cores-per-node,
// else one.
unsigned processes_per_node(const PlanRequest& request, const model::Machine& machine) {
  const auto& algorithm = traits(request.algorithm);
  const unsigned asked = request.processes_per_node;
  if (!algorithm.routes_over_torus) return asked ? asked : std::max(1u, request.cores_per_node);
  if (asked <= 1) return 1;
  const unsigned cores = request.cores_per_node ? request.cores_per_node : machine.cores_per_node;
  if (algorithm.specialised_cores && cores % asked != 0) {
    throw std::invalid_argument(
        fmt::format("--processes-per-node {}: {} groups of whole cores do not divide a node of {} cores", asked,
                    asked, cores));
  }
  if (!algorithm.specialised_cores && asked > cores) {
    throw std::invalid_argument(fmt::format(
        "--processes-per-node {}: more routing processes than the node's {} cores would share cores as hardware "
        "threads, which the simulation does not time (gups-model --processes-per-node does)",
        asked, cores));
  }
  return asked;
}

// The ranks on each node (host): a multicore node's are its hardware
// threads, every thread of each core, whatever its groups.
unsigned ranks_per_node(const PlanRequest& request, const model::Machine& machine) {
  const auto& algorithm = traits(request.algorithm);
  if (algorithm.specialised_cores) {
    return (request.cores_per_node ? request.cores_per_node : machine.cores_per_node) * machine.node.threads_per_core;
  }
  if (algorithm.routes_over_torus && request.cores_per_node > 1) {
    throw std::invalid_argument(
        "--cores-per-node applies to multicore and direct (routed runs --processes-per-node ranks a node, default 1)");
  }
  return processes_per_node(request, machine);
}

// The torus the kernel routes over: the node torus, or with several
// processes a node the torus of processes on it.
TorusShape process_shape(const PlanRequest& request, const RunPlan& plan) {
  if (!traits(request.algorithm).routes_over_torus || plan.processes_per_node == 1) return plan.shape;
  if (request.nodes_per_host != 1) {
    throw std::invalid_argument(
        "--nodes-per-host places whole torus nodes on one node; with --processes-per-node the node's processes "
        "already share it: give one of them");
  }
  return model::torus_of_processes(plan.shape, plan.processes_per_node);
}

void plan_table(const PlanRequest& request, RunPlan& plan, std::uint64_t nodes) {
  if (request.log2_table) {
    plan.log2_table = *request.log2_table;
  } else {
    if (request.words_per_node < 1) throw std::invalid_argument("--words-per-node must be at least 1");
    const double words = static_cast<double>(nodes) * static_cast<double>(request.words_per_node);
    plan.log2_table = std::max(1u, static_cast<unsigned>(std::ceil(std::log2(words))));
  }
  if (plan.log2_table < 1 || plan.log2_table > kMaxLog2Table) {
    throw std::invalid_argument(fmt::format("table size 2^{} is out of range (1 to {})", plan.log2_table,
                                            kMaxLog2Table));
  }
  const double words_per_node = std::ldexp(1.0, static_cast<int>(plan.log2_table)) / static_cast<double>(nodes);
  if (words_per_node < 1) {
    throw std::invalid_argument(
        fmt::format("a table of 2^{} words has fewer words than the {} nodes", plan.log2_table, nodes));
  }
  if (request.updates_per_word) {
    plan.updates_per_word = *request.updates_per_word;
    if (plan.updates_per_word < 1 || plan.updates_per_word > kMaxUpdatesPerWord) {
      throw std::invalid_argument(fmt::format("--updates-per-word must be between 1 and {}", kMaxUpdatesPerWord));
    }
  }
  // Each of a node's processes runs as long as a node of its own would: its
  // own look-ahead fills and drains, and its steady state needs as many
  // look-aheads between.
  plan.default_updates_per_node =
      std::max(default_updates_per_node(nodes) * plan.processes_per_node, request.min_updates_per_node);
  if (!request.updates_per_word) {
    const auto wanted = request.updates_per_node.value_or(plan.default_updates_per_node);
    if (wanted < 1) throw std::invalid_argument("--updates-per-node must be at least 1");
    const double per_word = std::max(1.0, std::round(static_cast<double>(wanted) / words_per_node));
    if (per_word > kMaxUpdatesPerWord) {
      throw std::invalid_argument(fmt::format(
          "{} updates per node on {:.0f} words per node needs {:.0f} updates per word (at most {}): raise "
          "--words-per-node",
          wanted, words_per_node, per_word, kMaxUpdatesPerWord));
    }
    plan.updates_per_word = static_cast<unsigned>(per_word);
  }
  plan.updates_per_node =
      static_cast<std::uint64_t>(std::ldexp(static_cast<double>(plan.updates_per_word), static_cast<int>(plan.log2_table)) /
                                 static_cast<double>(nodes));
}

Verification verification(const std::string& asked, std::uint64_t ranks) {
  if (asked == "auto") return ranks <= kFullVerificationMaxRanks ? Verification::full : Verification::checksum;
  if (asked == "full") return Verification::full;
  if (asked == "checksum") return Verification::checksum;
  if (asked == "none") return Verification::none;
  throw std::invalid_argument(fmt::format("--verify {}: give auto, full, checksum or none", asked));
}

std::vector<std::string> kernel_arguments(const RunPlan& plan, const PlanRequest& request) {
  std::vector<std::string> arguments{"--algo",     std::string(to_string(plan.algorithm)),
                                     "--log2-table", std::to_string(plan.log2_table),
                                     "--updates-per-word", std::to_string(plan.updates_per_word),
                                     "--lookahead", std::to_string(request.lookahead),
                                     "--owner",     to_string(request.owner)};
  const auto& algorithm = traits(plan.algorithm);
  if (algorithm.routes_over_torus) arguments.insert(arguments.end(), {"--shape", plan.process_shape.to_string()});
  if (algorithm.specialised_cores) {
    arguments.insert(arguments.end(), {"--cores-per-node", std::to_string(plan.ranks_per_node / plan.processes_per_node),
                                       "--role-plan", plan.role_plan->to_string()});
  }
  if (plan.bucket_size) arguments.insert(arguments.end(), {"--bucket-size", std::to_string(*plan.bucket_size)});
  return arguments;
}

// The default run length's rule, which its help text spells out from the same figures.
constexpr std::uint64_t kSmallRunUpdates = 16384, kMiddleRunUpdates = 8192, kAtScaleRunUpdates = 4096;
constexpr std::uint64_t kSmallRunNodes = 64, kLog2UpdatesInAll = 25;

}  // namespace

std::uint64_t default_updates_per_node(std::uint64_t nodes) {
  if (nodes <= kSmallRunNodes) return kSmallRunUpdates;
  return std::max(kAtScaleRunUpdates, std::min(kMiddleRunUpdates, (std::uint64_t{1} << kLog2UpdatesInAll) / nodes));
}

std::string default_updates_per_node_help() {
  std::vector<std::string> examples;
  for (const std::uint64_t nodes : {64u, 256u, 4096u, 8192u, 65536u}) {
    examples.push_back(fmt::format("{} nodes {}", nodes, default_updates_per_node(nodes)));
  }
  return fmt::format("{} up to {} nodes, above it 2^{} / nodes within {} to {}: {}; times the processes a node "
                     "(--processes-per-node)", kSmallRunUpdates, kSmallRunNodes, kLog2UpdatesInAll, kAtScaleRunUpdates,
                     kMiddleRunUpdates, fmt::join(examples, ", "));
}

TorusShape requested_shape(const model::Machine& machine, const std::string& shape, std::uint64_t nodes) {
  if (shape.empty() == (nodes == 0)) throw std::invalid_argument("give either --shape or --nodes");
  if (shape.empty()) return machine.shape_for(nodes);
  auto parsed = TorusShape::parse(shape);
  physical_links(machine, parsed, false);  // off the torus, the network must have a partition of that many nodes
  return parsed;
}

std::vector<bool> wraps_named(const std::string& wrap, const model::Machine& machine, const TorusShape& shape) {
  if (wrap == "torus") return std::vector<bool>(shape.dimensions(), true);
  if (wrap == "mesh") return std::vector<bool>(shape.dimensions(), false);
  if (wrap == "machine") return std::vector<bool>(shape.dimensions(), !machine.is_mesh(shape.nodes()));
  const auto wraps = model::wraps_from_letters(wrap, shape.dimensions());
  if (!wraps) {
    throw std::invalid_argument(fmt::format(
        "--wrap '{}': give torus, mesh, machine, or one letter per dimension of {} (t: wraps, m: mesh), such as {}",
        wrap, shape.to_string(), std::string(shape.dimensions() - 1, 't') + "m"));
  }
  return *wraps;
}

std::string wraps_text(const std::vector<bool>& wraps) { return model::wraps_letters(wraps); }

NetworkLevel automatic_network_level(std::uint64_t nodes) {
  return nodes <= kFlowMaxNodes ? NetworkLevel() : NetworkLevel::named("queue");
}

ProbePlacement place_probe(const ProbeWhere& where) {
  ProbePlacement placed;
  placed.machine = model::load_machine(where.machine, model::default_machine_directories());
  placed.machine.balanced_shapes = where.balanced_shapes;
  placed.shape = requested_shape(placed.machine, where.shape, where.nodes);
  placed.mesh = where.mesh;
  placed.network_level = where.network_level.value_or(automatic_network_level(placed.shape.nodes()));
  if (where.ranks_per_node < 1) throw std::invalid_argument("--cores-per-node must be at least 1");
  placed.ranks_per_node = where.ranks_per_node;
  placed.ranks = placed.shape.nodes() * placed.ranks_per_node;
  return placed;
}

// The model's options for this run, as gups-model would take them.
static model::ModelOptions model_options(const PlanRequest& request, const model::Machine& machine,
                                        unsigned ranks_per_node) {
  model::ModelOptions options;
  options.algorithm = request.algorithm;
  options.lookahead = request.lookahead;
  // A multicore node's ranks are its threads; any other's, its processes
  // on the node's cores (--cores-per-node's, else the machine's).
  const bool specialised = traits(request.algorithm).specialised_cores;
  options.cores_per_node = specialised ? ranks_per_node / machine.node.threads_per_core : request.cores_per_node;
  options.processes_per_node = processes_per_node(request, machine);
  options.owner = request.owner;
  options.buckets = request.paper_buckets ? model::BucketRule::reference : model::BucketRule::sizing;
  options.nodes_per_host = request.nodes_per_host;
  options.role_plan = request.role_plan;
  return options;
}

// The model's exact interval for this run over the machine file's ranges
// (before any end is taken), for the simulated figure to be set against.
static model::PredictionInterval model_interval(const PlanRequest& request, const RunPlan& plan) {
  const auto options = model_options(request, plan.machine, ranks_per_node(request, plan.machine));
  return model::prediction_interval(plan.machine, plan.shape, options, 0);
}

// The physical cores within 2% of the slowest of a prediction.
static unsigned binding_cores(const model::Prediction& p) {
  std::set<unsigned> near;
  for (const auto& load : p.cores) {
    if (load.core_cycles >= 0.98 * p.cpu_cycles_per_update) near.insert(load.core);
  }
  return static_cast<unsigned>(near.size());
}

// The machine at the model's low or high end for this size: what the
// interval's end rests on, simulated so that the simulated figure gets its
// simulated range.
static void at_interval_end(const PlanRequest& request, const model::PredictionInterval& interval, RunPlan& plan) {
  if (request.inputs != "low" && request.inputs != "high") {
    throw std::invalid_argument(fmt::format("--inputs '{}': give file, low or high", request.inputs));
  }
  const auto& end = request.inputs == "low" ? interval.low : interval.high;
  plan.machine = model::machine_at(plan.machine, end.inputs);
  plan.inputs = request.inputs;
  plan.input_set = end.inputs;
}

RunPlan plan_run(const PlanRequest& request) {
  RunPlan plan;
  plan.machine = model::load_machine(request.machine, model::default_machine_directories());
  plan.machine.balanced_shapes = request.balanced_shapes;
  plan.algorithm = request.algorithm;
  plan.shape = requested_shape(plan.machine, request.shape, request.nodes);
  const auto nodes = plan.shape.nodes();
  // multicore: the model at the file's values, whose plan the run follows unless it runs an interval's end.
  std::optional<model::Prediction> at_file;
  {
    const auto interval = model_interval(request, plan);
    plan.model_interval = model::interval_to_json(interval);
    if (traits(request.algorithm).specialised_cores) {
      at_file = model::cpu_prediction(plan.machine, plan.shape,
                                      model_options(request, plan.machine, ranks_per_node(request, plan.machine)));
      plan.model_binding_cores = binding_cores(*at_file);
    }
    if (request.inputs != "file") at_interval_end(request, interval, plan);
  }
  plan.mesh = request.wrap == Wrap::mesh || (request.wrap == Wrap::machine && plan.machine.is_mesh(nodes));
  if (request.wrap == Wrap::machine && request.wrap_pattern.empty() && !plan.mesh) {
    // A machine whose partitions wrap in some dimensions only (torus.wraps, a partition's own).
    auto wraps = plan.machine.wraps_of(plan.shape);
    const auto wrapping = std::count(wraps.begin(), wraps.end(), true);
    plan.mesh = wrapping == 0;
    if (wrapping > 0 && wrapping < static_cast<long>(wraps.size())) plan.wraps = std::move(wraps);
  }
  if (!request.wrap_pattern.empty()) {
    auto wraps = wraps_named(request.wrap_pattern, plan.machine, plan.shape);
    const auto wrapping = std::count(wraps.begin(), wraps.end(), true);
    plan.mesh = wrapping == 0;
    if (wrapping > 0 && wrapping < static_cast<long>(wraps.size())) plan.wraps = std::move(wraps);
  }
  if ((plan.mesh || !plan.wraps.empty()) && !plan.machine.topology->is_virtual_torus) {
    throw std::invalid_argument(fmt::format("--wrap mesh: '{}' is a {}, whose virtual torus always wraps",
                                            plan.machine.name, plan.machine.topology->name));
  }
  // Only a level that routes messages itself takes a torus wrapping in some dimensions only.
  plan.network_level = request.network_level.value_or(
      plan.wraps.empty() ? automatic_network_level(nodes) : NetworkLevel::named("queue"));
  plan.ranks_per_node = ranks_per_node(request, plan.machine);
  plan.ranks = nodes * plan.ranks_per_node;
  plan.processes_per_node = processes_per_node(request, plan.machine);
  plan.process_shape = process_shape(request, plan);
  if (const auto size = plan.machine.reference_bucket_sizes.find(nodes);
      size != plan.machine.reference_bucket_sizes.end()) {
    plan.reference_bucket_size = size->second;
  }
  if (request.paper_buckets) {
    if (!traits(request.algorithm).routes_over_torus) {
      throw std::invalid_argument(refusal("--bucket-size", "the paper's bucket sizes"));
    }
    if (!plan.reference_bucket_size) {
      throw std::invalid_argument(fmt::format(
          "the paper's bucket sizes: machine {} lists none for {} nodes (reference_bucket_sizes{}); leave out "
          "paper-buckets (--mechanisms wire,receive-batches,dma,mesh) to size buckets by the rule",
          plan.machine.name, nodes, plan.machine.reference_bucket_sizes.empty() ? ": it has none" : ""));
    }
    plan.bucket_size = plan.reference_bucket_size;
  }
  if (!request.role_plan.empty() && !traits(request.algorithm).specialised_cores) {
    throw std::invalid_argument(refusal("--role-plan"));
  }
  if (at_file && request.inputs != "file") {  // the plan chosen at the end's values, a group's where there are several
    at_file = model::cpu_prediction(plan.machine, plan.shape, model_options(request, plan.machine, plan.ranks_per_node));
  }
  if (at_file) {
    plan.role_plan = at_file->role_plan;
    plan.role_plan_choice = at_file->role_plan_choice;
  }
  plan_table(request, plan, nodes);
  plan.verify = verification(request.verify, plan.ranks);
  plan.table_bytes = std::ldexp(8.0, static_cast<int>(plan.log2_table));
  plan.simulation_bytes = plan.table_bytes * (plan.verify == Verification::checksum ? 2 : 1) +
                          kSimulatedBytesPerRank * static_cast<double>(plan.ranks);
  plan.kernel_arguments = kernel_arguments(plan, request);

  // The kernel's own checks of these arguments, and the layout its charges need.
  RunConfig config;
  config.algorithm = request.algorithm;
  config.log2_table = plan.log2_table;
  config.lookahead = request.lookahead;
  config.owner = request.owner;
  if (traits(request.algorithm).routes_over_torus) config.shape = plan.process_shape.to_string();
  if (traits(request.algorithm).specialised_cores) {
    config.cores_per_node = plan.ranks_per_node / plan.processes_per_node;
    config.role_plan = plan.role_plan->to_string();
  }
  config.bucket_size = plan.bucket_size.value_or(0);
  const auto setup = plan_algorithm(config, plan.ranks);
  const TableLayout layout(plan.log2_table, setup.nodes);
  // A node's processes that route over a torus of processes share it as torus nodes of their own would.
  const bool processes_share = traits(request.algorithm).routes_over_torus && plan.processes_per_node > 1;
  plan.placement = model::host_placement_of(plan.machine, request.algorithm, setup,
                                            processes_share ? plan.processes_per_node : request.nodes_per_host);
  plan.charges = model::node_charges(plan.machine, request.algorithm, setup, layout, request.owner, plan.placement);
  return plan;
}

nlohmann::json network_plan_json(const model::Machine& machine, const TorusShape& shape, bool mesh, NetworkLevel level,
                               unsigned ranks_per_node, std::uint64_t ranks, const std::vector<bool>& wraps) {
  nlohmann::json written = nlohmann::json::parse(model::to_json(machine).dump());
  written["path"] = machine.path;
  const bool on_torus = machine.topology->is_virtual_torus;
  const std::string topology = machine.topology->name;
  const std::string torus_kind = !wraps.empty() ? "torus wrapping " + wraps_text(wraps) : mesh ? "mesh" : "torus";
  nlohmann::json physical{{"topology", on_torus ? torus_kind : topology}, {"nodes", shape.nodes()}};
  if (on_torus) physical["wraps"] = wraps_text(wraps.empty() ? std::vector<bool>(shape.dimensions(), !mesh) : wraps);
  if (on_torus) {
    physical["shape"] = shape.to_string();
  } else {
    physical["simgrid_parameters"] = model::simgrid_parameters(machine, shape.nodes());
  }
  const auto links = wraps.empty() ? model::physical_links(machine, shape, mesh)
                                    : std::make_shared<const TorusLinks>(shape, wraps);
  physical["directed_links"] = links->count();
  physical["link_classes"] = links->class_names();
  const auto nodes = shape.nodes();
  const char* rule = "given";
  if (on_torus && machine.shape_rule_for(nodes) == "partition" && machine.shape_for(nodes).sizes() == shape.sizes()) {
    rule = "machine partition";
  } else if (shape.sizes() == TorusShape::balanced(nodes, shape.dimensions()).sizes()) {
    rule = "balanced";
  }
  return {{"schema", "torus-gups/plan/1"},
          {"machine", written},
          {"shape", shape.to_string()},
          {"shape_rule", rule},
          {"nodes", shape.nodes()},
          {"network", on_torus ? torus_kind : "virtual torus on a " + topology},
          {"physical_network", physical},
          {"virtual_torus",
           {{"shape", shape.to_string()},
            {"mapping", on_torus ? "the physical torus itself (the paper's mapping)"
                                 : "a balanced grid, node n on host n, dimension 0 fastest"}}},
          {"network_level", to_string(level)},
          {"ranks_per_node", ranks_per_node},
          {"ranks", ranks},
          {"clock_hz", machine.clock_hz}};
}

nlohmann::json to_json(const RunPlan& plan) {
  auto json = network_plan_json(plan.machine, plan.shape, plan.mesh, plan.network_level, plan.ranks_per_node, plan.ranks,
                                plan.wraps);
  json.update({{"algorithm", to_string(plan.algorithm)},
               {"routes_over_torus", traits(plan.algorithm).routes_over_torus},
               {"specialised_cores", traits(plan.algorithm).specialised_cores},
               {"role_plan", plan.role_plan ? nlohmann::json(plan.role_plan->to_string()) : nlohmann::json()},
               {"role_plan_choice", plan.role_plan_choice},
               {"inputs", plan.inputs},
               {"input_set", plan.input_set.empty() ? nlohmann::json() : nlohmann::json(std::map<std::string, double>(
                                                                                plan.input_set.begin(), plan.input_set.end()))},
               {"model_interval", plan.model_interval},
               {"model_binding_cores", plan.model_binding_cores},
               {"processes_per_node", plan.processes_per_node},
               {"process_shape", plan.process_shape.to_string()},
               {"nodes_per_host", plan.placement.nodes_per_host},
               {"updating_cores_per_host", plan.placement.updating_cores},
               {"reference_bucket_size", plan.reference_bucket_size ? nlohmann::json(*plan.reference_bucket_size)
                                                                     : nlohmann::json()},
               {"table",
                {{"log2_words", plan.log2_table},
                 {"updates_per_word", plan.updates_per_word},
                 {"updates_per_node", plan.updates_per_node},
                 {"default_updates_per_node", plan.default_updates_per_node},
                 {"bytes", plan.table_bytes}}},
               {"verification", {{"mode", to_string(plan.verify)}, {"full_max_ranks", kFullVerificationMaxRanks}}},
               {"simulation_memory_bytes", plan.simulation_bytes},
               {"kernel_arguments", plan.kernel_arguments}});
  return json;
}

}  // namespace gups::topology
