// The HPCC reference scheme (MPIRandomAccess): one bucket per destination
// process, the fullest bucket sent when the look-ahead budget is used up,
// one receive always posted, and "finished" messages to end.
//
// On real MPI the budget counts what the reference counts: updates in the
// buckets. A bucket leaves it when it is handed to MPI_Isend, as in
// MPIRandomAccess, and the next send waits for that one to complete; so a
// rank generates while its last bucket is on its way. A simulated rank
// still counts the send buffer until its send completes, so that the
// budget bounds everything it generated and has not handed to the network
// (simulated sends complete only when received).
#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "kernel/core/deferred_writes.hpp"
#include "kernel/core/destination_buckets.hpp"
#include "kernel/core/hpcc_stream.hpp"
#include "kernel/mpi/message_slots.hpp"
#include "kernel/mpi/progress_report.hpp"
#include "kernel/mpi/simulation.hpp"
#include "kernel/mpi/update_algorithm.hpp"

namespace gups {
namespace {

constexpr std::size_t kSendSlot = 0;
constexpr std::size_t kReceiveSlot = 1;
constexpr int kUpdateChannel = 0;  // "finished" is its empty message

static_assert(DeferredWrites::kMostAddsBetweenWrites >= kDirectUpdatesPerPoll);

// Who a rank's updates travel between: all ranks, each its own node (mode
// 1); or, where a node's cores share its table (modes 5 and 6), the cores
// of one index on every node, each sending to its counterpart on the
// owner's node. `rank` is the node's number then, and peer p is the
// communicator's rank p * stride + offset.
struct DirectPeers {
  int rank;
  int ranks;
  int stride;
  int offset;
  std::uint64_t stream_first;  // this rank's stretch of the stream
  std::uint64_t stream_count;
  std::uint64_t budget;

  int comm_rank(std::uint64_t peer) const { return static_cast<int>(peer) * stride + offset; }
};

// The reference's sends are standard (eager) ones: a bucket leaves the
// budget once MPI has copied it, as in HPCC; simulated sends are
// rendezvous whichever the layer.
std::unique_ptr<MessageSlots> direct_message_slots(const UpdateContext& context) {
  return make_message_slots(context.config.message_layer, context.comm, context.rank, 2,
                            {context.config.charges_path.empty(), {}, {}}, RealSends::standard);
}

template <typename Table>
class DirectUpdater {
 public:
  DirectUpdater(const UpdateContext& context, Table& table, const DirectPeers& peers)
      : context_(context),
        peers_(peers),
        table_(table),
        budget_(static_cast<std::uint32_t>(peers.budget)),
        buckets_(static_cast<std::uint32_t>(peers.ranks), budget_),
        receive_buffer_(budget_),
        messages_(direct_message_slots(context)) {
    send_buffer_.reserve(budget_);
    stats_.bucket_capacity = budget_;  // a message holds at most the budget
  }

  UpdateStats run() {
    if (receiving()) post_receive();
    generate_all();
    flush_buckets();
    announce_finished();
    drain_until_all_finished();
    return stats_;
  }

 private:
  std::uint64_t pending() const noexcept {
    return buckets_.pending() + (counts_send_in_flight_ ? send_buffer_.size() : 0);
  }
  bool receiving() const noexcept { return finished_peers_ < peers_.ranks - 1; }

  // Locals rather than members in the loop: table writes are uint64_t too,
  // and would otherwise force every counter back to memory.
  void generate_all() {
    const auto& config = context_.config;
    const TableLayout layout = context_.layout;
    const OwnerFinder owner_of = context_.owner_of;
    const auto table = table_.view();
    const auto rank = static_cast<std::uint64_t>(peers_.rank);
    std::uint64_t remaining = peers_.stream_count;
    std::uint64_t random = starts(peers_.stream_first);
    const std::uint64_t own_first_index = table_.global_start();
    DeferredWrites own;
    std::uint64_t max_pending = 0;
    stats_.generated += remaining;
    ProgressReport progress(context_.rank == 0, config.progress_seconds, remaining, config.progress_path);
    const std::uint64_t total = remaining;
    auto& costs = context_.costs;
    GenerationWindow window(total);
    while (remaining > 0) {
      costs.pay();
      progress.note(total - remaining);
      window.note(total - remaining, [&costs] { return std::max(run_clock(), costs.busy_until()); });
      poll();
      if (pending() >= budget_) {
        send_fullest_when_free();
        continue;
      }
      // Between polls, generate as many as the budget allows, up to a batch,
      // and sort it without a branch into this rank's updates (their words
      // asked for now, written later: DeferredWrites) and the others'.
      const auto batch = static_cast<std::size_t>(
          std::min<std::uint64_t>({remaining, kDirectUpdatesPerPoll, budget_ - pending()}));
      remaining -= batch;
      costs.generated(batch);
      costs.owner_found(batch);
      std::size_t remote = 0;
      for (std::size_t i = 0; i < batch; ++i) {
        random = next_random(random);
        const std::uint64_t index = layout.index_of(random);
        const std::uint64_t owner = owner_of(index);
        const bool here = owner == rank;
        table.prefetch(here ? index : own_first_index);  // a word in cache when not here
        own.add(random, here);
        batch_remote_[remote] = random;
        batch_owner_[remote] = owner;
        remote += !here;
        if (here) {  // compiled to nothing on real MPI: the models' marks in stream order
          costs.applied();
        } else {
          costs.routed();
        }
      }
      own.write_lagging(table, layout);
      for (std::size_t i = 0; i < remote; ++i) {
        buckets_.insert(static_cast<std::uint32_t>(batch_owner_[i]), batch_remote_[i]);
      }
      max_pending = std::max(max_pending, pending());
    }
    own.write_all(table, layout);
    stats_.window_rate = window.rate();
    stats_.applied += own.kept();
    stats_.max_pending = std::max(stats_.max_pending, max_pending);
  }

