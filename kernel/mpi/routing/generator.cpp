#include "kernel/mpi/routing/generator.hpp"

#include "kernel/core/hpcc_stream.hpp"
#include "kernel/core/stream_stretches.hpp"

namespace gups::routing {

Generator::Generator(CoreShared& core)
    : core_(core),
      batches_per_turn_(simulation::active() ? 1
                                             : std::clamp<std::uint64_t>(2 * core.capacity / kGenerateBatch, 1, 16)) {
  if (core.role.generates) {
    const auto stretch = pipeline_stretch(core.context.config, core.context.layout, core.plan, core.node,
                                          static_cast<unsigned>(core.role.pipeline));
    remaining_ = stretch.count;
    random_ = starts(stretch.first);
  }
}

// A settling generator says each count before it places the update (placing
// may send, and a send may wait, while another generator fixes the limit
// from every count said so far) and keeps to the limit after it: it places
// one at a time.
bool Generator::generate(Router& router) {
  keep_to_settling_limit();
  if (remaining_ == 0) return false;
  SteadyWatch* const steady_watch = core_.context.steady_watch;
  const bool settling = steady_watch != nullptr;
  UpdateStats& stats = core_.stats;
  bool progressed = false;
  std::uint64_t left = std::min(kGenerateBatch * batches_per_turn_, remaining_);
  while (left > 0 && remaining_ > 0) {
    if (next_generated_ == generated_ahead_.size()) compute_batch_ahead();
    const std::uint64_t* span = generated_ahead_.data() + next_generated_;
    const std::size_t wanted = settling ? 1
                                        : static_cast<std::size_t>(std::min<std::uint64_t>(
                                              left, generated_ahead_.size() - next_generated_));
    if (settling) steady_watch->generated(stats.generated + 1);
    const Placed placed = router.place_span(span, wanted, [&costs = core_.costs] { costs.generated(); });
    if (placed.updates == 0) break;
    random_ = span[placed.updates - 1];
    next_generated_ += placed.updates;
    remaining_ -= placed.updates;
    left -= placed.updates;
    stats.generated += placed.updates;
    core_.lookahead.entered_core(placed.updates);
    core_.lookahead.entered_node(placed.updates);
    core_.note_applied(placed.here);
    // A span's kept updates, before the next span's could overrun the ring.
    core_.deferred.write_lagging(core_.table.view(), core_.context.layout);
    progressed = true;
    keep_to_settling_limit();
    if (placed.updates < wanted) break;
  }
  core_.lookahead.note_occupancy();
  core_.lookahead.flush();
  return progressed;
}

// --settle-to: once the steady state is settled, every generator stops at
// the same count of its stretch. A count said one too high (its update's
// bucket was in flight) only raises the limit every generator reaches.
void Generator::keep_to_settling_limit() noexcept {
  if (!core_.context.steady_watch || remaining_ == 0) return;
  const auto limit = core_.context.steady_watch->limit(run_clock() - core_.start);
  if (limit == SteadyWatch::kNoLimit) return;
  const std::uint64_t generated = core_.stats.generated;
  remaining_ = std::min(remaining_, limit > generated ? limit - generated : 0);
}

// Locals, not members, in the loop: the stores of uint64_t values would
// otherwise make the compiler read the layout and the table's fields again.
void Generator::compute_batch_ahead() {
  generated_ahead_.resize(std::min(kGenerateBatch, remaining_));
  const TableLayout layout = core_.context.layout;
  const LocalTable::View table = core_.table.view();
  std::uint64_t value = random_;
  for (auto& update : generated_ahead_) {
    value = next_random(value);
    update = value;
    table.prefetch_if_owned(layout.index_of(value));  // see Updater::prefetch_if_applied_here
  }
  next_generated_ = 0;
}

}  // namespace gups::routing
