// The all-to-all: n - 1 pairwise steps, at step s process i sending to
// i + s and receiving from i - s, a receive posted before each send and both
// waited for. Each step has its own channel, so that a process that runs
// steps ahead cannot fill a slower one's receive of an earlier step (with
// one channel, 512 simulated processes deadlocked).
#include "kernel/exchange/probe.hpp"
#include "kernel/exchange/run.hpp"

namespace gups::exchange {

std::uint64_t run_all_to_all(ProbeContext& context, std::uint64_t words, std::uint64_t repeats) {
  const auto steps = steps_per_repetition("all-to-all", context.ranks);
  std::uint64_t wrong = 0;
  for (std::uint64_t repetition = 0; repetition < repeats; ++repetition) {
    for (std::uint64_t s = 0; s < steps; ++s) {
      wrong += send_and_receive(context, words, step_of("all-to-all", context.rank, context.ranks, s),
                                static_cast<int>(s));
    }
  }
  return wrong;
}

}  // namespace gups::exchange