  void flush_buckets() {
    while (buckets_.pending() > 0) {
      context_.costs.pay();
      poll();
      send_fullest_when_free();
    }
  }

  // Nothing else can move while the budget is used up and the last send is
  // in flight: block until it completes or a message arrives, rather than
  // poll (a simulated rank then spends no polls and no simulated time).
  void send_fullest_when_free() {
    if (sending_) {
      complete(messages_->wait_any());
      return;
    }
    if (buckets_.pending() == 0) return;
    const auto destination = buckets_.take_fullest(send_buffer_);
    context_.costs.message_sent();
    context_.costs.pay();
    messages_->send(kSendSlot, send_buffer_.data(), send_buffer_.size(), peers_.comm_rank(destination),
                    kUpdateChannel);
    sending_ = true;
    stats_.updates_sent += send_buffer_.size();
    ++stats_.messages_sent;
  }

  void complete(const MessageSlots::Completion& completion) {
    if (completion.slot == kSendSlot) {
      sending_ = false;
      send_buffer_.clear();
    } else {
      handle_message(completion.count);
    }
  }

  void post_receive() {
    messages_->post(kReceiveSlot, receive_buffer_.data(), receive_buffer_.size(), kUpdateChannel);
  }

  // Messages from one sender stay in order, so a sender's "finished" (an
  // empty message) arrives after all its updates: once every peer has
  // finished, nothing is left to receive and no receive stays posted.
  void handle_message(std::size_t received) {
    if (received > 0) {
      // Each word asked for a few updates ahead of its write (see generate_all).
      const TableLayout layout = context_.layout;
      const auto table = table_.view();
      const std::uint64_t* updates = receive_buffer_.data();
      for (std::size_t i = 0; i < std::min(received, kPrefetchAhead); ++i) {
        table.prefetch(layout.index_of(updates[i]));
      }
      for (std::size_t i = 0; i < received; ++i) {
        if (i + kPrefetchAhead < received) table.prefetch(layout.index_of(updates[i + kPrefetchAhead]));
        table.apply(layout.index_of(updates[i]), updates[i]);
      }
      stats_.applied += received;
      stats_.updates_received += received;
      context_.costs.message_received(received);
      context_.costs.applied(received);
      ++stats_.messages_received;
    } else {
      ++finished_peers_;
    }
    if (receiving()) post_receive();
  }

  void poll() {
    if (!sending_ && !receiving()) return;
    while (const auto completion = messages_->test_any()) complete(*completion);
  }

  void announce_finished() {
    while (sending_) complete(messages_->wait_any());
    for (int peer = 0; peer < peers_.ranks; ++peer) {
      if (peer != peers_.rank) messages_->send_done(peers_.comm_rank(static_cast<std::uint64_t>(peer)), kUpdateChannel);
    }
  }

  void drain_until_all_finished() {
    while (receiving()) {
      context_.costs.pay();
      complete(messages_->wait(kReceiveSlot));
    }
    messages_->finish();
    stats_.max_waiting_messages = messages_->most_waiting();
  }

  const UpdateContext& context_;
  const DirectPeers peers_;
  Table& table_;
  std::uint32_t budget_;
  DestinationBuckets buckets_;
  std::vector<std::uint64_t> send_buffer_;
  std::array<std::uint64_t, kDirectUpdatesPerPoll> batch_remote_{};
  std::array<std::uint64_t, kDirectUpdatesPerPoll> batch_owner_{};
  std::vector<std::uint64_t> receive_buffer_;
  std::unique_ptr<MessageSlots> messages_;
  bool sending_ = false;
  const bool counts_send_in_flight_ = simulation::active();
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
  const std::uint64_t node_first = context.config.stream_offset + context.config.updates_per_word * layout.global_start(node);
  const std::uint64_t node_count = context.config.updates_per_word * layout.local_words(node);
  const std::uint64_t first = node_count * core / cores, last = node_count * (core + 1) / cores;
  const DirectPeers peers{static_cast<int>(node), static_cast<int>(context.setup.nodes), static_cast<int>(cores),
                          static_cast<int>(core), node_first + first, last - first, context.setup.limits.per_core};
  return DirectUpdater<ProtectedTable>(context, shared.node_table(), peers).run();
}

}  // namespace

UpdateStats run_direct(const UpdateContext& context, LocalTable& table) {
  if (context.shared_table) return run_shared_table(context, *context.shared_table);
  const auto rank = static_cast<std::uint64_t>(context.rank);
  const auto& config = context.config;
  const DirectPeers peers{context.rank,
                          context.ranks,
                          1,
                          0,
                          config.stream_offset + config.updates_per_word * context.layout.global_start(rank),
                          config.updates_per_word * context.layout.local_words(rank),
                          config.lookahead};
  return DirectUpdater<LocalTable>(context, table, peers).run();
}

}  // namespace gups
