#include "models/src/role_planner.hpp"

#include "models/src/plan_cache.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>

namespace gups::model {
namespace {

// Every way to cut `dimensions` into contiguous groups, in order.
std::vector<std::vector<unsigned>> compositions(unsigned dimensions) {
  std::vector<std::vector<unsigned>> all;
  for (unsigned cuts = 0; cuts < (1u << (dimensions - 1)); ++cuts) {
    std::vector<unsigned> groups{1};
    for (unsigned d = 1; d < dimensions; ++d) {
      if (cuts & (1u << (d - 1))) {
        groups.push_back(1);
      } else {
        ++groups.back();
      }
    }
    all.push_back(std::move(groups));
  }
  return all;
}

struct Evaluation {
  bool fits = true;  // every bucket of the node holds at least one update
  double cycles = 0;
  double gups = 0;
  bool router_binds = false;
};

// The network bound of a plan is the shape's, over the plan's bytes per
// update: this is their product, from one full prediction (0: no network)
// of the one-core plan, which has the fewest buckets and so fits whenever
// any plan does.
double network_bytes_per_s(const Machine& machine, const TorusShape& shape, ModelOptions options) {
  options.role_plan_spec = PlanSpec{1, {shape.dimensions()}, 0};
  const auto p = predict(machine, shape, options);
  return p.network_gups ? *p.network_gups * p.bytes_per_update : 0;
}

Evaluation evaluate(const Machine& machine, const TorusShape& shape, ModelOptions options, const PlanSpec& spec,
                    double network) {
  const RolePlan& plan = cached_role_plan(node_cores(machine, options), shape.dimensions(), spec);
  if (cached_bucket_sizing(plan, shape, options.lookahead).capacity == 0) return {false, 0, 0, true};
  options.role_plan_spec = spec;
  options.describe_roles = false;
  const auto p = cpu_prediction(machine, shape, options);
  bool router_binds = false;
  for (unsigned core = 0; core < plan.cores(); ++core) {
    if (p.cores[core].core_cycles == p.cpu_cycles_per_update && plan.role(core).routes()) router_binds = true;
  }
  const double gups = network > 0 ? std::min(p.cpu_gups, network / p.bytes_per_update) : p.cpu_gups;
  return {true, p.cpu_cycles_per_update, gups, router_binds};
}

// Faster, or as fast (to a part in 10^9) on fewer cores.
bool better(const PlanOption& a, const PlanOption& b) {
  const double tolerance = 1e-9 * b.gups;
  if (a.gups > b.gups + tolerance) return true;
  return std::fabs(a.gups - b.gups) <= tolerance && a.spec.cores() < b.spec.cores();
}

class Search {
 public:
  Search(const Machine& machine, const TorusShape& shape, const ModelOptions& options)
      : machine_(machine), shape_(shape), options_(options),
        network_(network_bytes_per_s(machine, shape, options)) {}

  // Returns whether a routing core binds the plan, or it does not fit the
  // look-ahead: either way, more updaters cannot make it faster (they only
  // add buckets: routers pay more per update, and the bytes per update grow).
  bool consider(const PlanSpec& spec) {
    const auto result = evaluate(machine_, shape_, options_, spec, network_);
    if (!result.fits) return true;
    const PlanOption option{spec, result.cycles, result.gups};
    auto& of_pipelines = best_by_pipelines_[spec.pipelines];
    if (of_pipelines.spec.groups.empty() || better(option, of_pipelines)) of_pipelines = option;
    if (best_.spec.groups.empty() || better(option, best_)) best_ = option;
    return result.router_binds;
  }

  // The plan's option, when it fits the look-ahead.
  std::optional<PlanOption> option_of(const PlanSpec& spec) const {
    const auto result = evaluate(machine_, shape_, options_, spec, network_);
    if (!result.fits) return std::nullopt;
    return PlanOption{spec, result.cycles, result.gups};
  }

  PlanChoice choice() const {
    PlanChoice chosen{best_.spec, "best", best_.cycles, best_.gups, {}};
    for (const auto& [pipelines, option] : best_by_pipelines_) chosen.compared.push_back(option);
    return chosen;
  }

 private:
  const Machine& machine_;
  const TorusShape& shape_;
  const ModelOptions& options_;
  const double network_;
  PlanOption best_;
  std::map<unsigned, PlanOption> best_by_pipelines_;
};

}  // namespace

std::vector<PlanSpec> plan_family(unsigned cores, unsigned dimensions) {
  // Pipelines of one core that each update a slice (one: a core doing everything).
  std::vector<PlanSpec> family;
  for (unsigned pipelines = 1; pipelines <= cores; ++pipelines) family.push_back({pipelines, {dimensions}, 0});
  for (const auto& groups : compositions(dimensions)) {
    const auto routers = static_cast<unsigned>(groups.size());
    for (unsigned pipelines = 1; pipelines * routers < cores; ++pipelines) {
      for (unsigned updaters = 1; pipelines * routers + updaters <= cores; ++updaters) {
        family.push_back({pipelines, groups, updaters});
      }
    }
  }
  return family;
}

PlanChoice exhaustive_role_plan(const Machine& machine, const TorusShape& shape, const ModelOptions& options) {
  Search search(machine, shape, options);
  for (const auto& spec : plan_family(node_cores(machine, options), shape.dimensions())) search.consider(spec);
  return search.choice();
}

PlanChoice best_role_plan(const Machine& machine, const TorusShape& shape, const ModelOptions& options) {
  Search search(machine, shape, options);
  // The family lists the updater counts of one (groups, pipelines) in a run:
  // once a router binds, the rest of that run cannot win.
  const PlanSpec* stopped = nullptr;
  for (const auto& spec : plan_family(node_cores(machine, options), shape.dimensions())) {
    if (stopped && spec.pipelines == stopped->pipelines && spec.groups == stopped->groups) continue;
    stopped = search.consider(spec) && spec.updaters > 0 ? &spec : nullptr;
  }
  auto chosen = search.choice();
  if (const auto rule = search.option_of(PlanSpec::rule(node_cores(machine, options), shape.dimensions()))) {
    chosen.compared.push_back(*rule);
  }
  return chosen;
}

PlanChoice choose_role_plan(const Machine& machine, const TorusShape& shape, const ModelOptions& options) {
  if (options.role_plan_spec) return {*options.role_plan_spec, "given", 0, 0, {}};
  const auto& name = options.role_plan.empty() ? machine.role_plan : options.role_plan;
  const unsigned cores = node_cores(machine, options);
  if (name == "paper") return {PlanSpec::rule(cores, shape.dimensions()), "paper", 0, 0, {}};
  if (name == "best") return best_role_plan(machine, shape, options);
  // Whether it fits the node is RolePlan's to say, where the plan is made.
  return {PlanSpec::parse(name, shape.dimensions()), "given", 0, 0, {}};
}

std::string role_plan_choice_text(const std::string& how) {
  if (how == "paper") return "the paper's rule, min(d, k-1) routing cores, the rest updating";
  if (how == "best") return "the planner's best";
  return "as given";
}

}  // namespace gups::model
