// Apex-Map's two-sided MPI implementation, as its authors describe it: no
// aggregation (a request and a reply for every remote block, so that the
// localities measured are the ones asked for), several requests
// outstanding, replies processed as they come, and a bounded number of
// requests served per turn so that a process swamped with requests still
// makes progress on its own.
//
// Every request a process can complete sits in one array (the posted
// receive for requests, the B reply receives, the finish protocol's six,
// the SMSG sends): a turn between two accesses tests them all, and a
// process with nothing else to do waits on them (on its sends only when it
// needs one). It never spins, so a simulated process that waits costs one
// event, not one per poll.
#include <algorithm>
#include <array>
#include <deque>
#include <limits>

#include "kernel/apex_map/probe.hpp"

namespace gups::apex_map {
namespace {

constexpr int kRequestTag = 1;
constexpr int kDoneTag = 2;     // to process 0: this process has all its blocks
constexpr int kReleaseTag = 3;  // from process 0: every process has them
// A reply's tag names the receive buffer waiting for it: replies from one
// owner may then come in any order.
constexpr int kReplyTagBase = 4;
// The offset of the request a process sends itself at the end, to complete
// its posted receive for requests.
constexpr std::uint64_t kNoBlock = std::numeric_limits<std::uint64_t>::max();

class TwoSided final : public Accessor {
 public:
  TwoSided(MPI_Comm comm, const Parameters& p, std::vector<std::uint64_t>& memory, AccessCosts& costs)
      : comm_(comm), p_(p), memory_(memory), costs_(costs), buffers_(p.receive_buffers * p.block_words),
        first_reply_(1), first_finish_(first_reply_ + p.receive_buffers), first_send_(first_finish_ + kFinishSlots),
        pending_(first_send_ + p.send_handles, MPI_REQUEST_NULL), statuses_(pending_.size()), done_(pending_.size()),
        request_words_(p.send_handles) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &ranks_);
    share_ = share_words(p, static_cast<std::uint64_t>(ranks_));
    for (unsigned b = p.receive_buffers; b-- > 0;) free_buffers_.push_back(b);
    for (unsigned s = p.send_handles; s-- > 0;) free_sends_.push_back(s);
    post_incoming();
  }

