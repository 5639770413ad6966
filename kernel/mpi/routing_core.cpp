// Aggregation and software routing over a virtual torus, one rank per core.
// What a core does comes from the role plan: generate the node's stream,
// route along a group of dimensions (to the line neighbour with the
// destination's coordinate), hand updates to a later core of the node, or
// apply them. With one core per node this is the Blue Gene/L algorithm
// (`routed`); with four on a 3-D torus, the paper's Blue Gene/P one.
//
// Every buffer is static and sized by the node's look-ahead budget. An
// update that meets a bucket whose send is still in flight waits where it is
// (in the receive buffer, or not yet generated), so a node never holds more
// than the budget. Dimension order makes waiting acyclic: a buffer of
// dimension e waits only on buckets of later dimensions or later cores.
//
// Termination is staged: a core closes dimension f (flushes its buckets and
// sends "done" to its line neighbours) once nothing can feed f any more: its
// generator is exhausted and its inputs from earlier dimensions and earlier
// cores are closed and drained. Then it closes its hand-offs to the other
// cores. What is handed to a core that updates is its own slice's, which it
// applies and never passes on: it closes without waiting for those inputs
// (in a plan of one-core pipelines the cores hand to each other).
#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "kernel/core/deferred_writes.hpp"
#include "kernel/core/hpcc_stream.hpp"
#include "kernel/core/route_step.hpp"
#include "kernel/core/stream_stretches.hpp"
#include "kernel/mpi/message_slots.hpp"
#include "kernel/mpi/progress_report.hpp"
#include "kernel/mpi/simulation.hpp"
#include "kernel/mpi/update_algorithm.hpp"

namespace gups {
namespace {

constexpr int kLocalChannel = kMaxDimensions;  // channels 0..5 are dimensions
constexpr int kChannels = kMaxDimensions + 1;
// Each channel has its own tag and its own posted receives, so a message of
// one dimension never waits for a buffer held by another: with sends that
// complete only when received (SMPI's rendezvous, or a full eager buffer),
// buffers shared across dimensions could all fill with messages waiting on
// later dimensions and deadlock. "Done" is an empty message on the channel.
constexpr std::uint64_t kGenerateBatch = kRoutingGenerateBatch;
// Placing received updates stops for the deferred writes every kWriteBatch.
constexpr std::uint64_t kWriteBatch = 64;
static_assert(DeferredWrites::kMostAddsBetweenWrites >= std::max(kWriteBatch, kGenerateBatch));

// --slow-updates: a busy wait, so that the core stays busy as a slow one is.
void spin_for(std::uint64_t nanoseconds) noexcept {
  const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(nanoseconds);
  while (std::chrono::steady_clock::now() < until) {
  }
}

struct Bucket {
  std::vector<std::uint64_t> items;  // sized to the capacity: the first `count` are the bucket's
  std::size_t count = 0;
  std::size_t capacity = 0;  // sent once this full
  int destination_rank = 0;
  int channel = 0;
  bool in_flight = false;
};

struct ReceiveBuffer {
  std::vector<std::uint64_t> data;
  std::size_t count = 0;
  std::size_t cursor = 0;
  int channel = 0;  // fixed: the channel this buffer is posted for
  bool holding = false;  // received items not yet all routed
  bool posted = false;
  std::uint64_t posted_sequence = 0;  // order of posting, over all buffers of the core
};

class RoutingCore {
 public:
  RoutingCore(const UpdateContext& context, LocalTable& table)
      : context_(context),
        table_(table),
        shape_(*context.setup.shape),
        plan_(context.setup.plan),
        cores_(context.setup.cores_per_node),
        node_(static_cast<std::uint64_t>(context.rank) / cores_),
        core_(static_cast<unsigned>(context.rank) % cores_),
        role_(plan_.role(core_)),
        capacity_(context.setup.node_buckets.capacity),
        costs_(context.costs),
        route_(context.layout, context.owner_of, shape_, plan_, context.distribution, node_, core_) {
    stats_.bucket_capacity = capacity_;
    build_buckets();
    static_assert(RouteStep::kApplyHere == -1);
    place_of_target_.push_back(&applied_here_);
    for (auto& bucket : buckets_) place_of_target_.push_back(&bucket);
    build_receive_buffers();
    // A core something reaches has a receive buffer for it (see run()).
    polls_each_turn_ = context.config.mechanisms.dma_injection || !simulation::active() ||
                       (role_.generates && !receive_buffers_.empty());
    // Hand-offs between the cores of a node never reach the torus.
    auto wire_bytes = [&costs = costs_](std::size_t count, int channel) {
      return channel == kLocalChannel ? std::nullopt : costs.wire_bytes(count);
    };
    messages_ = make_message_slots(context.config.message_layer, context.comm, context.rank,
                                   buckets_.size() + receive_buffers_.size(),
                                   {context.config.charges_path.empty(), wire_bytes, context.config.mechanisms,
                                    context.config.run_ahead,
                                    context.config.early_looks && context.steady_watch == nullptr,
                                    [](int channel) { return channel != kLocalChannel; }},
                                   context.config.sends == TorusSends::standard ? RealSends::standard
                                                                                : RealSends::synchronous);
    if (context.handoffs) {
      messages_ = make_shared_handoff_slots(std::move(messages_), *context.handoffs, kLocalChannel, cores_);
    }
    if (role_.generates) {
      const auto stretch =
          pipeline_stretch(context.config, context.layout, plan_, node_, static_cast<unsigned>(role_.pipeline));
      remaining_ = stretch.count;
      random_ = starts(stretch.first);
    }
    dimension_closed_.assign(shape_.dimensions(), false);
    dimension_flushing_.assign(shape_.dimensions(), false);
    for (unsigned d = 0; d < shape_.dimensions(); ++d) {
      if (!role_.routes_along(d)) dimension_closed_[d] = true;
    }
    local_closed_ = route_.hands_nothing_on();
    for (const auto d : plan_.incoming_dimensions(core_)) arrivals_apply_here_[d] = route_.arrivals_apply_here(d);
    // What other cores of the node hand to an updater is its own slice's.
    arrivals_apply_here_[kLocalChannel] = role_.updater >= 0;
  }

