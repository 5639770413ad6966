#include "kernel/core/role_plan.hpp"

#include <algorithm>
#include <stdexcept>

namespace gups {

RolePlan::RolePlan(unsigned cores, unsigned dimensions) : dimensions_(dimensions) {
  if (cores == 0) throw std::invalid_argument("a node needs at least one core");
  if (dimensions == 0 || dimensions > kMaxDimensions) {
    throw std::invalid_argument("a torus has 1 to 6 dimensions");
  }
  roles_.resize(cores);
  router_of_dimension_.resize(dimensions);
  if (cores == 1) {
    roles_[0] = {true, 0, dimensions, 0};
    router_of_dimension_.assign(dimensions, 0);
    updater_cores_ = {0};
    return;
  }
  const unsigned routers = std::min(dimensions, cores - 1);
  // Groups differ by at most one dimension; core 0 also generates, so the
  // larger groups go to the later routers.
  unsigned next = 0;
  for (unsigned r = 0; r < routers; ++r) {
    const unsigned group = dimensions / routers + (r >= routers - dimensions % routers ? 1 : 0);
    roles_[r] = {r == 0, next, next + group, -1};
    for (unsigned d = next; d < next + group; ++d) router_of_dimension_[d] = r;
    next += group;
  }
  for (unsigned core = routers; core < cores; ++core) {
    roles_[core].updater = static_cast<int>(updater_cores_.size());
    updater_cores_.push_back(core);
  }
}

unsigned RolePlan::network_receiver(unsigned dimension) const noexcept {
  if (dimension + 1 < dimensions_) return router_of_dimension_[dimension + 1];
  return updaters() == 1 ? updater_cores_[0] : router_of_dimension_[dimension];
}

std::vector<unsigned> RolePlan::local_receivers(unsigned core) const {
  std::vector<unsigned> receivers;
  if (cores() == 1 || !roles_[core].routes()) return receivers;
  for (unsigned other = core + 1; other < cores(); ++other) receivers.push_back(other);
  return receivers;
}

std::vector<unsigned> RolePlan::local_senders(unsigned core) const {
  std::vector<unsigned> senders;
  for (unsigned other = 0; other < cores(); ++other) {
    const auto receivers = local_receivers(other);
    if (std::find(receivers.begin(), receivers.end(), core) != receivers.end()) {
      senders.push_back(other);
    }
  }
  return senders;
}

std::vector<unsigned> RolePlan::incoming_dimensions(unsigned core) const {
  std::vector<unsigned> incoming;
  for (unsigned d = 0; d < dimensions_; ++d) {
    if (network_receiver(d) == core) incoming.push_back(d);
  }
  return incoming;
}

std::string RolePlan::describe(unsigned core) const {
  static constexpr const char* kNames = "XYZUVW";
  const auto& role = roles_[core];
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "" : ", ") + part; };
  if (role.generates) add("generate");
  const auto incoming = incoming_dimensions(core);
  if (!incoming.empty()) {
    std::string dims;
    for (const auto d : incoming) dims += kNames[d];
    add("receive " + dims);
  }
  if (role.routes()) {
    std::string dims;
    for (unsigned d = role.first_dimension; d < role.end_dimension; ++d) dims += kNames[d];
    add("route " + dims);
  }
  if (role.updater >= 0) {
    add(updaters() == 1 ? "update the table"
                        : "update table slice " + std::to_string(role.updater + 1) + "/" +
                              std::to_string(updaters()));
  }
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
