// The HPCC reference scheme (MPIRandomAccess): one bucket per destination
// process, the fullest bucket sent when the look-ahead budget is used up,
// one receive always posted, and "finished" messages to end.
//
// Unlike the reference, updates in the send buffer stay counted as pending
// until their send completes, so the budget bounds everything generated
// here and not yet handed to the network.
#include <algorithm>
#include <array>
#include <vector>

#include "kernel/core/destination_buckets.hpp"
#include "kernel/core/hpcc_stream.hpp"
#include "kernel/mpi/progress_report.hpp"
#include "kernel/mpi/update_algorithm.hpp"

namespace gups {
namespace {

constexpr int kUpdateTag = 1;
constexpr int kFinishedTag = 2;

// Who a rank's updates travel between: all ranks, each its own node (mode
// 1); or, where a node's cores share its table (modes 5 and 6), the cores
// of one index on every node, each sending to its counterpart on the
// owner's node. `rank` is the node's number then.
struct DirectPeers {
  MPI_Comm comm;
  int rank;
  int ranks;
  std::uint64_t stream_first;  // this rank's stretch of the stream
  std::uint64_t stream_count;
  std::uint64_t budget;
};

template <typename Table>
class DirectUpdater {
 public:
  DirectUpdater(const UpdateContext& context, Table& table, const DirectPeers& peers)
      : context_(context),
        peers_(peers),
        table_(table),
        budget_(static_cast<std::uint32_t>(peers.budget)),
        buckets_(static_cast<std::uint32_t>(peers.ranks), budget_),
        receive_buffer_(budget_) {
    send_buffer_.reserve(budget_);
    stats_.bucket_capacity = budget_;  // a message holds at most the budget
  }

  UpdateStats run() {
    if (peers_.ranks > 1) post_receive();
    generate_all();
    flush_buckets();
    announce_finished();
    drain_until_all_finished();
    return stats_;
  }

 private:
  std::uint64_t pending() const noexcept { return buckets_.pending() + send_buffer_.size(); }

  // Locals rather than members in the loop: table writes are uint64_t too,
  // and would otherwise force every counter back to memory.
  void generate_all() {
    const auto& config = context_.config;
    const auto& layout = context_.layout;
    const OwnerFinder owner_of = context_.owner_of;
    const auto rank = static_cast<std::uint64_t>(peers_.rank);
    std::uint64_t remaining = peers_.stream_count;
    std::uint64_t random = starts(peers_.stream_first);
    std::uint64_t applied = 0;
    std::uint64_t max_pending = 0;
    stats_.generated += remaining;
    ProgressReport progress(context_.rank == 0, config.progress_seconds, remaining, config.progress_path);
    const std::uint64_t total = remaining;
    auto& costs = context_.costs;
    GenerationWindow window(total);
    while (remaining > 0) {
      costs.pay();
      progress.note(total - remaining);
      window.note(total - remaining);
      poll_receives();
      if (pending() >= budget_) {
        send_fullest_when_free();
        continue;
      }
      // Between polls, generate as many as the budget allows, up to a batch:
      // first the batch's updates and owners, with the local words asked
      // for ahead, then the table writes and bucket inserts, so that the
      // batch's cache misses overlap as those of a plain serial loop do.
      const auto batch = static_cast<std::size_t>(
          std::min<std::uint64_t>({remaining, kDirectUpdatesPerPoll, budget_ - pending()}));
      remaining -= batch;
      costs.generated(batch);
      costs.owner_found(batch);
      for (std::size_t i = 0; i < batch; ++i) {
        random = next_random(random);
        const std::uint64_t index = layout.index_of(random);
        batch_random_[i] = random;
        batch_owner_[i] = owner_of(index);
        if (batch_owner_[i] == rank) table_.prefetch(index);
      }
      for (std::size_t i = 0; i < batch; ++i) {
        if (batch_owner_[i] == rank) {
          table_.apply(layout.index_of(batch_random_[i]), batch_random_[i]);
          ++applied;
          costs.applied();
        } else {
          buckets_.insert(static_cast<std::uint32_t>(batch_owner_[i]), batch_random_[i]);
          costs.routed();
        }
      }
      max_pending = std::max(max_pending, pending());
    }
    stats_.window_rate = window.rate();
    stats_.applied += applied;
    stats_.max_pending = std::max(stats_.max_pending, max_pending);
  }

  void flush_buckets() {
    while (pending() > 0) {
      context_.costs.pay();
      poll_receives();
      send_fullest_when_free();
    }
  }

  // Nothing else can move while the budget is used up and the last send is
  // in flight: block until it completes or a message arrives, rather than
  // poll (a simulated rank then spends no polls and no simulated time).
  void send_fullest_when_free() {
    if (send_request_ != MPI_REQUEST_NULL) {
      int done = 0;
      MPI_Test(&send_request_, &done, MPI_STATUS_IGNORE);
      if (!done) {
        wait_for_send_or_message();
        return;
      }
      send_buffer_.clear();
    }
    if (buckets_.pending() == 0) return;
    const auto destination = buckets_.take_fullest(send_buffer_);
    context_.costs.message_sent();
    context_.costs.pay();
    MPI_Isend(send_buffer_.data(), static_cast<int>(send_buffer_.size()), MPI_UINT64_T,
              static_cast<int>(destination), kUpdateTag, peers_.comm, &send_request_);
    stats_.updates_sent += send_buffer_.size();
    ++stats_.messages_sent;
  }

