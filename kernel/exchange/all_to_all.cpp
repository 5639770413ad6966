// The all-to-all: n - 1 pairwise steps, at step s process i sending to
// i + s and receiving from i - s, a receive posted before each send and both
// waited for. Each step has its own channel, so that a process that runs
// steps ahead cannot fill a slower one's receive of an earlier step (with
// one channel, 512 simulated processes deadlocked); every payload must come
// from the process the step pairs.
#include "kernel/exchange/probe.hpp"
#include "kernel/exchange/run.hpp"

namespace gups::exchange {

std::uint64_t run_all_to_all(ProbeContext& context, std::uint64_t words, std::uint64_t repeats) {
  auto& slots = context.slots;
  constexpr std::size_t kReceive = 0, kSend = 1;
  const auto steps = steps_per_repetition("all-to-all", context.ranks);
  std::uint64_t wrong = 0;
  for (std::uint64_t repetition = 0; repetition < repeats; ++repetition) {
    for (std::uint64_t s = 0; s < steps; ++s) {
      const auto step = step_of("all-to-all", context.rank, context.ranks, s);
      const int channel = static_cast<int>(s);
      slots.post(kReceive, context.incoming[kReceive].data(), words, channel);
      slots.send(kSend, context.outgoing.data(), words, static_cast<int>(*step.send_to), channel);
      for (int pending = 2; pending > 0; --pending) {
        const auto completion = slots.wait_any();
        if (completion.slot == kReceive &&
            !received_from(context.incoming[kReceive], completion.count, words, step.receive_from)) {
          ++wrong;
        }
      }
    }
  }
  return wrong;
}

}  // namespace gups::exchange
