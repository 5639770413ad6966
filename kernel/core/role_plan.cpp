#include "kernel/core/role_plan.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

namespace gups {
namespace {

unsigned checked_dimensions(unsigned cores, unsigned dimensions) {
  if (cores == 0) throw std::invalid_argument("a node needs at least one core");
  if (dimensions == 0 || dimensions > kMaxDimensions) {
    throw std::invalid_argument("a torus has 1 to 6 dimensions");
  }
  return dimensions;
}

}  // namespace

RolePlan::RolePlan(unsigned cores, unsigned dimensions)
    : RolePlan(cores, dimensions, PlanSpec::rule(cores, checked_dimensions(cores, dimensions))) {}

RolePlan::RolePlan(unsigned cores, unsigned dimensions, const PlanSpec& spec)
    : dimensions_(checked_dimensions(cores, dimensions)), spec_(spec) {
  spec.check(dimensions);
  if (spec.cores() > cores) {
    throw std::invalid_argument(fmt::format("role plan {} needs {} cores, the node has {}", spec.to_string(),
                                            spec.cores(), cores));
  }
  roles_.resize(cores);
  router_of_.assign(spec.pipelines, std::vector<unsigned>(dimensions));
  const auto per_pipeline = static_cast<unsigned>(spec.groups.size());
  for (unsigned p = 0; p < spec.pipelines; ++p) {
    unsigned next = 0;
    for (unsigned g = 0; g < per_pipeline; ++g) {
      const unsigned core = p * per_pipeline + g;
      roles_[core] = {g == 0, next, next + spec.groups[g], -1, static_cast<int>(p)};
      for (unsigned d = next; d < next + spec.groups[g]; ++d) router_of_[p][d] = core;
      next += spec.groups[g];
    }
  }
  if (spec.updaters == 0) {  // each pipeline's one core applies its slice too
    for (unsigned p = 0; p < spec.pipelines; ++p) {
      roles_[p].updater = static_cast<int>(p);
      updater_cores_.push_back(p);
    }
  }
  for (unsigned u = 0; u < spec.updaters; ++u) {
    const unsigned core = spec.pipelines * per_pipeline + u;
    roles_[core].updater = static_cast<int>(u);
    updater_cores_.push_back(core);
  }
  link_cores();
  count_incoming();
}

unsigned RolePlan::network_receiver(unsigned sender, unsigned dimension) const noexcept {
  const auto& pipeline = router_of_[static_cast<unsigned>(roles_[sender].pipeline)];
  if (dimension + 1 < dimensions_) return pipeline[dimension + 1];
  return updaters() == 1 ? updater_cores_[0] : pipeline[dimension];
}

bool RolePlan::dispatches(unsigned core) const noexcept {
  const auto& role = roles_[core];
  return updaters() > 1 && role.routes() && role.end_dimension == dimensions_;
}

const std::vector<unsigned>& RolePlan::local_receivers(unsigned core) const { return receivers_[core]; }

const std::vector<unsigned>& RolePlan::local_senders(unsigned core) const { return senders_[core]; }

// A router hands on to the routers after it in its pipeline (its cores are
// consecutive) and to every updater after it: found directly, since the
// planner builds thousands of plans of up to hundreds of cores.
void RolePlan::link_cores() {
  receivers_.assign(cores(), {});
  senders_.assign(cores(), {});
  const auto per_pipeline = static_cast<unsigned>(spec_.groups.size());
  for (unsigned core = 0; core < cores(); ++core) {
    const auto& role = roles_[core];
    if (!role.routes()) continue;
    if (role.updater >= 0) {  // a pipeline of one core: it hands the other pipelines' slices to them
      for (const auto updater : updater_cores_) {
        if (updater != core) receivers_[core].push_back(updater);
      }
      for (const auto other : receivers_[core]) senders_[other].push_back(core);
      continue;
    }
    const unsigned pipeline_end = (static_cast<unsigned>(role.pipeline) + 1) * per_pipeline;
    for (unsigned other = core + 1; other < pipeline_end; ++other) receivers_[core].push_back(other);
    for (const auto updater : updater_cores_) {
      if (updater > core) receivers_[core].push_back(updater);
    }
    for (const auto other : receivers_[core]) senders_[other].push_back(core);
  }
}

void RolePlan::count_incoming() {
  incoming_.assign(static_cast<std::size_t>(cores()) * dimensions_, 0);
  for (unsigned p = 0; p < pipelines(); ++p) {
    for (unsigned d = 0; d < dimensions_; ++d) {
      ++incoming_[static_cast<std::size_t>(network_receiver(router_of_[p][d], d)) * dimensions_ + d];
    }
  }
}

unsigned RolePlan::incoming_pipelines(unsigned core, unsigned dimension) const {
  return incoming_[static_cast<std::size_t>(core) * dimensions_ + dimension];
}

std::vector<unsigned> RolePlan::incoming_dimensions(unsigned core) const {
  std::vector<unsigned> incoming;
  for (unsigned d = 0; d < dimensions_; ++d) {
    if (incoming_pipelines(core, d) > 0) incoming.push_back(d);
  }
  return incoming;
}

std::string RolePlan::describe(unsigned core) const {
  const auto& role = roles_[core];
  if (role.idle()) return "idle";
  std::vector<std::string> parts;
  if (role.generates) parts.emplace_back("generate");
  const auto incoming = incoming_dimensions(core);
  if (!incoming.empty()) {
    std::string dims;
    for (const auto d : incoming) dims += kDimensionNames[d];
    parts.push_back("receive " + dims);
  }
  if (role.routes()) {
    std::string dims;
    for (unsigned d = role.first_dimension; d < role.end_dimension; ++d) dims += kDimensionNames[d];
    parts.push_back("route " + dims);
  }
  if (role.updater >= 0) {
    parts.push_back(updaters() == 1 ? "update the table"
                                    : fmt::format("update table slice {}/{}", role.updater + 1, updaters()));
  }
  const auto text = fmt::format("{}", fmt::join(parts, ", "));
  if (pipelines() > 1 && role.pipeline >= 0) return fmt::format("pipeline {}: {}", role.pipeline + 1, text);
  return text;
}

BucketSizing size_buckets(const RolePlan& plan, const TorusShape& shape, std::uint64_t lookahead,
                          int core) {
  if (shape.dimensions() != plan.dimensions()) {
    throw std::invalid_argument("role plan and torus shape differ in dimensions");
  }
  BucketSizing sizing;
  for (unsigned c = 0; c < plan.cores(); ++c) {
    if (core >= 0 && c != static_cast<unsigned>(core)) continue;
    const auto& role = plan.role(c);
    for (unsigned d = role.first_dimension; d < role.end_dimension; ++d) {
      sizing.network_send += shape.size(d) - 1;
    }
    sizing.local_send += static_cast<unsigned>(plan.local_receivers(c).size());
    for (const auto d : plan.incoming_dimensions(c)) {
      if (shape.size(d) > 1) sizing.network_receive += BucketSizing::kReceivesPerDimension;
    }
    sizing.local_receive += static_cast<unsigned>(plan.local_senders(c).size());
  }
  // Capacity is a node-wide figure: the whole node shares one budget.
  const auto node = core < 0 ? sizing : size_buckets(plan, shape, lookahead, -1);
  sizing.capacity =
      node.total() == 0 ? static_cast<unsigned>(lookahead)
                        : static_cast<unsigned>(lookahead / node.total());
  return sizing;
}

}  // namespace gups
