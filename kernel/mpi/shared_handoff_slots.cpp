// Message slots whose hand-offs between the cores of a node go through the
// node's shared slots (NodeHandoffs) instead of MPI: a copy into memory the
// cores share instead of a send call, with the same meaning (a send
// completes once the receiving core has taken it, and a channel's messages
// meet its receives in posting order). Every other channel goes through the
// wrapped slots. An idle core spins over both, as MPI's shared-memory
// transport does.
#include <algorithm>
#include <deque>
#include <stdexcept>

#include "kernel/mpi/idle_wait.hpp"
#include "kernel/mpi/message_slots.hpp"
#include "kernel/mpi/node_handoffs.hpp"

namespace gups {
namespace {

class SharedHandoffSlots final : public MessageSlots {
 public:
  SharedHandoffSlots(std::unique_ptr<MessageSlots> network, const NodeHandoffs& handoffs, int local_channel,
                     unsigned cores_per_node)
      : network_(std::move(network)), local_channel_(local_channel), cores_(cores_per_node) {
    for (const auto sender : handoffs.senders()) incoming_.push_back(handoffs.incoming(sender));
    outgoing_.resize(cores_per_node);
    for (const auto receiver : handoffs.receivers()) outgoing_[receiver] = handoffs.outgoing(receiver);
  }

  std::uint64_t send(std::size_t slot, const std::uint64_t* data, std::size_t count, int rank,
                     int channel) override {
    if (channel != local_channel_) {
      ++network_busy_;
      return network_->send(slot, data, count, rank, channel);
    }
    auto& handoff = outgoing(rank);
    // A bucket is sent only once its last send completed, which left the slot empty.
    handoff.publish(data, count);
    sends_.push_back({slot, handoff});
    return count * sizeof(std::uint64_t);
  }

  void post(std::size_t slot, std::uint64_t* data, std::size_t capacity, int channel) override {
    if (channel != local_channel_) {
      ++network_busy_;
      network_->post(slot, data, capacity, channel);
      return;
    }
    receives_.push_back({slot, data, capacity});
  }

  Completion wait_any() override {
    IdleWait idle;
    for (;;) {
      if (auto completion = next_ready()) return *completion;
      if (sends_.empty() && receives_.empty() && dones_.empty()) {
        if (network_busy_ == 0) throw std::logic_error("routing core blocked with no message outstanding");
        return from_network(network_->wait_any());
      }
      if (network_busy_ > 0) {
        if (auto completion = network_->test_any()) return from_network(*completion);
      }
      idle.relax();
    }
  }

  std::optional<Completion> test_any() override {
    if (auto completion = next_ready()) return completion;
    if (network_busy_ > 0) {
      if (auto completion = network_->test_any()) return from_network(*completion);
    }
    return std::nullopt;
  }

  Completion wait(std::size_t slot) override {
    const auto local = std::find_if(receives_.begin(), receives_.end(), [&](const auto& r) { return r.slot == slot; });
    const bool network_slot = local == receives_.end() && !ready_contains(slot);
    if (network_slot) return from_network(network_->wait(slot));
    IdleWait idle;
    for (;;) {
      poll();
      const auto at = std::find_if(ready_.begin(), ready_.end(), [&](const auto& c) { return c.slot == slot; });
      if (at != ready_.end()) {
        const Completion completion = *at;
        ready_.erase(at);
        return completion;
      }
      idle.relax();
    }
  }

  void send_done(int rank, int channel) override {
    if (channel != local_channel_) {
      network_->send_done(rank, channel);
      return;
    }
    dones_.push_back(outgoing(rank));
    poll();
  }

  // Receives still posted can meet no message any more: they are dropped.
  void finish() override {
    IdleWait idle;
    while (!dones_.empty()) {
      poll();
      idle.relax();
    }
    receives_.clear();
    network_->finish();
  }

 private:
  struct LocalSend {
    std::size_t slot;
    HandoffSlot handoff;
  };
  struct LocalReceive {
    std::size_t slot;
    std::uint64_t* data;
    std::size_t capacity;
  };

  HandoffSlot& outgoing(int rank) {
    auto& handoff = outgoing_[static_cast<unsigned>(rank) % cores_];
    if (!handoff) throw std::logic_error("a hand-off to a core this one has no slot for");
    return *handoff;
  }

  Completion from_network(Completion completion) noexcept {
    --network_busy_;
    return completion;
  }

  bool ready_contains(std::size_t slot) const {
    return std::any_of(ready_.begin(), ready_.end(), [&](const auto& c) { return c.slot == slot; });
  }

  std::optional<Completion> next_ready() {
    if (ready_.empty()) poll();
    if (ready_.empty()) return std::nullopt;
    const Completion completion = ready_.front();
    ready_.pop_front();
    return completion;
  }

  // What the other cores did: sends taken, "done"s that can go, messages in.
  void poll() {
    for (auto send = sends_.begin(); send != sends_.end();) {
      if (send->handoff.empty()) {
        ready_.push_back({send->slot, 0, -1});
        send = sends_.erase(send);
      } else {
        ++send;
      }
    }
    // A "done" follows its sender's data: it waits for the slot to empty.
    while (!dones_.empty() && dones_.front().empty()) {
      dones_.front().publish(nullptr, 0);
      dones_.pop_front();
    }
    // The oldest receive posted takes the next message, senders in turn.
    for (std::size_t tried = 0; tried < incoming_.size() && !receives_.empty(); ++tried) {
      next_sender_ = (next_sender_ + 1) % incoming_.size();
      const auto& receive = receives_.front();
      if (const auto count = incoming_[next_sender_].take(receive.data, receive.capacity)) {
        ready_.push_back({receive.slot, *count, -1});
        receives_.pop_front();
        tried = 0;
      }
    }
  }

  std::unique_ptr<MessageSlots> network_;
  const int local_channel_;
  const unsigned cores_;
  std::vector<HandoffSlot> incoming_;  // one per core handing updates to this one
  std::vector<std::optional<HandoffSlot>> outgoing_;  // by receiving core
  std::size_t next_sender_ = 0;
  std::size_t network_busy_ = 0;  // network sends and receives not yet completed
  std::vector<LocalSend> sends_;
  std::deque<LocalReceive> receives_;  // in posting order
  std::deque<HandoffSlot> dones_;      // waiting for their slot to empty
  std::deque<Completion> ready_;       // completed, not yet reported
};

}  // namespace

std::unique_ptr<MessageSlots> make_shared_handoff_slots(std::unique_ptr<MessageSlots> network,
                                                        const NodeHandoffs& handoffs, int local_channel,
                                                        unsigned cores_per_node) {
  return std::make_unique<SharedHandoffSlots>(std::move(network), handoffs, local_channel, cores_per_node);
}

}  // namespace gups
