// HPCC's optimised algorithm (RA_SANDIA_OPT2, after Plimpton, Brightwell,
// Vaughan, Underwood and Davis, Cluster 2006): every process generates a
// chunk of updates (its look-ahead), then all go through the same
// synchronous stages (kernel/core/hypercube_stages.hpp), each process
// handing its partner of the stage the updates it holds whose owners lie in
// the other half; after the last stage every update it holds is its own, and
// it applies them before generating the next chunk. Every process runs as
// many chunks as the process with the most updates, the last ones short or
// empty, so that all meet at every stage.
//
// A stage's updates go in messages of at most one chunk; a message of a
// full chunk says more follow, a shorter one (possibly empty) ends the
// stage. So a receive never needs more room than a chunk, however unevenly
// the updates fall (HPCC's code sizes its buffers instead, and stops when
// they overflow). Each stage, and each of the two processes that may hand
// updates to one at a stage, has its own channel: a partner one stage ahead
// cannot be taken for this stage's.
#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "kernel/core/hpcc_stream.hpp"
#include "kernel/core/hypercube_stages.hpp"
#include "kernel/mpi/message_slots.hpp"
#include "kernel/mpi/progress_report.hpp"
#include "kernel/mpi/update_algorithm.hpp"

namespace gups {
namespace {

constexpr std::size_t kStageSendSlot = 0;
constexpr std::size_t kFirstStageReceiveSlot = 1;  // then one per process handing updates at a stage (at most 2)

// The paired partner hands on channel 2s, the lower half's odd one out on 2s + 1.
int stage_channel(std::size_t stage, std::size_t sender) { return static_cast<int>(2 * stage + sender); }

class HypercubeUpdater {
 public:
  HypercubeUpdater(const UpdateContext& context, LocalTable& table)
      : context_(context),
        table_(table),
        stages_(hypercube_stages(context.rank, context.ranks)),
        chunk_(std::max<std::uint64_t>(1, context.setup.limits.per_core)),
        messages_(make_message_slots(context.config.message_layer, context.comm, context.rank,
                                     kFirstStageReceiveSlot + 2, {context.config.charges_path.empty(), {}, {}},
                                     RealSends::standard)) {
    for (auto& buffer : receive_buffers_) buffer.resize(chunk_);
    held_.reserve(2 * chunk_);
    stats_.bucket_capacity = chunk_;
  }

  UpdateStats run() {
    const auto& config = context_.config;
    const auto rank = static_cast<std::uint64_t>(context_.rank);
    const std::uint64_t count = config.updates_per_word * context_.layout.local_words(rank);
    // Owner 0 holds the most words (TableLayout gives the remainder to the first owners).
    const std::uint64_t most = config.updates_per_word * context_.layout.local_words(0);
    const std::uint64_t chunks = (most + chunk_ - 1) / chunk_;
    std::uint64_t random = starts(config.stream_offset + config.updates_per_word * context_.layout.global_start(rank));
    ProgressReport progress(context_.rank == 0, config.progress_seconds, count, config.progress_path);
    GenerationWindow window(count);
    std::uint64_t generated = 0;
    for (std::uint64_t c = 0; c < chunks; ++c) {
      progress.note(generated);
      window.note(generated, [this] { return std::max(run_clock(), context_.costs.busy_until()); });
      const std::uint64_t n = std::min(chunk_, count - generated);
      random = generate(random, n);
      generated += n;
      // HPCC's limit is on a process's own updates generated and not yet
      // applied: a chunk. What it holds for others at a stage may be more.
      stats_.max_pending = std::max(stats_.max_pending, n);
      for (std::size_t s = 0; s < stages_.size(); ++s) exchange(s);
      apply_held();
    }
    messages_->finish();
    stats_.generated = count;
    stats_.window_rate = window.rate();
    stats_.max_waiting_messages = messages_->most_waiting();
    return stats_;
  }

 private:
  std::uint64_t generate(std::uint64_t random, std::uint64_t n) {
    auto& costs = context_.costs;
    costs.generated(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      random = next_random(random);
      held_.push_back(random);
    }
    return random;
  }