  // One turn does all the work that can be done without news from MPI:
  // drain what was received, generate, close what can close. A turn that
  // moved nothing asks MPI, and then blocks in one MPI_Waitany for one
  // completion. A simulated core that only routes or applies polls no more
  // than that (under SMPI each poll is a simcall, and its work comes only
  // as news). One that generates takes what has completed once a turn
  // where something reaches it (its receives must be posted again for its
  // senders to go on), and so does every core with DMA injection and on
  // real MPI (polls_each_turn_).
  UpdateStats run() {
    for (auto& buffer : receive_buffers_) post(buffer);
    ProgressReport progress(context_.rank == 0, context_.config.progress_seconds, remaining_,
                            context_.config.progress_path);
    const std::uint64_t total = remaining_;
    GenerationWindow window(total);
    start_ = run_clock();
    double idle = 0;
    std::uint64_t noted_applied = 0;
    while (!finished()) {
      // What was generated, not what is left: a settling run cuts what is left.
      progress.note(stats_.generated);
      if (role_.generates) window.note(stats_.generated, [this] { return std::max(run_clock(), costs_.busy_until()); });
      bool progressed = drain_receive_buffers();
      progressed |= generate();
      // Messages injected by DMA arrive whether or not the core waits for
      // them, and its generator seldom has to: it takes what is in each turn.
      // Real MPI moves messages only inside MPI calls: a neighbour's
      // synchronous send into this core completes only once this core has
      // looked, so it looks once a turn rather than only when it is stuck.
      // So does a simulated core that generates and takes messages (routed's
      // core, a one-core pipeline), as the paper's loop polls its FIFOs:
      // looking only when stuck, it would leave its neighbours' and the
      // node's other generators' sends in flight while it had work.
      if (polls_each_turn_) progressed |= take_completed();
      progressed |= close_what_can_close();
      flush_node_pending();
      if (role_.generates && remaining_ == 0 && stats_.generation_end < 0) {
        stats_.generation_end = std::max(run_clock(), costs_.busy_until()) - start_;
      }
      if (stats_.applied != noted_applied) {
        const double at = std::max(run_clock(), costs_.busy_until()) - start_;
        const auto count = static_cast<double>(stats_.applied - noted_applied);
        stats_.applied_over_time.add(at, count);
        if (context_.steady_watch) context_.steady_watch->applied(at, count);
        noted_applied = stats_.applied;
      }
      if (!progressed && !finished()) {
        // A turn that moved nothing and still holds work holds it because
        // a bucket it needs is in flight.
        const bool held_back = holding_work();
        const double waited = wait_for_one();
        idle += waited;
        if (held_back) stats_.stalled_seconds += waited;
      }
    }
    deferred_.write_all(table_.view(), context_.layout);
    costs_.pay();  // the run lasts until the last work is done
    stats_.busy_seconds = run_clock() - start_ - idle;
    stats_.receive_calls = costs_.receive_calls().calls();
    stats_.packets_received = costs_.receive_calls().packets();
    messages_->finish();
    stats_.max_waiting_messages = messages_->most_waiting();
    stats_.window_rate = window.rate();
    return stats_;
  }

