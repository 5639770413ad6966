// Message slots over SimGrid's s4u mailboxes, for simulated runs: one
// mailbox per (rank, channel), so a receive matches the oldest message of
// its channel without searching, as MPI's tag matching does. Sends are not
// detached, as with smpi/send-is-detached-thresh:0: a send completes when
// its transfer ends, which starts once a receive has taken it. Payloads are
// copied into the receiver's buffer when the transfer ends, as SMPI does.
// With DMA injection a rank's mailboxes have it as their permanent receiver:
// a transfer starts when it is sent (s4u's "eager" mailboxes), and a receive
// posted later takes the message where it arrived. The sender may reuse its
// buffer once the transfer ends, before any receive took the message, so the
// payload is copied when it is sent (the DMA reads it then) and that copy
// is freed when a receive has taken it. A bounded reception FIFO holds at
// most so many messages of a (rank, channel) that no receive has taken yet;
// a send to a full one waits at the sender, as the torus pushes back on the
// hardware, and starts once a receive made room (the sender looks again
// whenever it would wait, and every 100 ns while it waits: 85 cycles).
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <unordered_map>

#include "kernel/mpi/message_slots.hpp"
#include "kernel/mpi/simulation.hpp"
#include "sim/smpi/simulated_sends.hpp"
#include "sim/smpi/timed_code.hpp"
#include "sim/smpi/timed_message_slots.hpp"
#include "sim/smpi/wake_ups.hpp"

namespace gups {
namespace {

class S4uMessageSlots final : public MessageSlots {
 public:
  S4uMessageSlots(int rank, std::size_t slots, SimulatedMessages simulated)
      : rank_(rank),
        sends_(std::move(simulated)),
        slots_(slots) {}

  std::uint64_t send(std::size_t slot, const std::uint64_t* data, std::size_t count, int rank,
                     int channel) override {
    const TimedCode timing(sends_.timed_code);
    auto& entry = slots_[slot];
    if (entry.mailbox == nullptr || entry.destination != rank || entry.channel_sent != channel) {
      entry.mailbox = mailbox(rank, channel);
      entry.destination = rank;
      entry.channel_sent = channel;
    }
    const auto bytes = sends_.bytes(count, channel);
    if (sends_.fifo_messages > 0 && fifo_use()[entry.mailbox] >= sends_.fifo_messages) {
      deferred_.push_back({slot, put(entry.mailbox, data, count, bytes)});
      return bytes;
    }
    inject(slot, put(entry.mailbox, data, count, bytes));
    return bytes;
  }

  // The copy callback on both sides: the receiver's overrides the sender's
  // when it is posted after the send.
  static void copy_and_free(simgrid::kernel::activity::CommImpl* comm, void* payload, std::size_t size) {
    simgrid::s4u::Comm::copy_buffer_callback(comm, payload, size);
    std::free(payload);
  }

  void post(std::size_t slot, std::uint64_t* data, std::size_t capacity, int channel) override {
    const TimedCode timing(sends_.timed_code);
    auto& entry = slots_[slot];
    // Looked up again when the slot's channel changes (the all-to-all probe
    // receives on a channel per step).
    if (entry.mailbox == nullptr || entry.destination != rank_ || entry.channel_sent != channel) {
      entry.mailbox = mailbox(rank_, channel);
      entry.destination = rank_;
      entry.channel_sent = channel;
      // Set before any message can be sent to it: every receive is posted
      // before the ranks start sending.
      if (sends_.dma_injection) entry.mailbox->set_receiver(simgrid::s4u::Actor::self());
    }
    auto comm = entry.mailbox
                    ->get_init()
                    ->set_dst_data(reinterpret_cast<void**>(data), capacity * sizeof(std::uint64_t))
                    ->set_copy_data_callback(copy_callback());
    start(slot, std::move(comm), channel);
  }

  Completion wait_any() override {
    if (busy_.empty() && deferred_.empty()) {
      throw std::logic_error("routing core blocked with no message outstanding");
    }
    const TimedCode timing(sends_.timed_code);
    for (;;) {
      inject_deferred();
      const double timeout = deferred_.empty() ? -1.0 : kFifoPollSeconds;
      const auto index = simgrid::s4u::Activity::wait_any_for(waiting_, timeout);
      simulation::note_wake_up();
      if (index < 0 && deferred_.empty()) throw std::logic_error("a simulated message failed");
      if (index < 0) continue;  // still full: look again
      const auto slot = busy_[static_cast<std::size_t>(index)];
      forget(static_cast<std::size_t>(index));
      return retire(slot);
    }
  }

  std::optional<Completion> test_any() override {
    inject_deferred();
    if (busy_.empty()) return std::nullopt;
    const TimedCode timing(sends_.timed_code);
    // A wait that times out at once, not test_any(): SimGrid 3.32 forgets a
    // completed activity only when a wait registered on it, so every message
    // a test completed stayed in its actor's list to the end of the run.
    const auto index = simgrid::s4u::Activity::wait_any_for(waiting_, 0.0);
    if (index < 0) return std::nullopt;
    const auto slot = busy_[static_cast<std::size_t>(index)];
    forget(static_cast<std::size_t>(index));
    return retire(slot);
  }

  Completion wait(std::size_t slot) override {
    const TimedCode timing(sends_.timed_code);
    slots_[slot].comm->wait();
    simulation::note_wake_up();
    forget(static_cast<std::size_t>(std::lower_bound(busy_.begin(), busy_.end(), slot) - busy_.begin()));
    return retire(slot);
  }

  // A "done" is never held back (it follows the sender's last data, and
  // the receiver takes it like any message).
  void send_done(int rank, int channel) override {
    const TimedCode timing(sends_.timed_code);
    auto* destination = mailbox(rank, channel);
    done_.push_back(put(destination, &empty_payload_, 0, sends_.bytes(0, channel)));
    if (sends_.fifo_messages > 0) ++fifo_use()[destination];
    done_.back()->start();
  }

