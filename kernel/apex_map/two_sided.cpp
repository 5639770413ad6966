// Apex-Map's two-sided MPI implementation, as its authors describe it: no
// aggregation (a request and a reply for every remote block, so that the
// localities measured are the ones asked for), several requests
// outstanding, replies processed as they come, and a bounded number of
// requests served per turn so that a process swamped with requests still
// makes progress on its own.
//
// Every message a process can complete sits in one set of message slots
// (the posted receive for requests, the B reply receives, the finish
// protocol's six, the SMSG sends), the algorithms' (message_slots.hpp): a
// turn between two accesses takes every completion there is, and a process
// with nothing else to do waits for one. It never spins, so a simulated
// process that waits costs one event, not one per poll; and in a simulation
// at a level that times messages itself, no message is a SimGrid
// communication.
#include <algorithm>
#include <array>
#include <deque>
#include <limits>

#include "kernel/apex_map/probe.hpp"
#include "kernel/mpi/message_slots.hpp"

namespace gups::apex_map {
namespace {

// Channels. A request names its source, since a receive from any process
// learns only the message. Replies need no address: any reply buffer takes
// any reply (a buffer is a credit for one outstanding request).
constexpr int kRequestChannel = 0;
constexpr int kReplyChannel = 1;
constexpr int kDoneChannel = 2;     // to the parent: this process and its children have all their blocks
constexpr int kReleaseChannel = 3;  // from the parent: every process has them

class TwoSided final : public Accessor {
 public:
  TwoSided(MPI_Comm comm, const Parameters& p, std::vector<std::uint64_t>& memory, AccessCosts& costs,
           const std::string& message_layer)
      : p_(p), memory_(memory), costs_(costs), buffers_(p.receive_buffers * p.block_words),
        first_reply_(1), first_finish_(first_reply_ + p.receive_buffers), first_send_(first_finish_ + kFinishSlots),
        request_words_(p.send_handles) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &ranks_);
    // Replies are standard sends on a real machine, as in the authors' code.
    messages_ = make_message_slots(message_layer, comm, rank_, first_send_ + p.send_handles,
                                   {!costs.charges(), {}, {}}, RealSends::standard);
    share_ = share_words(p, static_cast<std::uint64_t>(ranks_));
    free_buffers_ = p.receive_buffers;
    for (unsigned s = p.send_handles; s-- > 0;) free_sends_.push_back(s);
    post_incoming();
    for (unsigned b = 0; b < p.receive_buffers; ++b) post_reply(b);
  }

  ~TwoSided() override { messages_->finish(); }

  TwoSided(const TwoSided&) = delete;
  TwoSided& operator=(const TwoSided&) = delete;

  Totals run(const std::vector<std::uint64_t>& starts) override {
    totals_ = {};
    for (const auto start : starts) {
      const auto owner = static_cast<int>(owner_of(start, share_));
      if (owner == rank_) {
        costs_.block_read(p_.block_words);
        totals_.sum += block_sum(&memory_[offset_in_owner(start, share_)], p_.block_words);
      } else {
        while (free_buffers_ == 0 || free_sends_.empty()) turn(Turn::wait);
        request(owner, offset_in_owner(start, share_));
      }
      turn(Turn::look);
    }
    while (free_buffers_ < p_.receive_buffers) turn(Turn::wait);
    wait_for_finish();
    while (free_sends_.size() < p_.send_handles) turn(Turn::wait);
    costs_.pay();
    return totals_;
  }

 private:
  static constexpr std::size_t kIncoming = 0;

  struct Ask {
    int source;
    std::uint64_t offset;
  };

  void post_incoming() { messages_->post(kIncoming, incoming_.data(), incoming_.size(), kRequestChannel); }

  void post_reply(unsigned buffer) {
    messages_->post(first_reply_ + buffer, &buffers_[buffer * p_.block_words], p_.block_words, kReplyChannel);
  }

  void request(int owner, std::uint64_t offset) {
    --free_buffers_;
    const unsigned send = take(free_sends_);
    request_words_[send] = {static_cast<std::uint64_t>(rank_), offset};
    costs_.sent();
    costs_.pay();
    messages_->send(first_send_ + send, request_words_[send].data(), 2, owner, kRequestChannel);
    ++totals_.remote;
  }

  // One turn: every completion handled, then at most NSER requests served.
  // Between two accesses it looks; a process that cannot go on waits for
  // the first completion, then takes every other one there is.
  enum class Turn { look, wait };
  void turn(Turn how) {
    if (how == Turn::look) {
      costs_.pay_before_look();
    } else {
      costs_.pay();
      handle(messages_->wait_any());
    }
    while (const auto completion = messages_->test_any()) handle(*completion);
    costs_.polled();
    serve_backlog();
  }

