// Message slots at the levels that time messages themselves (every level
// but flow): a message is not a SimGrid communication. The level says when a
// message that starts now is in (MessageTiming::arrival); the message is
// matched with its receive here, its payload copied into the receive's buffer
// at once (the buffer is the receiver's only when the receive completes, and
// a rendezvous sender keeps its bucket untouched until then), and each side
// learns the time its slot completes. SimGrid stays the engine: its actors
// are the cores, its clock the time, its hosts charge the CPU costs; a core
// that has nothing to do until a completion sleeps until the first
// completion it knows of (alarm_clock.hpp: suspended, as no SimGrid activity
// of its own is under way), and another core that gives it an earlier one
// brings its wake-up forward. One wait per idle spell, whatever the number of
// busy slots, and none per message.
//
// The semantics are the s4u slots' (s4u_message_slots.cpp): without DMA a
// transfer starts when a send meets a receive, and both complete when it ends;
// with DMA it starts when sent, the send completes when it ends, and a
// receive posted later takes the message where it arrived. A bounded reception
// FIFO holds at most so many messages of a (rank, channel) that no receive has
// taken yet; a send to a full one waits at the sender, which looks again
// whenever it would wait and every 100 ns while it waits.
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "kernel/mpi/message_slots.hpp"
#include "sim/smpi/alarm_clock.hpp"
#include "sim/smpi/simulated_network.hpp"
#include "sim/smpi/simulated_sends.hpp"
#include "sim/smpi/timed_code.hpp"
#include "sim/smpi/timed_message_slots.hpp"

namespace gups {
namespace {

constexpr std::size_t kDoneSlot = std::numeric_limits<std::size_t>::max();
constexpr double kFifoPollSeconds = 1e-7;
constexpr double kNever = std::numeric_limits<double>::infinity();
// A level sums a message's time hop by hop from its start, the least end is
// one sum: the two may differ by a few units in the last place of the time,
// far less than this share of it.
constexpr double kRounding = 1e-12;

double now() { return simgrid::s4u::Engine::get_clock(); }

class TimedMessageSlots;

struct Message {
  const std::uint64_t* data = nullptr;  // the sender's bucket, or `copy`
  std::vector<std::uint64_t> copy;      // DMA: the payload as the DMA read it
  std::size_t count = 0;
  double bytes = 0;
  int sender = 0;
  std::size_t sender_slot = kDoneSlot;  // kDoneSlot: a "done"
  double arrival = -1;                  // DMA: in at the receiver's node from then on
};

struct PostedReceive {
  std::size_t slot;
  std::uint64_t* data;
  std::size_t capacity;
};

// A (rank, channel): messages no receive has met yet, and receives no
// message has met yet (one of the two is empty), both in order.
struct Channel {
  std::deque<Message> unmatched;
  std::deque<PostedReceive> posted;
  unsigned fifo_use = 0;  // messages injected towards it that no receive has taken yet
  bool listed = false;    // in its receiving rank's receive_channels_
  // The least time a message takes to reach it, where only other nodes
  // send to it (set by its receiving rank when it lists it): whatever meets
  // a receive, a "done" at least, crosses the network. 0 otherwise.
  double least_arrival = 0;
};

// What every simulated rank of this process shares: the level's timing, the
// channels and each rank's slots.
class TimedNetwork {
 public:
  static TimedNetwork& get() {
    static TimedNetwork network;
    return network;
  }

  Channel& channel(int rank, int channel) { return channels_[channel_key(rank, channel)]; }

  void enrol(int rank, TimedMessageSlots* slots) {
    if (static_cast<std::size_t>(rank) >= ranks_.size()) ranks_.resize(static_cast<std::size_t>(rank) + 1, nullptr);
    ranks_[static_cast<std::size_t>(rank)] = slots;
  }

  // Messages in a rank's channels that no receive has taken, now and at
  // most; counted from the first, which may come before the rank has slots.
  struct Waiting {
    std::uint64_t now = 0;
    std::uint64_t most = 0;
  };
  void note_waiting(int rank, bool arrived) {
    const auto r = static_cast<std::size_t>(rank);
    if (r >= waiting_.size()) waiting_.resize(r + 1);
    auto& w = waiting_[r];
    if (!arrived) {
      --w.now;
      return;
    }
    w.most = std::max(w.most, ++w.now);
  }
  Waiting waiting(int rank) const {
    const auto r = static_cast<std::size_t>(rank);
    return r < waiting_.size() ? waiting_[r] : Waiting{};
  }

