// The messages of one routing core, in numbered slots: each slot holds at
// most one send or one posted receive at a time. The core never polls; it
// starts messages and, when it has nothing else to do, waits for any one.
//
// Two layers carry them. MPI (nonblocking point-to-point on a communicator)
// on real machines and, for comparison, under SMPI. Under SimGrid the s4u
// layer puts the same messages, with the same sizes and the same rendezvous
// semantics (a send completes once a receive has taken it), through
// mailboxes directly: each SMPI call reads the thread's CPU clock twice
// through system calls, looks its peer up in a tree of all ranks and matches
// tags against one queue per rank: a large share of a big simulation's wall
// time.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernel/core/operation_charges.hpp"

namespace gups {

// SMPI adds this to every message's simulated size (tag, source and
// communicator): the s4u layer adds it too, so both put the same bytes on the
// simulated network.
constexpr std::uint64_t kSmpiEnvelopeBytes = 16;

class MessageSlots {
 public:
  struct Completion {
    std::size_t slot = 0;
    std::size_t count = 0;  // updates received (0 for a send, or a "done")
    double arrived = -1;    // simulated time the message was in; negative: unknown
  };

  virtual ~MessageSlots() = default;
  // `data` stays untouched until the send completes. Returns the bytes the
  // message puts on the network (simulated: its modelled size). A slot may
  // send to any rank on any channel, one message at a time.
  virtual std::uint64_t send(std::size_t slot, const std::uint64_t* data, std::size_t count, int rank,
                             int channel) = 0;
  // Receives the next message of `channel` sent to this rank, from anyone.
  // Messages of a channel meet its receives in the order they were posted.
  virtual void post(std::size_t slot, std::uint64_t* data, std::size_t capacity, int channel) = 0;
  // Blocks until one slot's message completes. Throws std::logic_error when
  // no slot is busy.
  virtual Completion wait_any() = 0;
  // A slot whose message has completed, if any; does not block.
  virtual std::optional<Completion> test_any() = 0;
  // Blocks until this receive slot's message is in.
  virtual Completion wait(std::size_t slot) = 0;
  // An empty message, completed by finish().
  virtual void send_done(int rank, int channel) = 0;
  // Completes the "done" sends and retires the receives still posted, once
  // no message can reach them any more.
  virtual void finish() = 0;
  // The most messages sent to this rank (with DMA: injected towards it)
  // that no receive had taken yet, at one time: what its reception held.
  // Counted where the layer matches messages itself; 0 elsewhere.
  virtual std::uint64_t most_waiting() const { return 0; }
  // A layer that lets its core run ahead of the simulated clock over its
  // own work (the levels that time messages themselves, unless
  // --no-run-ahead): the next send, post or "done" takes effect at `time`,
  // the end of the work before it, as an event the simulator runs then,
  // and the core goes on without waiting. A look (wait_any, test_any,
  // wait) sees the messages as they are at the latest such time, as if the
  // core had waited for it. Elsewhere runs_ahead() is false and the core
  // waits out its work before each start (CoreDebt::pay).
  virtual bool runs_ahead() const { return false; }
  virtual void start_at(double /*time*/) {}
};

// The simulated size in bytes of a message of `count` updates on `channel`,
// when the machine's packets are modelled; none: its payload and SMPI's
// envelope. Only the s4u layer can send a size other than the payload's.
using WireBytes = std::function<std::optional<std::uint64_t>(std::size_t count, int channel)>;

// How the s4u layer simulates messages (the MPI layer ignores it).
struct SimulatedMessages {
  // SMPI charges the real time of the code between message calls to the
  // simulated core (no machine file), so the s4u calls pause its timer as
  // SMPI's own calls do.
  bool timed_code = false;
  WireBytes wire_bytes;
  // Its dma_injection and reception_fifo_messages: how sends travel.
  ModelledMechanisms mechanisms;
  // Where the layer times messages itself: the core may run ahead
  // (MessageSlots::runs_ahead).
  bool run_ahead = false;
  // With run_ahead: a look whose answer nothing the clock runs before the
  // core's time can change is answered at once, without waiting for that
  // time. Off where the core's progress is read by others as the clock
  // goes (a settling run's steady watch), since the core then reports it
  // earlier on the clock.
  bool early_looks = false;
  // Channels whose messages all come from other nodes (a routing core's
  // dimensions): a receive posted on one waits at least one transfer across
  // the network, which early looks may count on. None: any channel may take
  // messages from the node's own cores. The timed layer checks it on every
  // message a receive takes.
  std::function<bool(int channel)> from_other_nodes = nullptr;
};

class NodeHandoffs;
// Hand-offs on `local_channel` through the node's shared slots, every other
// channel through `network` (real runs whose node's ranks share a host).
std::unique_ptr<MessageSlots> make_shared_handoff_slots(std::unique_ptr<MessageSlots> network,
                                                        const NodeHandoffs& handoffs, int local_channel,
                                                        unsigned cores_per_node);

// How the MPI layer sends on a real machine. Synchronous: a bucket stays in
// flight, counted by its sender, until the receiver has taken it (as the
// simulated sends do). Standard: MPI may complete a small send at once, as
// HPCC's reference scheme relies on. Under SMPI every send is synchronous.
enum class RealSends { synchronous, standard };

// `layer`: "mpi", or in the SimGrid build "s4u" or "s4u-comms"
// (std::invalid_argument otherwise).
std::unique_ptr<MessageSlots> make_message_slots(const std::string& layer, MPI_Comm comm, int rank,
                                                 std::size_t slots, SimulatedMessages simulated,
                                                 RealSends real_sends = RealSends::synchronous);

}  // namespace gups
