// A simulated core's work as a debt against the simulated clock:
// `busy_until` is the time the work marked so far ends. pay() waits until
// then; a caller pays before every MPI call another rank can observe (a
// send, a posted receive, a look at the network), so that it happens when
// the work before it is done. A blocking wait pays nothing first: it returns
// at the later of the completion and the end of the work, which the next
// pay() settles. Real runs owe nothing.
#pragma once

#include <algorithm>
#include <memory>

#include "kernel/core/issue_port.hpp"

#ifdef GUPS_SIMULATED
#include <simgrid/s4u/Engine.hpp>

#include "kernel/mpi/core_sleep.hpp"
#endif

namespace gups {

#ifdef GUPS_SIMULATED

class CoreDebt {
 public:
  // Work of a hardware thread: its issue on the core it shares, then its wait.
  void add_on_port(IssuePort& port, double issue_cycles, double wait_cycles, double clock_hz) {
    const double start = std::max(busy_until_, simgrid::s4u::Engine::get_clock());
    busy_until_ = port.take(simgrid::s4u::Engine::get_clock(), start, issue_cycles / clock_hz) + wait_cycles / clock_hz;
  }
  void add_cycles(double cycles, double clock_hz) noexcept {
    if (cycles <= 0) return;
    busy_until_ = std::max(busy_until_, simgrid::s4u::Engine::get_clock()) + cycles / clock_hz;
  }
  // The simulator's sleep, not this_actor::sleep_for(): that starts an
  // activity on the host's CPU model (an action in its sharing system and
  // its event heap) for the same effect.
  void pay() {
    if (busy_until_ <= simgrid::s4u::Engine::get_clock()) return;
    if (!sleep_) sleep_ = simulation::core_sleep();
    sleep_->until(busy_until_);
  }
  // Pays only when more than `quantum` seconds are owed: a look at the
  // network then happens at most that late, for one wait per quantum of
  // work instead of one per look.
  void pay_beyond(double quantum) {
    if (busy_until_ - simgrid::s4u::Engine::get_clock() > quantum) pay();
  }
  double busy_until() const noexcept { return busy_until_; }

 private:
  double busy_until_ = 0;
  std::unique_ptr<simulation::CoreSleep> sleep_;
};

#else

class CoreDebt {
 public:
  void add_cycles(double, double) noexcept {}
  void pay() noexcept {}
  void pay_beyond(double) noexcept {}
  double busy_until() const noexcept { return 0; }
};

#endif

}  // namespace gups