  TimedMessageSlots& slots_of(int rank) const {
    auto* slots = static_cast<std::size_t>(rank) < ranks_.size() ? ranks_[static_cast<std::size_t>(rank)] : nullptr;
    if (slots == nullptr) throw std::logic_error("a message to rank " + std::to_string(rank) + ", which has no slots");
    return *slots;
  }

  // When a transfer of `bytes` from rank to rank that starts now ends: the
  // level's time between their nodes; ranks of one node meet in its memory
  // (the platform's loopback, 1e15 B/s and no latency).
  double transfer_end(int from, int to, double bytes) const {
    const auto a = node_of(from), b = node_of(to);
    const double start = now();
    if (a == b) return start;
    const double end = timing_->arrival(a, b, bytes, start);
    // Early looks count on the bound: a level that broke it would change results without a word.
    if (end < (start + timing_->least_transfer(bytes)) * (1 - kRounding)) {
      throw std::logic_error("the network level's least transfer time is not a bound: " + std::to_string(end - start) +
                             " s for " + std::to_string(bytes) + " bytes");
    }
    return end;
  }

  // A time no transfer of `bytes` from rank to rank takes less than: none
  // within a node.
  double least_transfer(int from, int to, double bytes) const {
    return node_of(from) == node_of(to) ? 0 : least_network_transfer(bytes);
  }
  // The same between two nodes.
  double least_network_transfer(double bytes) const { return timing_->least_transfer(bytes); }

 private:
  TimedNetwork() : timing_(installed_message_timing()) {
    if (!timing_) throw std::logic_error("timed message slots at a level without a timing");
    // The hostfile gives each node's host as many ranks as it has cores, in
    // node order (topology::hostfile).
    ranks_per_node_ = static_cast<unsigned>(simgrid::s4u::this_actor::get_host()->get_core_count());
  }

  std::uint64_t node_of(int rank) const { return static_cast<std::uint64_t>(rank) / ranks_per_node_; }

  std::shared_ptr<MessageTiming> timing_;
  unsigned ranks_per_node_ = 1;
  std::unordered_map<std::uint64_t, Channel> channels_;
  std::vector<TimedMessageSlots*> ranks_;
  std::vector<Waiting> waiting_;
};

class TimedMessageSlots final : public MessageSlots {
 public:
  TimedMessageSlots(int rank, std::size_t slots, SimulatedMessages simulated)
      : rank_(rank),
        run_ahead_(simulated.run_ahead),
        early_looks_(simulated.run_ahead && simulated.early_looks),
        sends_(std::move(simulated)),
        network_(TimedNetwork::get()),
        receiving_(slots, false),
        completion_unknown_(slots, false),
        started_(slots, 0),
        least_transfer_(slots, 0),
        channel_of_(slots, nullptr),
        destination_of_(slots, kNoDestination) {
    network_.enrol(rank_, this);
  }

  ~TimedMessageSlots() override { network_.enrol(rank_, nullptr); }

  std::uint64_t send(std::size_t slot, const std::uint64_t* data, std::size_t count, int rank,
                     int channel) override {
    const TimedCode timing(sends_.timed_code);
    ++outstanding_;
    mark_started(slot);
    // A slot mostly sends to one place: its channel is looked up again only
    // when the place changes.
    Channel*& out = channel_of_[slot];
    const auto destination = channel_key(rank, channel);
    if (out == nullptr || destination_of_[slot] != destination) {
      out = &network_.channel(rank, channel);
      destination_of_[slot] = destination;
    }
    const auto bytes = sends_.bytes(count, channel);
    least_transfer_[slot] = network_.least_transfer(rank_, rank, static_cast<double>(bytes));
    Message message{data, {}, count, static_cast<double>(bytes), rank_, slot};
    when_started([this, message = std::move(message), rank, out]() mutable {
      if (sends_.fifo_messages > 0 && out->fifo_use >= sends_.fifo_messages) {
        if (sends_.dma_injection && message.count > 0) {  // the DMA reads it when sent
          message.copy.assign(message.data, message.data + message.count);
        }
        deferred_.push_back({std::move(message), rank, out});
      } else {
        inject(std::move(message), rank, *out);
      }
    });
    return bytes;
  }

  bool runs_ahead() const override { return run_ahead_; }
  void start_at(double time) override { next_start_ = time; }