 private:
  // ---- set-up -------------------------------------------------------------

  int rank_of(std::uint64_t node, unsigned core) const {
    return static_cast<int>(node * cores_ + core);
  }

  void build_buckets() {
    for (unsigned d = role_.first_dimension; d < role_.end_dimension; ++d) {
      for (const auto neighbour : shape_.line_neighbours(node_, d)) {
        route_.set_network_bucket(d, neighbour,
                                  add_bucket(rank_of(neighbour, plan_.network_receiver(core_, d)), static_cast<int>(d)));
      }
    }
    for (const auto receiver : plan_.local_receivers(core_)) {
      route_.set_local_bucket(receiver, add_bucket(rank_of(node_, receiver), kLocalChannel));
    }
    route_.look_up_by_slice();
  }

  int add_bucket(int destination_rank, int channel) {
    Bucket bucket;
    bucket.items.resize(capacity_);
    bucket.capacity = capacity_;
    bucket.destination_rank = destination_rank;
    bucket.channel = channel;
    buckets_.push_back(std::move(bucket));
    return static_cast<int>(buckets_.size()) - 1;
  }

  void build_receive_buffers() {
    auto add_buffers = [this](int channel, std::size_t count) {
      for (std::size_t i = 0; i < count; ++i) {
        ReceiveBuffer buffer;
        buffer.data.resize(capacity_);
        buffer.channel = channel;
        receive_buffers_.push_back(std::move(buffer));
      }
    };
    for (const auto d : plan_.incoming_dimensions(core_)) {
      if (shape_.size(d) > 1) {
        expected_done_[d] = static_cast<int>((shape_.size(d) - 1) * plan_.incoming_pipelines(core_, d));
        add_buffers(static_cast<int>(d), BucketSizing::kReceivesPerDimension);
      }
    }
    expected_done_[kLocalChannel] = static_cast<int>(plan_.local_senders(core_).size());
    add_buffers(kLocalChannel, static_cast<std::size_t>(expected_done_[kLocalChannel]));
  }

  // ---- routing ------------------------------------------------------------

  struct Placed {
    std::size_t updates = 0;  // placed, from the first
    std::uint64_t here = 0;   // of them, applied here
  };