  void wait_for_send_or_message() {
    const bool receiving = finished_peers_ < peers_.ranks - 1;
    MPI_Request requests[2] = {send_request_, receiving ? receive_request_ : MPI_REQUEST_NULL};
    int index = MPI_UNDEFINED;
    MPI_Status status;
    MPI_Waitany(2, requests, &index, &status);
    send_request_ = requests[0];
    if (receiving) receive_request_ = requests[1];
    if (index == 0) send_buffer_.clear();
    if (index == 1) handle_message(status);
  }

  void post_receive() {
    MPI_Irecv(receive_buffer_.data(), static_cast<int>(receive_buffer_.size()), MPI_UINT64_T,
              MPI_ANY_SOURCE, MPI_ANY_TAG, peers_.comm, &receive_request_);
  }

  // MPI keeps messages from one sender in order, so a sender's "finished"
  // arrives after all its updates: once every peer has finished, nothing is
  // left to receive and no receive stays posted.
  void handle_message(const MPI_Status& status) {
    if (status.MPI_TAG == kUpdateTag) {
      int count = 0;
      MPI_Get_count(&status, MPI_UINT64_T, &count);
      // Each word asked for a few updates ahead of its write (see generate_all).
      const auto& layout = context_.layout;
      const auto received = static_cast<std::size_t>(count);
      for (std::size_t i = 0; i < std::min(received, kPrefetchAhead); ++i) {
        table_.prefetch(layout.index_of(receive_buffer_[i]));
      }
      for (std::size_t i = 0; i < received; ++i) {
        if (i + kPrefetchAhead < received) table_.prefetch(layout.index_of(receive_buffer_[i + kPrefetchAhead]));
        table_.apply(layout.index_of(receive_buffer_[i]), receive_buffer_[i]);
      }
      stats_.applied += static_cast<std::uint64_t>(count);
      stats_.updates_received += static_cast<std::uint64_t>(count);
      context_.costs.message_received(static_cast<std::uint64_t>(count));
      context_.costs.applied(static_cast<std::uint64_t>(count));
      ++stats_.messages_received;
    } else {
      ++finished_peers_;
    }
    if (finished_peers_ < peers_.ranks - 1) post_receive();
  }

  void poll_receives() {
    while (finished_peers_ < peers_.ranks - 1) {
      int arrived = 0;
      MPI_Status status;
      MPI_Test(&receive_request_, &arrived, &status);
      if (!arrived) return;
      handle_message(status);
    }
  }

  void announce_finished() {
    if (send_request_ != MPI_REQUEST_NULL) MPI_Wait(&send_request_, MPI_STATUS_IGNORE);
    finish_requests_.assign(static_cast<std::size_t>(peers_.ranks), MPI_REQUEST_NULL);
    for (int peer = 0; peer < peers_.ranks; ++peer) {
      if (peer == peers_.rank) continue;
      MPI_Isend(nullptr, 0, MPI_UINT64_T, peer, kFinishedTag, peers_.comm,
                &finish_requests_[static_cast<std::size_t>(peer)]);
    }
  }

  void drain_until_all_finished() {
    while (finished_peers_ < peers_.ranks - 1) {
      context_.costs.pay();
      MPI_Status status;
      MPI_Wait(&receive_request_, &status);
      handle_message(status);
    }
    MPI_Waitall(static_cast<int>(finish_requests_.size()), finish_requests_.data(),
                MPI_STATUSES_IGNORE);
  }

  const UpdateContext& context_;
  const DirectPeers peers_;
  Table& table_;
  std::uint32_t budget_;
  DestinationBuckets buckets_;
  std::vector<std::uint64_t> send_buffer_;
  std::array<std::uint64_t, kDirectUpdatesPerPoll> batch_random_{};
  std::array<std::uint64_t, kDirectUpdatesPerPoll> batch_owner_{};
  std::vector<std::uint64_t> receive_buffer_;
  MPI_Request send_request_ = MPI_REQUEST_NULL;
  MPI_Request receive_request_ = MPI_REQUEST_NULL;
  std::vector<MPI_Request> finish_requests_;
  int finished_peers_ = 0;
  UpdateStats stats_;
};

// Mode 5 or 6: core c of node n generates the c-th of k stretches of the
// node's share of the stream and keeps to its own limit.
UpdateStats run_shared_table(const UpdateContext& context, SharedNodeTable& shared) {
  const auto& layout = context.layout;
  const unsigned cores = context.setup.cores_per_node;
  const auto node = static_cast<std::uint64_t>(context.rank) / cores;
  const auto core = static_cast<unsigned>(context.rank) % cores;
  MPI_Comm same_core;
  MPI_Comm_split(context.comm, static_cast<int>(core), static_cast<int>(node), &same_core);
  const std::uint64_t node_first = context.config.stream_offset + context.config.updates_per_word * layout.global_start(node);
  const std::uint64_t node_count = context.config.updates_per_word * layout.local_words(node);
  const std::uint64_t first = node_count * core / cores, last = node_count * (core + 1) / cores;
  const DirectPeers peers{same_core, static_cast<int>(node), static_cast<int>(context.setup.nodes),
                          node_first + first, last - first, context.setup.limits.per_core};
  auto stats = DirectUpdater<ProtectedTable>(context, shared.node_table(), peers).run();
  MPI_Comm_free(&same_core);
  return stats;
}

}  // namespace

UpdateStats run_direct(const UpdateContext& context, LocalTable& table) {
  if (context.shared_table) return run_shared_table(context, *context.shared_table);
  const auto rank = static_cast<std::uint64_t>(context.rank);
  const auto& config = context.config;
  const DirectPeers peers{context.comm,
                          context.rank,
                          context.ranks,
                          config.stream_offset + config.updates_per_word * context.layout.global_start(rank),
                          config.updates_per_word * context.layout.local_words(rank),
                          config.lookahead};
  return DirectUpdater<LocalTable>(context, table, peers).run();
}

}  // namespace gups