  void post(std::size_t slot, std::uint64_t* data, std::size_t capacity, int channel) override {
    const TimedCode timing(sends_.timed_code);
    ++outstanding_;
    mark_started(slot);
    receiving_[slot] = true;
    // Looked up again only when the slot's channel changes (the all-to-all
    // probe receives on a channel per step).
    Channel*& cached = channel_of_[slot];
    const auto source = channel_key(rank_, channel);
    if (cached == nullptr || destination_of_[slot] != source) {
      cached = &network_.channel(rank_, channel);
      destination_of_[slot] = source;
      if (!cached->listed) {
        cached->listed = true;
        receive_channels_.push_back(cached);
        if (sends_.only_from_other_nodes(channel)) {
          cached->least_arrival = network_.least_network_transfer(static_cast<double>(sends_.bytes(0, channel)));
        }
      }
    }
    least_transfer_[slot] = cached->least_arrival;
    when_started([this, &in = *cached, receive = PostedReceive{slot, data, capacity}] {
      if (in.unmatched.empty()) {
        in.posted.push_back(receive);
        return;
      }
      Message message = std::move(in.unmatched.front());
      in.unmatched.pop_front();
      network_.note_waiting(rank_, false);
      deliver(message, receive);
    });
  }

  Completion wait_any() override {
    const TimedCode timing(sends_.timed_code);
    for (;;) {
      if (now() < since_) {
        if (const auto known = foreseen(); known && *known) return retire(**known);
        // Nothing is seen before the core's last start: one sleep until then,
        // or until the first completion after it (held back FIFO sends look
        // again from then).
        sleep_until(deferred_.empty() ? std::max(since_, earliest()) : since_, since_);
        continue;
      }
      inject_deferred();
      if (const auto done = first_completed()) return retire(*done);
      if (pending_.empty() && deferred_.empty() && outstanding_ == 0) {
        throw std::logic_error("routing core blocked with no message outstanding");
      }
      double until = earliest();
      if (!deferred_.empty()) until = std::min(until, now() + kFifoPollSeconds);
      sleep_until(until);
    }
  }

  std::optional<Completion> test_any() override {
    const TimedCode timing(sends_.timed_code);
    if (now() < since_) {
      if (const auto known = foreseen()) return *known ? std::optional{retire(**known)} : std::nullopt;
    }
    catch_up();
    inject_deferred();
    if (const auto done = first_completed()) return retire(*done);
    return std::nullopt;
  }

  Completion wait(std::size_t slot) override {
    const TimedCode timing(sends_.timed_code);
    catch_up();
    for (;;) {
      const auto at = std::find_if(pending_.begin(), pending_.end(), [&](const Pending& p) { return p.slot == slot; });
      if (at != pending_.end() && at->time <= now()) return retire(static_cast<std::size_t>(at - pending_.begin()));
      sleep_until(at == pending_.end() ? kNever : at->time);
    }
  }

  // A "done" is never held back (it follows the sender's last data, and the
  // receiver takes it like any message).
  void send_done(int rank, int channel) override {
    const TimedCode timing(sends_.timed_code);
    ++dones_unfinished_;
    auto& out = network_.channel(rank, channel);
    Message message{nullptr, {}, 0, static_cast<double>(sends_.bytes(0, channel)), rank_, kDoneSlot};
    when_started([this, message = std::move(message), rank, &out]() mutable {
      if (sends_.fifo_messages > 0) ++out.fifo_use;
      start(std::move(message), rank, out);
    });
  }

  // Waits for the "done"s to complete; no message can reach the receives
  // still posted: they are dropped.
  void finish() override {
    const TimedCode timing(sends_.timed_code);
    catch_up();
    while (dones_unfinished_ > 0 || dones_end_ > now()) {
      sleep_until(dones_unfinished_ > 0 ? kNever : dones_end_);
    }
    for (auto* channel : receive_channels_) channel->posted.clear();
    pending_.clear();
    outstanding_ = 0;
    completion_unknown_.assign(completion_unknown_.size(), false);
    unknown_ = 0;
  }

  // A transfer of this rank's ends at `time`: its slot completes then (a
  // "done", which no slot reports, only counts for finish()). A rank that
  // sleeps until later is woken at `time`.
  void complete_at(std::size_t slot, std::size_t count, double time, double arrived) {
    if (slot == kDoneSlot) {
      --dones_unfinished_;
      dones_end_ = std::max(dones_end_, time);
    } else {
      pending_.push_back({slot, count, time, arrived});
      completion_unknown_[slot] = false;
      --unknown_;
    }
    alarm_.bring_forward(time);
  }