  // Places updates[0..count) (count <= kGenerateBatch) in turn, each where
  // RouteStep sends it next, up to the first whose bucket's send is still in
  // flight (it waits where it is, and its owner, found again then, is charged
  // once); `after_each` runs after each placed one. The counters of the
  // caller's kind of update are the caller's to keep.
  //
  // Where each goes is worked out for the whole span first: with no stores
  // in between, the routing tables' fields stay in registers. Whether an
  // update is applied here or goes on cannot be predicted, so both take one
  // path without a branch: an update applied here goes into a bucket of its
  // own, never full nor sent, whose count is the span's applied ones, and is
  // kept by the deferred writes; one that goes on into its bucket (adding
  // the kept ones to the deferred writes after the span, from that bucket,
  // reads every kept update twice). Only the table's words wait: the models'
  // marks are those of each update's place, in order.
  template <typename AfterEach>
  Placed place_span(const std::uint64_t* updates, std::size_t count, AfterEach&& after_each) {
    assert(count <= kGenerateBatch);
    std::array<int, kGenerateBatch> targets;
    route_.next_buckets(updates, count, targets.data());
    // A local, not the member, in the loop: each item's store (a uint64_t)
    // could be any member's, for all the compiler knows.
    Bucket* const* const place_of_target = place_of_target_.data();
    applied_here_.count = 0;
    Placed placed;
    DeferredWrites::Batch deferred(deferred_);
    for (; placed.updates < count; ++placed.updates) {
      const int b = targets[placed.updates];
      Bucket& bucket = *place_of_target[static_cast<std::size_t>(b + 1)];
      if (bucket.in_flight) break;
      const std::uint64_t update = updates[placed.updates];
      costs_.owner_found();
      if (b == RouteStep::kApplyHere) {  // a real run's marks are nothing, and so is this branch
        costs_.applied();
      } else {
        costs_.routed();
      }
      const std::size_t filled = bucket.count + 1;
      bucket.items[bucket.count] = update;
      bucket.count = filled;
      deferred.add(update, b == RouteStep::kApplyHere);
      if (filled == bucket.capacity) send(b);
      after_each();
    }
    placed.here = applied_here_.count;
    // --slow-updates: the span's applied updates each take that much longer.
    if (context_.config.slow_update_ns) spin_for(placed.here * context_.config.slow_update_ns);
    return placed;
  }

  void write_deferred() noexcept { deferred_.write_lagging(table_.view(), context_.layout); }

  void apply_here(std::uint64_t update) noexcept {
    if (context_.config.slow_update_ns) spin_for(context_.config.slow_update_ns);
    table_.apply(context_.layout.index_of(update), update);
    count_applied(1);
  }

  // A core that only updates: every update handed to it is its own (the
  // sender chose it by the table's distribution), so it applies a whole
  // buffer in a loop of nothing else, as the model's update_streamed has it.
  void apply_all_here(const std::uint64_t* updates, std::size_t count) noexcept {
    apply_words(updates, count);
    count_applied(count);
  }

  // A routing core's arrivals along a dimension after which nothing is left
  // to route (RouteStep::arrivals_apply_here): the same loop, charged as
  // place_span() charges each of them, so that a simulated run costs the same.
  void apply_arrivals_here(const std::uint64_t* updates, std::size_t count) noexcept {
    apply_words(updates, count);
    for (std::size_t i = 0; i < count; ++i) {
      costs_.owner_found();
      costs_.applied();
    }
    note_applied(count);
  }

  void apply_words(const std::uint64_t* updates, std::size_t count) noexcept {
    const TableLayout layout = context_.layout;
    const LocalTable::View table = table_.view();
    for (std::size_t i = 0; i < count; ++i) {
      if (i + kPrefetchAhead < count) table.prefetch(layout.index_of(updates[i + kPrefetchAhead]));
      assert(table_.owns(layout.index_of(updates[i])));
      table.apply(layout.index_of(updates[i]), updates[i]);
    }
  }

  void count_applied(std::uint64_t count) noexcept {
    note_applied(count);
    costs_.applied(count);
  }
  // Applied updates leave the node's pending count and this core's look-ahead.
  void note_applied(std::uint64_t count) noexcept {
    node_delta_ -= static_cast<std::int64_t>(count);
    stats_.applied += count;
    occupancy_ -= count;
  }

