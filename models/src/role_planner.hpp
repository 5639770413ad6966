// Which role plan a multicore node runs: the paper's fixed rule, a plan
// given by its spec, or the planner's choice. The planner searches the
// family of plans a node of k cores can run (pipelines, groups of
// dimensions per routing core, updaters; cores left idle where they would
// not help) for the highest model GUPS under the node's look-ahead: the
// CPU bound, or the network bound where that is lower (more buckets are
// smaller ones, and a small bucket's headers and partial packets are bytes
// the network carries), ties to the fewest busy cores.
#pragma once

#include <string>
#include <vector>

#include "kernel/core/role_plan.hpp"
#include "models/src/bounds.hpp"

namespace gups::model {

struct PlanChoice {
  PlanSpec spec;
  std::string how;  // "paper", "best" or "given"
  double cycles = 0;
  double gups = 0;
  // The best plan of each pipeline count and the paper's, when the planner chose.
  std::vector<PlanOption> compared;
};

// Resolves options.role_plan (empty: the machine's). Throws
// std::invalid_argument for a spec that does not fit the node.
PlanChoice choose_role_plan(const Machine& machine, const TorusShape& shape, const ModelOptions& options);

// The planner: the search above, skipping only what cannot win (adding an
// updater never lightens a routing core, so once one binds it stops adding);
// it compares the rule's plan too, where it fits.
PlanChoice best_role_plan(const Machine& machine, const TorusShape& shape, const ModelOptions& options);
// Every plan of the family, each evaluated: the check on the planner.
PlanChoice exhaustive_role_plan(const Machine& machine, const TorusShape& shape, const ModelOptions& options);
// The family itself: every plan of at most `cores` cores on `dimensions`,
// the updater counts of each (groups, pipelines) in a run, fewest first.
std::vector<PlanSpec> plan_family(unsigned cores, unsigned dimensions);

// How a plan was chosen ("paper", "best", "given"), as reports say it.
std::string role_plan_choice_text(const std::string& how);

}  // namespace gups::model