  // No message can reach the receives still posted: they are cancelled.
  void finish() override {
    const TimedCode timing(sends_.timed_code);
    simgrid::s4u::Comm::wait_all(done_);
    done_.clear();
    for (const auto slot : busy_) {
      if (slots_[slot].channel >= 0) slots_[slot].comm->cancel();
      retire(slot, false);
    }
    busy_.clear();
    waiting_.clear();
  }

 private:
  struct Slot {
    simgrid::s4u::CommPtr comm;
    int channel = -1;  // -1: a send
    // Where the slot's sends go, or its receives come from, found again only
    // when that place (rank and channel) changes.
    simgrid::s4u::Mailbox* mailbox = nullptr;
    int destination = -1;
    int channel_sent = -1;
  };

  simgrid::s4u::Mailbox* mailbox(int rank, int channel) {
    const auto key = channel_key(rank, channel);
    auto [entry, added] = mailboxes_.try_emplace(key, nullptr);
    if (added) {
      entry->second = simgrid::s4u::Mailbox::by_name("gups/" + std::to_string(rank) + "/" + std::to_string(channel));
    }
    return entry->second;
  }

  simgrid::s4u::CommPtr put(simgrid::s4u::Mailbox* destination, const std::uint64_t* data, std::size_t count,
                            std::uint64_t simulated_bytes) const {
    const auto size = count * sizeof(std::uint64_t);
    void* payload = const_cast<std::uint64_t*>(data);
    if (sends_.dma_injection && size > 0) {
      payload = std::malloc(size);
      if (payload == nullptr) throw std::bad_alloc();
      std::memcpy(payload, data, size);
    }
    return destination->put_init()
        ->set_payload_size(static_cast<double>(simulated_bytes))
        ->set_src_data(payload, size)
        ->set_copy_data_callback(copy_callback());
  }

  using CopyCallback = void (*)(simgrid::kernel::activity::CommImpl*, void*, std::size_t);
  CopyCallback copy_callback() const {
    return sends_.dma_injection ? &copy_and_free : &simgrid::s4u::Comm::copy_buffer_callback;
  }

  void start(std::size_t slot, simgrid::s4u::CommPtr comm, int channel) {
    comm->start();
    const auto at = std::lower_bound(busy_.begin(), busy_.end(), slot);
    waiting_.insert(waiting_.begin() + (at - busy_.begin()), comm);
    busy_.insert(at, slot);
    slots_[slot].comm = std::move(comm);
    slots_[slot].channel = channel;
  }

  void forget(std::size_t position) {
    busy_.erase(busy_.begin() + static_cast<std::ptrdiff_t>(position));
    waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(position));
  }

  // Messages injected towards each (rank, channel) that no receive has taken
  // yet: the reception FIFOs of the whole simulated machine, which every
  // simulated rank of this process reads and writes.
  static std::unordered_map<const simgrid::s4u::Mailbox*, unsigned>& fifo_use() {
    static std::unordered_map<const simgrid::s4u::Mailbox*, unsigned> use;
    return use;
  }

  void inject(std::size_t slot, simgrid::s4u::CommPtr comm) {
    if (sends_.fifo_messages > 0) ++fifo_use()[slots_[slot].mailbox];
    start(slot, std::move(comm), -1);
  }

  // Sends held back by a full FIFO start, oldest first, where there is room.
  void inject_deferred() {
    for (auto it = deferred_.begin(); it != deferred_.end();) {
      if (fifo_use()[slots_[it->slot].mailbox] >= sends_.fifo_messages) {
        ++it;
        continue;
      }
      inject(it->slot, std::move(it->comm));
      it = deferred_.erase(it);
    }
  }

  // `taken`: a receive that took a message (not one cancelled at the end).
  Completion retire(std::size_t slot, bool taken = true) {
    auto& entry = slots_[slot];
    Completion completion{slot, 0, entry.comm->get_finish_time()};
    if (entry.channel >= 0) completion.count = entry.comm->get_dst_data_size() / sizeof(std::uint64_t);
    if (entry.channel >= 0 && taken && sends_.fifo_messages > 0) --fifo_use()[entry.mailbox];
    entry.comm = nullptr;
    entry.channel = -1;
    return completion;
  }

  int rank_;
  const SimulatedSends sends_;
  std::vector<Slot> slots_;
  // Slots with a message under way, in slot order: of messages already
  // complete, wait_any() reports the first, as MPI_Waitany does.
  std::vector<std::size_t> busy_;
  std::vector<simgrid::s4u::ActivityPtr> waiting_;  // the comms of busy_, in the same order
  std::vector<simgrid::s4u::CommPtr> done_;
  struct DeferredSend {
    std::size_t slot;
    simgrid::s4u::CommPtr comm;  // made, not started
  };
  std::vector<DeferredSend> deferred_;
  static constexpr double kFifoPollSeconds = 1e-7;
  std::unordered_map<std::uint64_t, simgrid::s4u::Mailbox*> mailboxes_;
  std::uint64_t empty_payload_ = 0;  // a "done" carries no update, but s4u needs a source
};

}  // namespace

std::unique_ptr<MessageSlots> simulation::s4u_message_slots(int rank, std::size_t slots, SimulatedMessages simulated,
                                                          bool timed) {
  // At the levels that time messages themselves, no message is a SimGrid communication.
  if (timed) {
    if (auto slots_timed = timed_message_slots(rank, slots, simulated)) return slots_timed;
  }
  return std::make_unique<S4uMessageSlots>(rank, slots, std::move(simulated));
}

}  // namespace gups
