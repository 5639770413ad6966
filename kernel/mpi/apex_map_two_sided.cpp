// Apex-Map's two-sided MPI implementation, as its authors describe it: no
// aggregation (a request and a reply for every remote block, so that the
// localities measured are the ones asked for), several requests
// outstanding, replies processed as they come, and a bounded number of
// requests served per turn so that a process swamped with requests still
// makes progress on its own.
#include <algorithm>
#include <array>

#include "apex_map_probe.hpp"

namespace gups::apex_map {
namespace {

constexpr int kRequestTag = 1;
constexpr int kDoneTag = 2;     // to process 0: this process has all its blocks
constexpr int kReleaseTag = 3;  // from process 0: every process has them
// A reply's tag names the receive buffer waiting for it: replies from one
// owner may then come in any order.
constexpr int kReplyTagBase = 4;

class TwoSided final : public Accessor {
 public:
  TwoSided(MPI_Comm comm, const Parameters& p, std::vector<std::uint64_t>& memory)
      : comm_(comm), p_(p), memory_(memory), buffers_(p.receive_buffers * p.block_words),
        receives_(p.receive_buffers, MPI_REQUEST_NULL), sends_(p.send_handles, MPI_REQUEST_NULL),
        request_words_(p.send_handles), done_(std::max(p.receive_buffers, p.send_handles)) {
    MPI_Comm_rank(comm, &rank_);
    int ranks = 0;
    MPI_Comm_size(comm, &ranks);
    share_ = share_words(p, static_cast<std::uint64_t>(ranks));
    for (unsigned b = p.receive_buffers; b-- > 0;) free_buffers_.push_back(b);
    for (unsigned s = p.send_handles; s-- > 0;) free_sends_.push_back(s);
  }

  Totals run(const std::vector<std::uint64_t>& starts) override {
    totals_ = {};
    for (const auto start : starts) {
      const auto owner = static_cast<int>(owner_of(start, share_));
      if (owner == rank_) {
        totals_.sum += block_sum(&memory_[offset_in_owner(start, share_)], p_.block_words);
      } else {
        while (free_buffers_.empty() || free_sends_.empty()) progress();
        request(owner, offset_in_owner(start, share_));
      }
      progress();
    }
    while (free_buffers_.size() < p_.receive_buffers) progress();
    wait_for_finish();
    MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE);
    free_sends_.clear();
    for (unsigned s = p_.send_handles; s-- > 0;) free_sends_.push_back(s);
    return totals_;
  }

 private:
  void request(int owner, std::uint64_t offset) {
    const unsigned buffer = take(free_buffers_);
    const unsigned send = take(free_sends_);
    MPI_Irecv(&buffers_[buffer * p_.block_words], static_cast<int>(p_.block_words), MPI_UINT64_T, owner,
              kReplyTagBase + static_cast<int>(buffer), comm_, &receives_[buffer]);
    request_words_[send] = {offset, buffer};
    MPI_Isend(request_words_[send].data(), 2, MPI_UINT64_T, owner, kRequestTag, comm_, &sends_[send]);
    ++totals_.remote;
  }

  // Finished with its own blocks, a process serves the others until every
  // process is finished with theirs: then no request is left anywhere. A
  // barrier through process 0, served while waiting (not MPI_Ibarrier: SMPI
  // 3.32's starts the root's releases with its receives, smpi_nbc_impl.cpp,
  // so a process could stop serving before a late one had its blocks).
  void wait_for_finish() {
    int ranks = 0;
    MPI_Comm_size(comm_, &ranks);
    MPI_Request released = MPI_REQUEST_NULL;
    std::uint64_t token = 0;
    if (rank_ != 0) {
      MPI_Irecv(&release_word_, 1, MPI_UINT64_T, 0, kReleaseTag, comm_, &released);
      MPI_Send(&token, 1, MPI_UINT64_T, 0, kDoneTag, comm_);
    }
    for (int finished = 0, arrived = 1; !finished;) {
      serve();
      reclaim_sends();
      if (rank_ != 0) {
        MPI_Test(&released, &finished, MPI_STATUS_IGNORE);
        continue;
      }
      int waiting = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, kDoneTag, comm_, &waiting, MPI_STATUS_IGNORE);
      if (waiting) {
        MPI_Recv(&token, 1, MPI_UINT64_T, MPI_ANY_SOURCE, kDoneTag, comm_, MPI_STATUS_IGNORE);
        ++arrived;
      }
      if (arrived == ranks) {
        for (int other = 1; other < ranks; ++other) {
          MPI_Send(&token, 1, MPI_UINT64_T, other, kReleaseTag, comm_);
        }
        finished = 1;
      }
    }
  }

  void progress() {
    serve();
    take_replies();
    reclaim_sends();
  }

  // At most NSER requests, each while a send handle is free for its reply.
  void serve() {
    for (unsigned served = 0; served < p_.serve_per_turn; ++served) {
      if (free_sends_.empty()) reclaim_sends();
      if (free_sends_.empty()) return;
      int waiting = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, kRequestTag, comm_, &waiting, MPI_STATUS_IGNORE);
      if (!waiting) return;
      // The source from the receive, not the probe: SMPI 3.32 leaves a probe's
      // status unset for some messages (smpi_request.cpp, MPI_REQ_PREPARED).
      std::uint64_t asked[2];
      MPI_Status status;
      MPI_Recv(asked, 2, MPI_UINT64_T, MPI_ANY_SOURCE, kRequestTag, comm_, &status);
      const unsigned send = take(free_sends_);
      MPI_Isend(&memory_[asked[0]], static_cast<int>(p_.block_words), MPI_UINT64_T, status.MPI_SOURCE,
                kReplyTagBase + static_cast<int>(asked[1]), comm_, &sends_[send]);
    }
  }

  void take_replies() {
    int count = 0;
    MPI_Testsome(static_cast<int>(receives_.size()), receives_.data(), &count, done_.data(), MPI_STATUSES_IGNORE);
    for (int i = 0; i < std::max(count, 0); ++i) {
      const auto buffer = static_cast<unsigned>(done_[static_cast<std::size_t>(i)]);
      totals_.sum += block_sum(&buffers_[buffer * p_.block_words], p_.block_words);
      free_buffers_.push_back(buffer);
    }
  }

  void reclaim_sends() {
    int count = 0;
    MPI_Testsome(static_cast<int>(sends_.size()), sends_.data(), &count, done_.data(), MPI_STATUSES_IGNORE);
    for (int i = 0; i < std::max(count, 0); ++i) free_sends_.push_back(static_cast<unsigned>(done_[static_cast<std::size_t>(i)]));
  }

  static unsigned take(std::vector<unsigned>& free) {
    const unsigned slot = free.back();
    free.pop_back();
    return slot;
  }

  MPI_Comm comm_;
  const Parameters& p_;
  const std::vector<std::uint64_t>& memory_;
  int rank_ = 0;
  std::uint64_t share_ = 0;
  std::vector<std::uint64_t> buffers_;
  std::vector<MPI_Request> receives_;
  std::vector<MPI_Request> sends_;
  std::vector<std::array<std::uint64_t, 2>> request_words_;  // a request's words live until its send completes
  std::vector<int> done_;
  std::vector<unsigned> free_buffers_;
  std::vector<unsigned> free_sends_;
  Totals totals_;
  std::uint64_t release_word_ = 0;
};

}  // namespace

std::unique_ptr<Accessor> make_two_sided(MPI_Comm comm, const Parameters& parameters,
                                         std::vector<std::uint64_t>& memory) {
  return std::make_unique<TwoSided>(comm, parameters, memory);
}

}  // namespace gups::apex_map
