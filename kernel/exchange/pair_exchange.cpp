// The exchange test: process i and its partner i + n/2 swap a message each
// way, repetition after repetition, a receive posted before each send and
// both waited for (the X1 MPI version's IRECV/SEND/IWAIT).
#include "kernel/exchange/probe.hpp"
#include "kernel/exchange/run.hpp"

namespace gups::exchange {

std::uint64_t run_exchange(ProbeContext& context, std::uint64_t words, std::uint64_t repeats) {
  const auto step = step_of("exchange", context.rank, context.ranks, 0);
  std::uint64_t wrong = 0;
  for (std::uint64_t repetition = 0; repetition < repeats; ++repetition) {
    wrong += send_and_receive(context, words, step, 0);
  }
  return wrong;
}

}  // namespace gups::exchange