  void handle(const MessageSlots::Completion& completion) {
    const auto slot = completion.slot;
    if (slot == kIncoming) {
      costs_.taken();
      backlog_.push_back({static_cast<int>(incoming_[0]), incoming_[1]});
      post_incoming();
    } else if (slot < first_finish_) {
      costs_.taken();
      costs_.block_read(p_.block_words);
      const auto buffer = static_cast<unsigned>(slot - first_reply_);
      totals_.sum += block_sum(&buffers_[buffer * p_.block_words], p_.block_words);
      ++free_buffers_;
      post_reply(buffer);
    } else if (slot == first_finish_ + kChildDone || slot == first_finish_ + kChildDone + 1) {
      ++children_done_;
    } else if (slot == first_finish_ + kReleased) {
      released_ = true;
    } else if (slot >= first_send_) {
      free_sends_.push_back(static_cast<unsigned>(slot - first_send_));
    } else {
      finish_sent_[slot - first_finish_] = false;
    }
  }

  // Requests taken but not yet answered, oldest first: at most NSER a turn,
  // each while a send handle is free for its reply. A request taken stays
  // here rather than blocking its owner, who has requests of its own waiting.
  void serve_backlog() {
    for (unsigned served = 0; served < p_.serve_per_turn && !backlog_.empty() && !free_sends_.empty(); ++served) {
      const auto ask = backlog_.front();
      backlog_.pop_front();
      const unsigned send = take(free_sends_);
      costs_.sent();
      costs_.pay();
      messages_->send(first_send_ + send, &memory_[ask.offset], p_.block_words, ask.source, kReplyChannel);
      // Another request may be in already: take it now, as a polling server would.
      if (served + 1 < p_.serve_per_turn && backlog_.empty()) take_incoming_now();
    }
  }

  void take_incoming_now() {
    while (backlog_.empty()) {
      const auto completion = messages_->test_any();
      if (!completion) return;
      handle(*completion);
    }
  }

  // Finished with its own blocks, a process serves the others until every
  // process is finished with theirs: then no request is left anywhere. A
  // barrier over a binary tree of processes, served while waiting: each
  // tells its parent once it and its children are done, and the release
  // comes back down (not MPI_Ibarrier: SMPI 3.32's starts the root's releases
  // with its receives, smpi_nbc_impl.cpp, so a process could stop serving
  // before a late one had its blocks; not a gather at process 0 either: its
  // one receive at a time makes the finish grow with the processes).
  void wait_for_finish() {
    children_done_ = 0;
    released_ = rank_ == 0;
    int children = 0;
    for (int child = 2 * rank_ + 1; child <= 2 * rank_ + 2 && child < ranks_; ++child, ++children) {
      messages_->post(first_finish_ + kChildDone + static_cast<std::size_t>(children),
                      &finish_words_[kChildDone + static_cast<std::size_t>(children)], 1, kDoneChannel);
    }
    while (children_done_ < children) turn(Turn::wait);
    if (rank_ != 0) {
      const int parent = (rank_ - 1) / 2;
      messages_->post(first_finish_ + kReleased, &finish_words_[kReleased], 1, kReleaseChannel);
      send_finish(kDoneSent, parent, kDoneChannel);
      while (!released_ || finish_sent_[kDoneSent]) turn(Turn::wait);
    }
    for (int c = 0; c < children; ++c) {
      send_finish(kReleaseSent + static_cast<std::size_t>(c), 2 * rank_ + 1 + c, kReleaseChannel);
    }
    while (finish_sent_[kReleaseSent] || finish_sent_[kReleaseSent + 1]) turn(Turn::wait);
  }

  void send_finish(std::size_t which, int rank, int channel) {
    finish_sent_[which] = true;
    messages_->send(first_finish_ + which, &finish_words_[which], 1, rank, channel);
  }

  static unsigned take(std::vector<unsigned>& free) {
    const unsigned slot = free.back();
    free.pop_back();
    return slot;
  }

  const Parameters& p_;
  const std::vector<std::uint64_t>& memory_;
  AccessCosts& costs_;
  int rank_ = 0;
  int ranks_ = 1;
  std::uint64_t share_ = 0;
  std::vector<std::uint64_t> buffers_;
  // Slots: the receive for requests, then the replies', the finish protocol's, the sends'.
  // The finish protocol's, from first_finish_: two children's done, done sent up, release, two releases sent down.
  static constexpr std::size_t kChildDone = 0, kDoneSent = 2, kReleased = 3, kReleaseSent = 4, kFinishSlots = 6;
  std::size_t first_reply_, first_finish_, first_send_;
  std::unique_ptr<MessageSlots> messages_;
  std::array<std::uint64_t, 2> incoming_{};
  std::vector<std::array<std::uint64_t, 2>> request_words_;  // a request's words live until its send completes
  unsigned free_buffers_ = 0;
  std::vector<unsigned> free_sends_;
  std::deque<Ask> backlog_;
  Totals totals_;
  int children_done_ = 0;
  bool released_ = false;
  std::array<std::uint64_t, kFinishSlots> finish_words_{};
  std::array<bool, kFinishSlots> finish_sent_{};  // a finish send in flight
};

}  // namespace

std::unique_ptr<Accessor> make_two_sided(MPI_Comm comm, const Parameters& parameters,
                                         std::vector<std::uint64_t>& memory, AccessCosts& costs,
                                         const std::string& message_layer) {
  return std::make_unique<TwoSided>(comm, parameters, memory, costs, message_layer);
}

}  // namespace gups::apex_map