  // A send, post or "done" happens once the work before it is done: as an
  // event at that time where the layer runs ahead, else by waiting for it.
  void start_after_work() {
    if (messages_->runs_ahead()) {
      messages_->start_at(costs_.busy_until());
    } else {
      costs_.pay();
    }
  }

  void send(int b) {
    auto& bucket = buckets_[static_cast<std::size_t>(b)];
    costs_.message_sent();
    start_after_work();
    const auto bytes = messages_->send(static_cast<std::size_t>(b), bucket.items.data(), bucket.count,
                                       bucket.destination_rank, bucket.channel);
    bucket.in_flight = true;
    ++in_flight_;
    if (bucket.channel == kLocalChannel) {
      stats_.updates_handed += bucket.count;
      ++stats_.local_messages_sent;
    } else {
      stats_.updates_sent += bucket.count;
      stats_.network_bytes_sent += bytes;
      if (context_.links) {
        context_.links->carry(node_, static_cast<std::uint64_t>(bucket.destination_rank) / cores_,
                              static_cast<double>(bytes));
      }
      ++stats_.messages_sent;
    }
  }

  // A turn places one batch of the stream, computed ahead so that the table
  // words it will apply here are already on their way from memory. A
  // settling generator says each count before it places the update (placing
  // may send, and a send may wait, while another generator fixes the limit
  // from every count said so far) and keeps to the limit after it: it
  // places one at a time.
  bool generate() {
    keep_to_settling_limit();
    if (remaining_ == 0) return false;
    const bool settling = context_.steady_watch != nullptr;
    bool progressed = false;
    std::uint64_t left = std::min(kGenerateBatch * batches_per_turn_, remaining_);
    while (left > 0 && remaining_ > 0) {
      if (next_generated_ == generated_ahead_.size()) compute_batch_ahead();
      const std::uint64_t* span = generated_ahead_.data() + next_generated_;
      const std::size_t wanted =
          settling ? 1 : static_cast<std::size_t>(std::min<std::uint64_t>(left, generated_ahead_.size() - next_generated_));
      if (settling) context_.steady_watch->generated(stats_.generated + 1);
      const Placed placed = place_span(span, wanted, [this] { costs_.generated(); });
      if (placed.updates == 0) break;
      random_ = span[placed.updates - 1];
      next_generated_ += placed.updates;
      remaining_ -= placed.updates;
      left -= placed.updates;
      stats_.generated += placed.updates;
      occupancy_ += placed.updates;
      node_delta_ += static_cast<std::int64_t>(placed.updates);
      note_applied(placed.here);
      write_deferred();  // a span's kept updates, before the next span's could overrun the ring
      progressed = true;
      keep_to_settling_limit();
      if (placed.updates < wanted) break;
    }
    note_occupancy();
    flush_node_pending();
    return progressed;
  }

  // --settle-to: once the steady state is settled, every generator stops at
  // the same count of its stretch. A count said one too high (its update's
  // bucket was in flight) only raises the limit every generator reaches.
  void keep_to_settling_limit() noexcept {
    if (!context_.steady_watch || remaining_ == 0) return;
    const auto limit = context_.steady_watch->limit(run_clock() - start_);
    if (limit == SteadyWatch::kNoLimit) return;
    remaining_ = std::min(remaining_, limit > stats_.generated ? limit - stats_.generated : 0);
  }

  // Locals, not members, in the loop: the stores of uint64_t values would
  // otherwise make the compiler read the layout and the table's fields again.
  void compute_batch_ahead() {
    generated_ahead_.resize(std::min(kGenerateBatch, remaining_));
    const TableLayout layout = context_.layout;
    const LocalTable::View table = table_.view();
    std::uint64_t value = random_;
    for (auto& update : generated_ahead_) {
      value = next_random(value);
      update = value;
      table.prefetch_if_owned(layout.index_of(value));  // see prefetch_if_applied_here
    }
    next_generated_ = 0;
  }

