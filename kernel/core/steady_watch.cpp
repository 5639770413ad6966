#include "kernel/core/steady_watch.hpp"

#include <cmath>
#include <stdexcept>

namespace gups {

SettlingCheck check_settled(const UpdateTimeline& timeline, double seconds, double tolerance) {
  SettlingCheck check;
  check.run = steady_state(timeline, seconds);
  check.half_run = steady_state(timeline, seconds / 2);
  const auto& run = check.run;
  check.settled = run.rate > 0 && run.standard_error && *run.standard_error <= tolerance &&
                  run.spread() <= 2 * tolerance &&
                  std::abs(run.rate - check.half_run.rate) <= tolerance * run.rate;
  return check;
}

SteadyWatch::SteadyWatch(double tolerance, std::uint64_t least_per_generator)
    : tolerance_(tolerance), least_(least_per_generator) {
  if (!(tolerance > 0 && tolerance < 1)) throw std::invalid_argument("a settling tolerance is between 0 and 1");
}

std::uint64_t SteadyWatch::limit(double seconds) {
  if (decision_) return decision_->limit;
  if (seconds < next_check_ || leader_ < least_) return kNoLimit;
  next_check_ = seconds + timeline_.width();
  auto check = check_settled(timeline_, seconds, tolerance_);
  if (!check.settled) return kNoLimit;
  decision_ = Decision{seconds, leader_, check};
  return leader_;
}

}  // namespace gups