 private:
  struct Pending {
    std::size_t slot;
    std::size_t count;
    double time;     // the slot completes then
    double arrived;  // the message was in then
  };
  struct DeferredSend {
    Message message;
    int rank;
    Channel* out;
  };

  // What a start changes that other cores see happens at the start's time:
  // now, or, when the core runs ahead, as an event the clock runs then.
  template <typename Start>
  void when_started(Start&& start) {
    const double at = next_start_;
    if (!run_ahead_ || at <= now()) {
      start();
      return;
    }
    since_ = std::max(since_, at);
    at_time(at, rank_, std::function<void()>(std::forward<Start>(start)));
  }

  // A look sees the messages as they are at the core's last start: it waits
  // for that time first (the starts due by then have run).
  void catch_up() {
    if (now() < since_) sleep_until(since_, since_);
  }

  void inject(Message message, int rank, Channel& out) {
    if (sends_.fifo_messages > 0) ++out.fifo_use;
    if (sends_.dma_injection && message.copy.empty() && message.count > 0) {
      message.copy.assign(message.data, message.data + message.count);
    }
    start(std::move(message), rank, out);
  }

  // With DMA the transfer starts now and the send completes when it ends;
  // without, both wait for a receive.
  void start(Message message, int rank, Channel& out) {
    if (!message.copy.empty()) message.data = message.copy.data();
    if (sends_.dma_injection) {
      message.arrival = network_.transfer_end(rank_, rank, message.bytes);
      complete_at(message.sender_slot, 0, message.arrival, message.arrival);
    }
    if (out.posted.empty()) {
      out.unmatched.push_back(std::move(message));
      network_.note_waiting(rank, true);
      return;
    }
    const PostedReceive receive = out.posted.front();
    out.posted.pop_front();
    network_.slots_of(rank).deliver(message, receive);
  }

 public:
  std::uint64_t most_waiting() const override { return network_.waiting(rank_).most; }

  // A message meets a receive of this rank, now.
  void deliver(const Message& message, const PostedReceive& receive) {
    if (message.count > receive.capacity) {
      throw std::logic_error("a message of " + std::to_string(message.count) + " updates for a receive of " +
                             std::to_string(receive.capacity));
    }
    // Early looks count on the receive's least transfer time: a message that could beat it would change
    // results without a word.
    if (least_transfer_[receive.slot] > 0 &&
        least_transfer_[receive.slot] > network_.least_transfer(message.sender, rank_, message.bytes) * (1 + kRounding)) {
      throw std::logic_error("rank " + std::to_string(rank_) + " took a message from rank " +
                             std::to_string(message.sender) +
                             " on a channel said to take messages from other nodes only, or a smaller one");
    }
    if (message.count > 0) std::memcpy(receive.data, message.data, message.count * sizeof(std::uint64_t));
    if (message.arrival >= 0) {  // injected by DMA: in when it arrived, or now
      complete_at(receive.slot, message.count, std::max(message.arrival, now()), message.arrival);
      return;
    }
    const double end = network_.transfer_end(message.sender, rank_, message.bytes);
    complete_at(receive.slot, message.count, end, end);
    network_.slots_of(message.sender).complete_at(message.sender_slot, 0, end, end);
  }

 private:
  // Sends held back by a full FIFO start, oldest first, where there is room.
  void inject_deferred() {
    for (auto it = deferred_.begin(); it != deferred_.end();) {
      if (it->out->fifo_use >= sends_.fifo_messages) {
        ++it;
        continue;
      }
      inject(std::move(it->message), it->rank, *it->out);
      it = deferred_.erase(it);
    }
  }

  // Of the slots complete by `t` (now), the first in slot order (as MPI_Waitany).
  std::optional<std::size_t> first_completed(double t = now()) const {
    std::optional<std::size_t> first;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      if (pending_[i].time <= t && (!first || pending_[i].slot < pending_[*first].slot)) first = i;
    }
    return first;
  }

  void mark_started(std::size_t slot) {
    started_[slot] = std::max(next_start_, now());
    completion_unknown_[slot] = true;
    ++unknown_;
  }