  // Most updates an updating core takes are its own, and an update's word
  // is one cache miss: asking for it early lets several misses overlap.
  // Without a branch (a word in cache where the update is not this core's):
  // whose an update is cannot be predicted.
  void prefetch_if_applied_here(std::uint64_t update) const noexcept {
    table_.view().prefetch_if_owned(context_.layout.index_of(update));
  }

  // ---- messages -----------------------------------------------------------

  void post(ReceiveBuffer& buffer) {
    start_after_work();  // a buffer is free once the updates it held are handled
    flush_node_pending();  // ... and the node's count knows it before a sender can fill it again
    const auto i = static_cast<std::size_t>(&buffer - receive_buffers_.data());
    messages_->post(receive_slot(i), buffer.data.data(), capacity_, buffer.channel);
    buffer.posted = true;
    buffer.posted_sequence = ++posts_;
  }

  bool holding_work() const noexcept {
    return remaining_ > 0 || std::any_of(holding_.begin(), holding_.end(), [](int h) { return h > 0; });
  }

  // Every completion there is, without waiting; true if there was one.
  bool take_completed() {
    bool any = false;
    while (const auto completion = messages_->test_any()) {
      complete(*completion);
      any = true;
    }
    return any;
  }

  void complete(const MessageSlots::Completion& completion) {
    if (completion.slot < buckets_.size()) {
      on_send_complete(completion.slot);
    } else {
      on_receive_complete(completion.slot - buckets_.size(), completion);
      note_occupancy();
      flush_node_pending();
    }
  }

  // Nothing could move: block until one send or receive completes. Returns
  // the time spent waiting, not counting work still being paid for.
  double wait_for_one() {
    const double start = std::max(run_clock(), costs_.busy_until());
    complete(messages_->wait_any());
    return std::max(0.0, run_clock() - start);
  }

  void on_send_complete(std::size_t b) {
    auto& bucket = buckets_[b];
    --in_flight_;
    occupancy_ -= bucket.count;
    if (bucket.channel != kLocalChannel) node_delta_ -= static_cast<std::int64_t>(bucket.count);
    bucket.count = 0;
    bucket.in_flight = false;
  }

  void on_receive_complete(std::size_t i, const MessageSlots::Completion& completion) {
    const std::size_t count = completion.count;
    auto& buffer = receive_buffers_[i];
    buffer.posted = false;
    if (count == 0) {  // the sender is done with this channel
      complete_receives_posted_before(buffer.channel, buffer.posted_sequence);
      ++done_received_[buffer.channel];
      if (!channel_closed(buffer.channel)) post(buffer);
      return;
    }
    buffer.count = count;
    buffer.cursor = 0;
    buffer.holding = true;
    ++holding_[buffer.channel];
    occupancy_ += buffer.count;
    if (buffer.channel != kLocalChannel) node_delta_ += static_cast<std::int64_t>(buffer.count);
    costs_.message_received(buffer.count, completion.arrived);
    if (buffer.channel == kLocalChannel) {
      ++stats_.local_messages_received;
    } else {
      stats_.updates_received += buffer.count;
      ++stats_.messages_received;
    }
  }

  // A sender's "done" follows its data, and MPI matches a channel's messages
  // to its receives in posting order: so every receive of the channel posted
  // before the one the "done" met is matched already. wait_any() reports
  // completions in no particular order; these are completed now, oldest
  // first, so that no update is left behind when the channel closes.
  void complete_receives_posted_before(int channel, std::uint64_t sequence) {
    for (;;) {
      ReceiveBuffer* oldest = nullptr;
      for (auto& candidate : receive_buffers_) {
        if (candidate.posted && candidate.channel == channel && candidate.posted_sequence < sequence &&
            (oldest == nullptr || candidate.posted_sequence < oldest->posted_sequence)) {
          oldest = &candidate;
        }
      }
      if (oldest == nullptr) return;
      const auto i = static_cast<std::size_t>(oldest - receive_buffers_.data());
      on_receive_complete(i, messages_->wait(receive_slot(i)));
    }
  }

