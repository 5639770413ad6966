#include <algorithm>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "kernel/core/role_plan.hpp"

namespace gups {
namespace {

[[noreturn]] void bad_spec(const std::string& text, const std::string& why) {
  throw std::invalid_argument(fmt::format(
      "role plan '{}': {} (expected 'paper', 'best', or PIPELINESxGROUPS+UPDATERS such as 2xX/YZ+3: two "
      "pipelines routing X on one core and YZ on the next, then 3 updaters)",
      text, why));
}

}  // namespace

unsigned PlanSpec::dimensions() const noexcept { return std::accumulate(groups.begin(), groups.end(), 0u); }

std::string PlanSpec::to_string() const {
  std::string text = fmt::format("{}x", pipelines);
  unsigned next = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (g > 0) text += '/';
    text += kDimensionNames.substr(next, groups[g]);
    next += groups[g];
  }
  return text + fmt::format("+{}", updaters);
}

void PlanSpec::check(unsigned dims) const {
  const auto text = to_string();
  if (pipelines == 0) bad_spec(text, "a plan needs at least one pipeline");
  if (groups.empty() || std::find(groups.begin(), groups.end(), 0u) != groups.end()) {
    bad_spec(text, "every routing core routes at least one dimension");
  }
  if (dimensions() != dims) {
    bad_spec(text, fmt::format("its groups route {} dimensions, the torus has {}", dimensions(), dims));
  }
  // Without separate updaters each pipeline is one core that routes every
  // dimension and applies its slice of the node's table, handing the other
  // pipelines theirs: a pipeline of several routers would deliver into a
  // table that is not its own.
  if (updaters == 0 && groups.size() != 1) {
    bad_spec(text, "a plan without updaters has one core a pipeline, routing every dimension and applying its "
                   "slice of the table (Nx...+0)");
  }
}

PlanSpec PlanSpec::parse(const std::string& text, unsigned dims) {
  PlanSpec spec;
  const auto x = text.find('x');
  const auto plus = text.find('+');
  if (x == std::string::npos || plus == std::string::npos || plus < x) bad_spec(text, "not of that form");
  auto number = [&](const std::string& digits, const char* what) {
    if (digits.empty() || digits.size() > 3 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) {
      bad_spec(text, fmt::format("the {} is not a number", what));
    }
    return static_cast<unsigned>(std::stoul(digits));
  };
  spec.pipelines = number(text.substr(0, x), "pipeline count");
  spec.updaters = number(text.substr(plus + 1), "updater count");
  const auto groups = text.substr(x + 1, plus - x - 1);
  unsigned next = 0, size = 0;
  for (std::size_t i = 0; i <= groups.size(); ++i) {
    if (i == groups.size() || groups[i] == '/') {
      if (size == 0) bad_spec(text, "an empty group of dimensions");
      spec.groups.push_back(size);
      size = 0;
      continue;
    }
    if (next >= dims || groups[i] != kDimensionNames[next]) {
      bad_spec(text, fmt::format("groups must name the torus's {} dimensions in order, {}", dims,
                                 kDimensionNames.substr(0, dims)));
    }
    ++next;
    ++size;
  }
  spec.check(dims);
  return spec;
}

PlanSpec PlanSpec::rule(unsigned cores, unsigned dims) {
  if (cores == 1) return {1, {dims}, 0};
  const unsigned routers = std::min(dims, cores - 1);
  PlanSpec spec{1, {}, cores - routers};
  // Groups differ by at most one dimension; core 0 also generates, so the
  // larger groups go to the later routers.
  for (unsigned r = 0; r < routers; ++r) {
    spec.groups.push_back(dims / routers + (r >= routers - dims % routers ? 1 : 0));
  }
  return spec;
}

}  // namespace gups
