// Calls that go to SimGrid directly, bypassing SMPI (the phase barrier, the
// s4u message slots), keep SMPI's timing of the real code right.
#pragma once

#include <smpi/smpi.h>

namespace gups {

// When SMPI times the real code (no machine file), the time between two
// SMPI calls is charged to the simulated core when the next one starts. A
// call that bypasses SMPI does what SMPI's own calls do: it stops the timer
// on entry (charging the time so far) and restarts it on the way out.
class TimedCode {
 public:
  explicit TimedCode(bool timed) : timed_(timed) {
    if (timed_) smpi_bench_end();
  }
  ~TimedCode() {
    if (timed_) smpi_bench_begin();
  }
  TimedCode(const TimedCode&) = delete;
  TimedCode& operator=(const TimedCode&) = delete;

 private:
  bool timed_ = false;
};

}  // namespace gups