  ~TwoSided() override {
    const std::array<std::uint64_t, 2> stop{kNoBlock, 0};
    MPI_Send(stop.data(), 2, MPI_UINT64_T, rank_, kRequestTag, comm_);
    MPI_Wait(&pending_[kIncoming], MPI_STATUS_IGNORE);
  }

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
        while (free_buffers_.empty() || free_sends_.empty()) turn(Turn::wait);
        request(owner, offset_in_owner(start, share_));
      }
      turn(Turn::look);
    }
    while (free_buffers_.size() < p_.receive_buffers) turn(Turn::wait);
    wait_for_finish();
    while (free_sends_.size() < p_.send_handles) turn(Turn::wait_for_sends);
    costs_.pay();
    return totals_;
  }

 private:
  static constexpr std::size_t kIncoming = 0;

  struct Ask {
    int source;
    std::uint64_t offset;
    std::uint64_t buffer;
  };

  void post_incoming() {
    MPI_Irecv(incoming_.data(), 2, MPI_UINT64_T, MPI_ANY_SOURCE, kRequestTag, comm_, &pending_[kIncoming]);
  }

  void request(int owner, std::uint64_t offset) {
    const unsigned buffer = take(free_buffers_);
    const unsigned send = take(free_sends_);
    MPI_Irecv(&buffers_[buffer * p_.block_words], static_cast<int>(p_.block_words), MPI_UINT64_T, owner,
              kReplyTagBase + static_cast<int>(buffer), comm_, &pending_[first_reply_ + buffer]);
    request_words_[send] = {offset, buffer};
    costs_.sent();
    costs_.pay();
    MPI_Isend(request_words_[send].data(), 2, MPI_UINT64_T, owner, kRequestTag, comm_, &pending_[first_send_ + send]);
    ++totals_.remote;
  }

  // One turn: every completion handled, then at most NSER requests served.
  // Between two accesses it looks; a process that cannot go on waits for
  // the first completion. It waits for its sends only when it needs one:
  // SMPI registers a waiting process with every request it waits on and
  // unregisters it from each when one completes, so a wait costs the
  // simulation the square of their number (every send handle in it made a
  // 512-process surface several times slower).
  enum class Turn { look, wait, wait_for_sends };
  void turn(Turn how) {
    if (how == Turn::look) {
      costs_.pay_before_look();
    } else {
      costs_.pay();
    }
    int count = 0;
    const bool sends = how == Turn::look || how == Turn::wait_for_sends || free_sends_.empty();
    const int size = static_cast<int>(sends ? pending_.size() : first_send_);
    if (how == Turn::look) {
      MPI_Testsome(size, pending_.data(), &count, done_.data(), statuses_.data());
    } else {
      MPI_Waitsome(size, pending_.data(), &count, done_.data(), statuses_.data());
    }
    costs_.polled();
    for (int i = 0; i < std::max(count, 0); ++i) {
      handle(static_cast<std::size_t>(done_[static_cast<std::size_t>(i)]), statuses_[static_cast<std::size_t>(i)]);
    }
    serve_backlog();
  }

  void handle(std::size_t slot, const MPI_Status& status) {
    if (slot == kIncoming) {
      costs_.taken();
      // The source from the receive's status: SMPI 3.32 leaves a probe's
      // status unset for some messages (smpi_request.cpp, MPI_REQ_PREPARED).
      backlog_.push_back({status.MPI_SOURCE, incoming_[0], incoming_[1]});
      post_incoming();
    } else if (slot < first_finish_) {
      const auto buffer = static_cast<unsigned>(slot - first_reply_);
      costs_.taken();
      costs_.block_read(p_.block_words);
      totals_.sum += block_sum(&buffers_[buffer * p_.block_words], p_.block_words);
      free_buffers_.push_back(buffer);
    } else if (slot == first_finish_ + kChildDone || slot == first_finish_ + kChildDone + 1) {
      ++children_done_;
    } else if (slot == first_finish_ + kReleased) {
      released_ = true;
    } else if (slot >= first_send_) {
      free_sends_.push_back(static_cast<unsigned>(slot - first_send_));
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
      MPI_Isend(&memory_[ask.offset], static_cast<int>(p_.block_words), MPI_UINT64_T, ask.source,
                kReplyTagBase + static_cast<int>(ask.buffer), comm_, &pending_[first_send_ + send]);
      // Another request may be in already: take it now, as a polling server would.
      if (served + 1 < p_.serve_per_turn && backlog_.empty()) take_incoming_now();
    }
  }

  void take_incoming_now() {
    int arrived = 0;
    MPI_Status status;
    MPI_Test(&pending_[kIncoming], &arrived, &status);
    if (arrived) handle(kIncoming, status);
  }

  // Finished with its own blocks, a process serves the others until every
  // process is finished with theirs: then no request is left anywhere. A
  // barrier over a binary tree of processes, served while waiting: each
  // tells its parent once it and its children are done, and the release
  // comes back down (not MPI_Ibarrier: SMPI 3.32's starts the root's releases
  // with its receives, smpi_nbc_impl.cpp, so a process could stop serving
  // before a late one had its blocks; not a gather at process 0 either: its
  // one receive at a time made 512 processes' finish take 350 us).
  void wait_for_finish() {
    children_done_ = 0;
    released_ = rank_ == 0;
    int children = 0;
    for (int child = 2 * rank_ + 1; child <= 2 * rank_ + 2 && child < ranks_; ++child, ++children) {
      MPI_Irecv(&finish_words_[kChildDone + children], 1, MPI_UINT64_T, child, kDoneTag, comm_,
                &pending_[first_finish_ + kChildDone + children]);
    }
    while (children_done_ < children) turn(Turn::wait);
    if (rank_ != 0) {
      const int parent = (rank_ - 1) / 2;
      MPI_Irecv(&finish_words_[kReleased], 1, MPI_UINT64_T, parent, kReleaseTag, comm_,
                &pending_[first_finish_ + kReleased]);
      MPI_Isend(&finish_words_[kDoneSent], 1, MPI_UINT64_T, parent, kDoneTag, comm_,
                &pending_[first_finish_ + kDoneSent]);
      while (!released_ || pending_[first_finish_ + kDoneSent] != MPI_REQUEST_NULL) turn(Turn::wait);
    }
    for (int c = 0; c < children; ++c) {
      MPI_Isend(&finish_words_[kReleaseSent + c], 1, MPI_UINT64_T, 2 * rank_ + 1 + c, kReleaseTag, comm_,
                &pending_[first_finish_ + kReleaseSent + c]);
    }
    while (pending_[first_finish_ + kReleaseSent] != MPI_REQUEST_NULL ||
           pending_[first_finish_ + kReleaseSent + 1] != MPI_REQUEST_NULL) {
      turn(Turn::wait);
    }
  }

  static unsigned take(std::vector<unsigned>& free) {
    const unsigned slot = free.back();
    free.pop_back();
    return slot;
  }

  MPI_Comm comm_;
  const Parameters& p_;
  const std::vector<std::uint64_t>& memory_;
  AccessCosts& costs_;
  int rank_ = 0;
  int ranks_ = 1;
  std::uint64_t share_ = 0;
  std::vector<std::uint64_t> buffers_;
  // Slots of pending_: the posted receive for requests, then the replies', the finish protocol's, the sends'.
  // The finish protocol's, from first_finish_: two children's done, done sent up, release, two releases sent down.
  static constexpr std::size_t kChildDone = 0, kDoneSent = 2, kReleased = 3, kReleaseSent = 4, kFinishSlots = 6;
  std::size_t first_reply_, first_finish_, first_send_;
  std::vector<MPI_Request> pending_;
  std::vector<MPI_Status> statuses_;
  std::vector<int> done_;
  std::array<std::uint64_t, 2> incoming_{};
  std::vector<std::array<std::uint64_t, 2>> request_words_;  // a request's words live until its send completes
  std::vector<unsigned> free_buffers_;
  std::vector<unsigned> free_sends_;
  std::deque<Ask> backlog_;
  Totals totals_;
  int children_done_ = 0;
  bool released_ = false;
  std::array<std::uint64_t, kFinishSlots> finish_words_{};
};

}  // namespace

std::unique_ptr<Accessor> make_two_sided(MPI_Comm comm, const Parameters& parameters,
                                         std::vector<std::uint64_t>& memory, AccessCosts& costs) {
  return std::make_unique<TwoSided>(comm, parameters, memory, costs);
}

}  // namespace gups::apex_map
