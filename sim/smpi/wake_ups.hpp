// The simulation's count of wake-ups: each time a simulated core blocked
// and SimGrid resumed it (a context switch each way, the simulation's own
// cost per event: tests/benchmarks/sleep-floor.sh).
#pragma once

namespace gups::simulation {

// Called by every place a simulated core blocks, once it runs again.
void note_wake_up() noexcept;

}  // namespace gups::simulation