  bool drain_receive_buffers() {
    bool progressed = false;
    if (std::all_of(holding_.begin(), holding_.end(), [](int h) { return h == 0; })) return false;
    const bool only_updates = role_.only_updates();
    for (auto& buffer : receive_buffers_) {
      if (!buffer.holding) continue;
      const std::size_t before = buffer.cursor;
      if (before == 0) {
        for (std::size_t i = 0; i < std::min(kPrefetchAhead, buffer.count); ++i) {
          prefetch_if_applied_here(buffer.data[i]);
        }
      }
      if (!context_.config.slow_update_ns && (only_updates || arrivals_apply_here_[buffer.channel])) {
        const std::uint64_t* rest = buffer.data.data() + buffer.cursor;
        if (only_updates) {
          apply_all_here(rest, buffer.count - buffer.cursor);
        } else {
          apply_arrivals_here(rest, buffer.count - buffer.cursor);
        }
        buffer.cursor = buffer.count;
      }
      while (only_updates && buffer.cursor < buffer.count) {  // slow updates
        apply_here(buffer.data[buffer.cursor++]);
      }
      while (buffer.cursor < buffer.count) {
        // Each word asked for kPrefetchAhead updates before its place.
        const std::size_t wanted = std::min(buffer.count - buffer.cursor, kWriteBatch);
        const std::size_t asked_until = std::min(buffer.count, buffer.cursor + wanted + kPrefetchAhead);
        for (std::size_t i = buffer.cursor + kPrefetchAhead; i < asked_until; ++i) {
          prefetch_if_applied_here(buffer.data[i]);
        }
        const Placed placed = place_span(buffer.data.data() + buffer.cursor, wanted, [] {});
        note_applied(placed.here);
        buffer.cursor += placed.updates;
        write_deferred();
        if (placed.updates < wanted) break;
      }
      write_deferred();
      progressed |= buffer.cursor != before;
      if (buffer.cursor == buffer.count) {
        buffer.holding = false;
        --holding_[buffer.channel];
        if (!channel_closed(buffer.channel)) post(buffer);
      }
    }
    return progressed;
  }

  // ---- termination --------------------------------------------------------

  bool channel_closed(int channel) const noexcept {
    return done_received_[channel] == expected_done_[channel];
  }
  // Inputs from the given channels are closed and fully routed.
  bool drained(int below_dimension, bool with_local) const noexcept {
    for (int c = 0; c < std::min(below_dimension, kLocalChannel); ++c) {
      if (!channel_closed(c) || holding_[c] > 0) return false;
    }
    return !with_local || (channel_closed(kLocalChannel) && holding_[kLocalChannel] == 0);
  }

  // Sends what is left in the buckets of a channel; true once all are empty.
  bool flush(int channel) {
    bool empty = true;
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
      auto& bucket = buckets_[b];
      if (bucket.channel != channel) continue;
      if (!bucket.in_flight && bucket.count > 0) send(static_cast<int>(b));
      empty &= !bucket.in_flight && bucket.count == 0;
    }
    return empty;
  }

  void send_done(int destination_rank, int channel) {
    start_after_work();
    messages_->send_done(destination_rank, channel);
  }

  bool close_what_can_close() {
    bool progressed = false;
    for (unsigned d = role_.first_dimension; d < role_.end_dimension; ++d) {
      if (dimension_closed_[d]) continue;
      if (!dimension_flushing_[d]) {
        if (remaining_ > 0 || !drained(static_cast<int>(d), !arrivals_apply_here_[kLocalChannel])) break;
        dimension_flushing_[d] = true;
      }
      if (!flush(static_cast<int>(d))) break;
      for (const auto neighbour : shape_.line_neighbours(node_, d)) {
        send_done(rank_of(neighbour, plan_.network_receiver(core_, d)), static_cast<int>(d));
      }
      dimension_closed_[d] = true;
      progressed = true;
    }
    if (!local_closed_ && remaining_ == 0 && all_dimensions_closed() &&
        drained(kChannels, !arrivals_apply_here_[kLocalChannel]) && flush(kLocalChannel)) {
      for (const auto receiver : plan_.local_receivers(core_)) {
        send_done(rank_of(node_, receiver), kLocalChannel);
      }
      local_closed_ = true;
      progressed = true;
    }
    return progressed;
  }