  // The held updates whose owners lie across this stage's split go to the
  // partner; what the stage's senders hand this process joins the rest.
  // The owners' slices ascend, so an update's side is its index against the
  // first word of the upper half (as HPCC's code tests it): no owner is
  // found. Sorted without a branch, as direct sorts a batch.
  void exchange(std::size_t s) {
    const auto& stage = stages_[s];
    const TableLayout layout = context_.layout;
    const std::uint64_t upper_start = layout.global_start(static_cast<std::uint64_t>(stage.mid));
    const bool lower = stage.in_lower(context_.rank);
    const std::size_t n = held_.size();
    outgoing_.resize(n);
    std::uint64_t* held = held_.data();
    std::uint64_t* out = outgoing_.data();
    std::size_t kept = 0, leaving = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t update = held[i];
      const bool moves = (layout.index_of(update) >= upper_start) == lower;
      out[leaving] = update;
      held[kept] = update;
      leaving += moves;
      kept += !moves;
    }
    outgoing_.resize(leaving);
    held_.resize(kept);
    context_.costs.routed(n);
    for (std::size_t i = 0; i < stage.receive_from.size(); ++i) post(s, i);
    open_receives_ = stage.receive_from.size();
    const bool odd_one_out = lower && *stage.send_to == stage.mid && context_.rank - stage.lo != 0;
    send_channel_ = stage_channel(s, odd_one_out ? 1 : 0);
    send_to_ = *stage.send_to;
    sent_ = 0;
    send_piece();
    while (sending_ || open_receives_ > 0) complete(messages_->wait_any(), s);
  }

  void post(std::size_t stage, std::size_t sender) {
    context_.costs.pay();
    messages_->post(kFirstStageReceiveSlot + sender, receive_buffers_[sender].data(), chunk_, stage_channel(stage, sender));
  }

  // A full chunk says more follow; the last piece is shorter, and may be empty.
  void send_piece() {
    const std::size_t piece = std::min<std::size_t>(chunk_, outgoing_.size() - sent_);
    auto& costs = context_.costs;
    costs.message_sent();
    costs.pay();
    messages_->send(kStageSendSlot, outgoing_.data() + sent_, piece, send_to_, send_channel_);
    sending_ = true;
    last_piece_ = piece < chunk_;
    sent_ += piece;
    stats_.updates_sent += piece;
    ++stats_.messages_sent;
  }

  void complete(const MessageSlots::Completion& completion, std::size_t stage) {
    if (completion.slot == kStageSendSlot) {
      sending_ = false;
      if (!last_piece_) send_piece();
      return;
    }
    const std::size_t sender = completion.slot - kFirstStageReceiveSlot;
    const auto& buffer = receive_buffers_[sender];
    held_.insert(held_.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(completion.count));
    context_.costs.message_received(completion.count, completion.arrived);
    stats_.updates_received += completion.count;
    ++stats_.messages_received;
    if (completion.count == chunk_) {
      post(stage, sender);
    } else {
      --open_receives_;
    }
  }

  // Each word asked for a few updates ahead of its write.
  void apply_held() {
    const TableLayout layout = context_.layout;
    const auto table = table_.view();
    const std::size_t n = held_.size();
    for (std::size_t i = 0; i < std::min(n, kPrefetchAhead); ++i) table.prefetch(layout.index_of(held_[i]));
    for (std::size_t i = 0; i < n; ++i) {
      if (i + kPrefetchAhead < n) table.prefetch(layout.index_of(held_[i + kPrefetchAhead]));
      table.apply(layout.index_of(held_[i]), held_[i]);
    }
    context_.costs.applied(n);
    stats_.applied += n;
    held_.clear();
  }

  const UpdateContext& context_;
  LocalTable& table_;
  const std::vector<HypercubeStage> stages_;
  const std::uint64_t chunk_;
  std::unique_ptr<MessageSlots> messages_;
  std::vector<std::uint64_t> held_;
  std::vector<std::uint64_t> outgoing_;
  std::array<std::vector<std::uint64_t>, 2> receive_buffers_;
  std::size_t open_receives_ = 0;
  std::size_t sent_ = 0;
  int send_to_ = 0;
  int send_channel_ = 0;
  bool sending_ = false;
  bool last_piece_ = false;
  UpdateStats stats_;
};

}  // namespace

UpdateStats run_hypercube(const UpdateContext& context, LocalTable& table) {
  return HypercubeUpdater(context, table).run();
}

}  // namespace gups
