// Settling the steady state in one run. A simulation's ranks share one watch
// (they run in one process, one at a time, on one simulated clock): the
// updaters say what they applied and when, the generators how far they are,
// and each generator asks how far it may go. Once the run's steady state is
// settled the watch fixes a limit, the leading generator's count at that
// moment (so no generator is past it): every generator generates that many
// updates of its stretch and stops, and the run drains and ends as one of
// that length would.
//
// Exact, not a guess about the future: at simulated time t every update
// applied before t has been noted (a note is stamped no earlier than the
// clock of the core that makes it), and the check reads only what was
// applied before 3t/4. What the run did up to t does not depend on when it
// stops after t, so the half-length check below is what a run of half the
// length would have given (up to the timeline's bins).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

#include "kernel/core/update_timeline.hpp"

namespace gups {

struct SettlingCheck {
  bool settled = false;
  SteadyState run;       // the middle half of [0, t]
  SteadyState half_run;  // the middle half of [0, t/2]: what a run of half the length gives
};

// Settled within `tolerance` at `seconds`: the middle half's standard error is
// within it (the figure is not one draw of a noisy rate), its quarters within
// twice it (no climb left from filling the pipeline: with the error at the
// tolerance the quarters' difference scatters by twice it), and the rate agrees
// within it with that of a run of half the length (a short run's buffers still
// absorb the imbalance of random traffic, so its quarters can agree on too
// high a rate).
SettlingCheck check_settled(const UpdateTimeline& timeline, double seconds, double tolerance);

class SteadyWatch {
 public:
  static constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

  struct Decision {
    double seconds = 0;      // when the steady state was found settled, from the start of the update phase
    std::uint64_t limit = 0;  // updates each generator generates, at most
    SettlingCheck check;
  };

  // Throws std::invalid_argument unless 0 < tolerance < 1.
  SteadyWatch(double tolerance, std::uint64_t least_per_generator);

  void applied(double seconds, double count) { timeline_.add(seconds, count); }
  void generated(std::uint64_t count) noexcept {
    if (count > leader_) leader_ = count;
  }
  // Updates a generator may generate in all, at `seconds` (kNoLimit until
  // settled). Checks at most once a bin of the timeline.
  std::uint64_t limit(double seconds);

  const std::optional<Decision>& decision() const noexcept { return decision_; }
  double tolerance() const noexcept { return tolerance_; }
  std::uint64_t least_per_generator() const noexcept { return least_; }

 private:
  double tolerance_;
  std::uint64_t least_;
  UpdateTimeline timeline_;
  std::uint64_t leader_ = 0;
  double next_check_ = 0;
  std::optional<Decision> decision_;
};

}  // namespace gups
