// The global-exchange probes over MPI: each behind one signature, in its own
// file, so that one driver (driver.cpp) times them all on the same sizes and
// checks every payload.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/exchange/run.hpp"
#include "kernel/mpi/message_slots.hpp"

namespace gups::exchange {

// A process's means for one probe: its message slots (kProbeSlots of
// them), the payload it sends (filled once per size) and the probe's
// receive buffers (receive_buffers), each at least the largest size.
struct ProbeContext {
  MessageSlots& slots;
  std::uint64_t rank = 0;
  std::uint64_t ranks = 0;
  const std::vector<std::uint64_t>& outgoing;
  std::vector<std::vector<std::uint64_t>>& incoming;
};

// Runs `repeats` repetitions of messages of `words` words; returns when this
// process's part is done, with the number of messages it received wrong.
using ProbeRun = std::uint64_t (*)(ProbeContext& context, std::uint64_t words, std::uint64_t repeats);

struct Probe {
  std::string_view name;
  ProbeRun run;
};

const std::vector<Probe>& probes();

// The lower half streams to the upper half, two messages in flight each.
std::uint64_t run_bisection(ProbeContext& context, std::uint64_t words, std::uint64_t repeats);
// A receive posted, a send, both waited for (the X1's IRECV/SEND/IWAIT).
std::uint64_t run_exchange(ProbeContext& context, std::uint64_t words, std::uint64_t repeats);
// Pairwise steps, each on a channel of its own.
std::uint64_t run_all_to_all(ProbeContext& context, std::uint64_t words, std::uint64_t repeats);

// One step of a probe whose every process sends and receives: a receive
// posted on `channel`, the send to step.send_to, both waited for; returns 1
// when the message received is wrong (not whole, or not from
// step.receive_from), else 0.
std::uint64_t send_and_receive(ProbeContext& context, std::uint64_t words, const Step& step, int channel);

// Whether a received message is `words` words long and whole, from
// `sender` when given; returns its sender when it is.
std::optional<std::uint64_t> received_from(const std::vector<std::uint64_t>& buffer, std::size_t count,
                                           std::uint64_t words, std::optional<std::uint64_t> sender);

// The probes' program, inside gups (--algo NAME): exit status 0, 1 when a
// message arrived wrong, 2 on bad input.
int probe_main(int argc, char** argv, int rank, int ranks, const std::string& mpi_library);

}  // namespace gups::exchange
