// The bisection test: the lower half of the processes sends `repeats`
// messages each to its partner i + n/2 in the upper half, which keeps two
// receives posted, so that a link never waits for the next message's
// rendezvous (the X1's "N/2 processors sending 1 MB messages to the other N/2").
#include "kernel/exchange/probe.hpp"
#include "kernel/exchange/run.hpp"

namespace gups::exchange {
std::uint64_t run_bisection(ProbeContext& context, std::uint64_t words, std::uint64_t repeats) {
  const auto step = step_of("bisection", context.rank, context.ranks, 0);
  auto& slots = context.slots;
  std::uint64_t started = 0, wrong = 0;
  auto start_next = [&](std::size_t slot) {
    if (started == repeats) return;
    if (step.send_to) {
      slots.send(slot, context.outgoing.data(), words, static_cast<int>(*step.send_to), 0);
    } else {
      slots.post(slot, context.incoming[slot].data(), words, 0);
    }
    ++started;
  };
  for (std::size_t slot = 0; slot < receive_buffers("bisection"); ++slot) start_next(slot);
  for (std::uint64_t done = 0; done < repeats; ++done) {
    const auto completion = slots.wait_any();
    if (step.receive_from &&
        !received_from(context.incoming[completion.slot], completion.count, words, step.receive_from)) {
      ++wrong;
    }
    start_next(completion.slot);
  }
  return wrong;
}

}  // namespace gups::exchange
