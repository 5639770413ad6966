#include "kernel/core/option_scopes.hpp"
#include "kernel/core/algorithm_setup.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace gups {

AlgorithmSetup plan_algorithm(const RunConfig& config, std::uint64_t ranks) {
  AlgorithmSetup setup;
  const auto& algorithm = traits(config.algorithm);
  const bool routing = algorithm.routes_over_torus;
  setup.mode = mapping_mode(config.mapping_mode ? config.mapping_mode : default_mapping_mode(config.algorithm));
  if (!routing) {
    if (!config.shape.empty()) throw std::invalid_argument(refusal("--shape"));
    if (config.bucket_size > 0) throw std::invalid_argument(refusal("--bucket-size"));
    if (!setup.cores_share_table()) {
      if (config.cores_per_node > 1) {
        throw std::invalid_argument(
            "--cores-per-node applies to multicore, and to direct in mapping modes 5 and 6 (a node's cores "
            "sharing its table)");
      }
      setup.nodes = ranks;
      setup.limits = lookahead_limits(setup.mode, config.lookahead, 1);
      return setup;
    }
    const unsigned cores = config.cores_per_node == 0 ? 4 : config.cores_per_node;
    if (ranks % cores != 0) {
      throw std::invalid_argument(fmt::format(
          "{} ranks is not nodes x cores: not a multiple of --cores-per-node {}", ranks, cores));
    }
    setup.cores_per_node = cores;
    setup.nodes = ranks / cores;
    setup.limits = lookahead_limits(setup.mode, config.lookahead, cores);
    if (setup.limits.per_core == 0) {
      throw std::invalid_argument(fmt::format(
          "--lookahead {} is too small: mapping mode {} shares each node's limit among its {} cores",
          config.lookahead, setup.mode.number, cores));
    }
    return setup;
  }
  unsigned cores = 1;
  if (algorithm.specialised_cores) {
    cores = config.cores_per_node == 0 ? 4 : config.cores_per_node;
  } else if (config.cores_per_node > 1) {
    throw std::invalid_argument("--cores-per-node applies to multicore only (routed runs one rank per node)");
  }
  if (ranks % cores != 0) {
    throw std::invalid_argument(fmt::format(
        "{} ranks is not nodes x cores: not a multiple of --cores-per-node {}", ranks, cores));
  }
  setup.cores_per_node = cores;
  setup.nodes = ranks / cores;
  setup.shape = config.shape.empty() ? TorusShape::balanced(setup.nodes) : TorusShape::parse(config.shape);
  if (setup.shape->nodes() != setup.nodes) {
    throw std::invalid_argument(fmt::format("--shape {} has {} nodes but the run has {} ({} ranks / {} cores)",
                                            setup.shape->to_string(), setup.shape->nodes(),
                                            setup.nodes, ranks, cores));
  }
  if (config.role_plan != "paper" && !algorithm.specialised_cores) {
    throw std::invalid_argument(refusal("--role-plan"));
  }
  if (config.role_plan == "best") {
    throw std::invalid_argument(
        "--role-plan best needs a machine's costs: gups-model --role-plan best (or gups-sim) names the plan, "
        "then give it here, such as --role-plan 2xX/YZ+3");
  }
  setup.plan = config.role_plan == "paper"
                   ? RolePlan(cores, setup.shape->dimensions())
                   : RolePlan(cores, setup.shape->dimensions(),
                              PlanSpec::parse(config.role_plan, setup.shape->dimensions()));
  setup.limits = lookahead_limits(setup.mode, config.lookahead, cores);
  setup.node_buckets = size_buckets(setup.plan, *setup.shape, setup.limits.per_node);
  if (config.bucket_size > 0) setup.node_buckets.capacity = config.bucket_size;
  if (setup.node_buckets.capacity == 0) {
    throw std::invalid_argument(fmt::format(
        "--lookahead {} is too small: each node of {} with {} cores needs {} buckets of at least one slot",
        config.lookahead, setup.shape->to_string(), cores, setup.node_buckets.total()));
  }
  return setup;
}

std::vector<unsigned> AlgorithmSetup::updater_cores() const {
  if (!cores_share_table()) return plan.updater_cores();
  std::vector<unsigned> all(cores_per_node);
  for (unsigned core = 0; core < cores_per_node; ++core) all[core] = core;
  return all;
}

std::string AlgorithmSetup::explain(std::uint64_t lookahead) const {
  if (!shape) return fmt::format("{} ranks, one table slice and one stream each\n", nodes);
  std::string text = fmt::format("torus {} ({} nodes), {} core(s) per node, rank = node * {} + core\n",
                                 shape->to_string(), nodes, cores_per_node, cores_per_node);
  for (unsigned core = 0; core < plan.cores(); ++core) {
    const auto own = size_buckets(plan, *shape, lookahead, static_cast<int>(core));
    text += fmt::format("  core {}: {}  [buckets: {} network send, {} inter-core send, {} network receive, {} inter-core receive]\n",
                        core, plan.describe(core), own.network_send, own.local_send,
                        own.network_receive, own.local_receive);
  }
  const auto& b = node_buckets;
  const auto held = std::uint64_t{b.total()} * b.capacity;
  text += fmt::format("  per node: {} buckets x {} updates = {} {} look-ahead {}\n", b.total(), b.capacity, held,
                      held <= lookahead ? "<=" : ">", lookahead);
  return text;
}

}  // namespace gups