  bool all_dimensions_closed() const noexcept {
    return std::all_of(dimension_closed_.begin(), dimension_closed_.end(), [](bool c) { return c; });
  }

  bool finished() const noexcept {
    if (remaining_ > 0 || !local_closed_ || !all_dimensions_closed()) return false;
    return drained(kChannels, true) && in_flight_ == 0;
  }

  void note_occupancy() noexcept { stats_.max_pending = std::max(stats_.max_pending, occupancy_); }
  // What this core changed of its node's holding, into the node's shared count.
  void flush_node_pending() noexcept {
    if (context_.node_pending) context_.node_pending->add(node_delta_);
    node_delta_ = 0;
  }

  const UpdateContext& context_;
  LocalTable& table_;
  const TorusShape& shape_;
  const RolePlan& plan_;
  const unsigned cores_;
  const std::uint64_t node_;
  const unsigned core_;
  const CoreRole& role_;
  const std::size_t capacity_;
  OperationCosts& costs_;
  RouteStep route_;

  std::vector<Bucket> buckets_;
  // By RouteStep's answer + 1: the spare bucket of updates applied here
  // (kApplyHere = -1), then buckets_.
  std::vector<Bucket*> place_of_target_;
  // Slots of the bucket sends first, then those of the receive buffers.
  std::unique_ptr<MessageSlots> messages_;
  std::size_t receive_slot(std::size_t buffer) const noexcept { return buckets_.size() + buffer; }
  std::vector<ReceiveBuffer> receive_buffers_;

  std::array<int, kChannels> expected_done_{};
  std::array<int, kChannels> done_received_{};
  std::array<int, kChannels> holding_{};  // receive buffers of the channel holding updates
  std::array<bool, kChannels> arrivals_apply_here_{};
  bool polls_each_turn_ = false;  // set with the receive buffers
  // Batches of the stream a turn places. Simulated: one (a turn's work is
  // what the models charge between looks). Real: about two buckets' worth,
  // so that a core still looks once for every two buckets its senders can
  // fill, and pays its turn's polls and counts a few times less often than
  // with one batch a turn; at most 16 (--bucket-size).
  const std::uint64_t batches_per_turn_ =
      simulation::active() ? 1 : std::clamp<std::uint64_t>(2 * capacity_ / kGenerateBatch, 1, 16);
  int in_flight_ = 0;                     // buckets whose send has not completed
  std::vector<bool> dimension_closed_;
  std::vector<bool> dimension_flushing_;
  bool local_closed_ = false;

  std::uint64_t posts_ = 0;
  std::uint64_t remaining_ = 0;
  std::uint64_t random_ = 0;  // the stream's value last placed
  double start_ = 0;  // run clock at the start of the update phase
  std::vector<std::uint64_t> generated_ahead_;  // the values after random_, not yet placed
  std::size_t next_generated_ = 0;
  std::uint64_t occupancy_ = 0;
  std::int64_t node_delta_ = 0;  // since the last flush_node_pending()
  // The updates of a span applied here, in order: never full, never sent (see place_span()).
  Bucket applied_here_{std::vector<std::uint64_t>(kGenerateBatch), 0, SIZE_MAX};
  DeferredWrites deferred_;  // updates placed here, their words not yet written
  UpdateStats stats_;
};

}  // namespace

UpdateStats run_routed(const UpdateContext& context, LocalTable& table) {
  return RoutingCore(context, table).run();
}

}  // namespace gups
