// The exchange test: process i and its partner i + n/2 swap a message each
// way, repetition after repetition, a receive posted before each send and
// both waited for (the X1 MPI version's IRECV/SEND/IWAIT).
#include "kernel/exchange/probe.hpp"
#include "kernel/exchange/run.hpp"

namespace gups::exchange {

std::uint64_t run_exchange(ProbeContext& context, std::uint64_t words, std::uint64_t repeats) {
  const auto step = step_of("exchange", context.rank, context.ranks, 0);
  auto& slots = context.slots;
  constexpr std::size_t kReceive = 0, kSend = 1;
  std::uint64_t wrong = 0;
  for (std::uint64_t repetition = 0; repetition < repeats; ++repetition) {
    slots.post(kReceive, context.incoming[kReceive].data(), words, 0);
    slots.send(kSend, context.outgoing.data(), words, static_cast<int>(*step.send_to), 0);
    for (int pending = 2; pending > 0; --pending) {
      const auto completion = slots.wait_any();
      if (completion.slot == kReceive &&
          !received_from(context.incoming[kReceive], completion.count, words, step.receive_from)) {
        ++wrong;
      }
    }
  }
  return wrong;
}

}  // namespace gups::exchange
