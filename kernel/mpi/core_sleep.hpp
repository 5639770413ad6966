// How a simulated core waits for the simulated clock (kernel/mpi/core_debt.hpp
// pays its debt with it): the simulator's side is sim/smpi/alarm_clock.cpp.
#pragma once

#include <memory>

namespace gups::simulation {

class CoreSleep {
 public:
  virtual ~CoreSleep() = default;
  // Blocks the calling simulated core until the clock reaches `time`.
  virtual void until(double time) = 0;
};

// One core's sleeps, made by the core that will sleep; null outside SimGrid.
std::unique_ptr<CoreSleep> core_sleep();

}  // namespace gups::simulation