  // A look at the core's last start, made while the clock is still before
  // it: what it will report, where nothing the clock runs until then can
  // change that (early_looks). It reports the first slot, in slot order,
  // complete by then. Of the slots started, a known completion's time is
  // fixed; one not yet known (a send no receive has met, a receive no
  // message has met, a start not yet run) may still come by then, unless
  // even its least end is later: a transfer to another node starts no
  // earlier than the send nor than now, and takes at least the level's
  // least transfer time. So the answer is known when no slot before the
  // first known one complete by then could still complete by then. A
  // receive on a channel only other nodes send to is bounded alike: its
  // message's transfer begins no earlier than the receive's start nor than
  // now, except with DMA, where a message may be in before the receive is
  // posted (the receive then completes when its start runs).
  // Empty: not known; holding empty: nothing.
  std::optional<std::optional<std::size_t>> foreseen() const {
    // With reception FIFOs a receive retired early would free its place
    // early for senders (and held-back sends are injected at the look).
    if (!early_looks_ || sends_.fifo_messages > 0) return std::nullopt;
    const auto first = first_completed(since_);
    if (unknown_ > 0) {
      const std::size_t before = first ? pending_[*first].slot : completion_unknown_.size();
      const double clock = now();
      for (std::size_t slot = 0; slot < before; ++slot) {
        if (!completion_unknown_[slot]) continue;
        if (least_end(slot, clock) <= since_ * (1 + kRounding)) return std::nullopt;
      }
    }
    return first;
  }

  // The earliest a slot whose completion is not yet known can complete, seen at `clock`.
  double least_end(std::size_t slot, double clock) const {
    if (receiving_[slot] && sends_.dma_injection && started_[slot] > clock) return started_[slot];
    return std::max(started_[slot], clock) + least_transfer_[slot];
  }

  double earliest() const {
    double t = kNever;
    for (const auto& p : pending_) t = std::min(t, p.time);
    return t;
  }

  Completion retire(std::size_t index) {
    const Pending done = pending_[index];
    pending_[index] = pending_.back();
    pending_.pop_back();
    --outstanding_;
    const bool receive = receiving_[done.slot];
    if (receive) {
      if (sends_.fifo_messages > 0) --channel_of_[done.slot]->fifo_use;
      receiving_[done.slot] = false;
    }
    return {done.slot, receive ? done.count : 0, done.arrived};
  }

  // Blocks until `time` (kNever: until woken), or until a completion before
  // it: the clock wakes the core at `time`, or at the earlier time a core
  // that gave it an earlier completion booked (complete_at). A SimGrid
  // timeout of its own would start an action in the CPU model's sharing
  // system for every wait, which on a large machine costs more than the
  // messages it saves.
  void sleep_until(double time, double not_before = 0) { alarm_.sleep_until(time, not_before); }

  int rank_;
  const bool run_ahead_;
  const bool early_looks_;
  double next_start_ = 0;  // the next start's time (start_at)
  double since_ = 0;       // the latest time a start was handed to the clock for
  const SimulatedSends sends_;
  TimedNetwork& network_;
  std::vector<Pending> pending_;  // completions not yet reported, in no order
  std::size_t outstanding_ = 0;   // sends and receives started, not yet reported
  std::vector<bool> receiving_;           // by slot: a receive is posted in it
  // By slot: started, and its completion not yet known (once known it is
  // in pending_); unknown_ counts them.
  std::vector<bool> completion_unknown_;
  std::size_t unknown_ = 0;
  // By slot: when its send or post started, and the least time its
  // transfer takes from whenever it begins (for a receive: 0 unless only
  // other nodes send to its channel).
  std::vector<double> started_;
  std::vector<double> least_transfer_;
  std::vector<Channel*> receive_channels_;  // every channel this rank has posted receives for
  // By slot: where its sends go, or its receives come from (the channels'
  // map never moves an entry).
  std::vector<Channel*> channel_of_;
  static constexpr std::uint64_t kNoDestination = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::uint64_t> destination_of_;  // a slot's (rank, channel), as the channels' key
  std::vector<DeferredSend> deferred_;
  unsigned dones_unfinished_ = 0;
  double dones_end_ = 0;
  WakeUpCall alarm_;  // a core given an earlier completion wakes this one
};

}  // namespace

std::unique_ptr<MessageSlots> timed_message_slots(int rank, std::size_t slots, SimulatedMessages simulated) {
  if (!installed_message_timing()) return nullptr;
  WakeUpCall::suspend_sleepers();
  return std::make_unique<TimedMessageSlots>(rank, slots, std::move(simulated));
}

}  // namespace gups
