// Aggregation and software routing over a virtual torus, one rank per core.
// What a core does comes from the role plan: generate the node's stream
// (generator.cpp), route along a group of dimensions to the line neighbour
// with the destination's coordinate or hand updates to a later core of the
// node (router.cpp), or apply them (updater.cpp); what reaches it waits in
// its receive buffers (receive_buffers.cpp) and it closes its channels in
// stages (termination.cpp). With one core per node this is the Blue Gene/L
// algorithm (`routed`); with four on a 3-D torus, the paper's Blue Gene/P one.
//
// Every buffer is static and sized by the node's look-ahead budget. An
// update that meets a bucket whose send is still in flight waits where it is
// (in the receive buffer, or not yet generated), so a node never holds more
// than the budget (node_lookahead.hpp). Dimension order makes waiting
// acyclic: a buffer of dimension e waits only on buckets of later dimensions
// or later cores.
#include <algorithm>

#include "kernel/mpi/progress_report.hpp"
#include "kernel/mpi/routing/core_shared.hpp"
#include "kernel/mpi/routing/generator.hpp"
#include "kernel/mpi/routing/receive_buffers.hpp"
#include "kernel/mpi/routing/router.hpp"
#include "kernel/mpi/routing/termination.hpp"
#include "kernel/mpi/routing/updater.hpp"

namespace gups {
namespace routing {
namespace {

// The dimensions whose channel may take messages from the rank's own host:
// under a simulation that places several nodes of a torus of processes on
// one host, those along which the node's line holds another of its nodes.
unsigned dimensions_within_host(const UpdateContext& context) {
  const unsigned cores = context.setup.cores_per_node;
  const unsigned nodes_per_host = simulation::active() ? simulation::ranks_per_host() / cores : 1;
  const auto node = static_cast<std::uint64_t>(context.rank) / cores;
  return context.setup.shape->dimensions_within_host(node, nodes_per_host);
}

std::unique_ptr<MessageSlots> core_messages(const CoreShared& core, std::size_t slots) {
  const UpdateContext& context = core.context;
  const unsigned within_host = dimensions_within_host(context);
  // Hand-offs between the cores of a node never reach the torus.
  auto wire_bytes = [&costs = core.costs](std::size_t count, int channel) {
    return channel == kLocalChannel ? std::nullopt : costs.wire_bytes(count);
  };
  auto messages = make_message_slots(
      context.config.message_layer, context.comm, context.rank, slots,
      {context.config.charges_path.empty(), wire_bytes, context.config.mechanisms, context.config.run_ahead,
       context.config.early_looks && context.steady_watch == nullptr,
       [within_host](int channel) { return channel != kLocalChannel && (within_host >> channel & 1u) == 0; }},
      context.config.sends == TorusSends::standard ? RealSends::standard : RealSends::synchronous);
  if (context.handoffs) {
    messages = make_shared_handoff_slots(std::move(messages), *context.handoffs, kLocalChannel, core.cores);
  }
  return messages;
}

class RoutingEngine {
 public:
  RoutingEngine(const UpdateContext& context, LocalTable& table)
      : core_(context, table),
        router_(core_),
        inputs_(core_, router_.route()),
        updater_(core_),
        generator_(core_),
        termination_(core_, router_.route()) {
    inputs_.set_first_slot(router_.bucket_count());
    core_.messages = core_messages(core_, router_.bucket_count() + inputs_.size());
    // A core something reaches has a receive buffer for it (see run()).
    polls_each_turn_ = context.config.mechanisms.dma_injection || !simulation::active() ||
                       (core_.role.generates && !inputs_.empty());
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
    const UpdateContext& context = core_.context;
    UpdateStats& stats = core_.stats;
    inputs_.post_all();
    ProgressReport progress(context.rank == 0, context.config.progress_seconds, generator_.remaining(),
                            context.config.progress_path);
    GenerationWindow window(generator_.remaining());
    core_.start = run_clock();
    double idle = 0;
    std::uint64_t noted_applied = 0;
    while (!finished()) {
      // What was generated, not what is left: a settling run cuts what is left.
      progress.note(stats.generated);
      if (core_.role.generates) window.note(stats.generated, [this] { return now(); });
      bool progressed = inputs_.drain(router_, updater_);
      progressed |= generator_.generate(router_);
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
      progressed |= termination_.close_what_can_close(generator_, inputs_, router_);
      core_.lookahead.flush();
      if (core_.role.generates && generator_.remaining() == 0 && stats.generation_end < 0) {
        stats.generation_end = now() - core_.start;
      }
      if (stats.applied != noted_applied) {
        note_applied_over_time(stats.applied - noted_applied);
        noted_applied = stats.applied;
      }
      if (!progressed && !finished()) {
        // A turn that moved nothing and still holds work holds it because
        // a bucket it needs is in flight.
        const bool held_back = generator_.remaining() > 0 || inputs_.any_holding();
        const double waited = wait_for_one();
        idle += waited;
        if (held_back) stats.stalled_seconds += waited;
      }
    }
    stats.window_rate = window.rate();
    return finish(idle);
  }

 private:
  double now() const noexcept { return std::max(run_clock(), core_.costs.busy_until()); }

  bool finished() const noexcept { return termination_.finished(generator_, inputs_, router_); }

  void note_applied_over_time(std::uint64_t applied) {
    const double at = now() - core_.start;
    const auto count = static_cast<double>(applied);
    core_.stats.applied_over_time.add(at, count);
    if (core_.context.steady_watch) core_.context.steady_watch->applied(at, count);
  }

  UpdateStats finish(double idle) {
    UpdateStats& stats = core_.stats;
    core_.deferred.write_all(core_.table.view(), core_.context.layout);
    core_.costs.pay();  // the run lasts until the last work is done
    stats.busy_seconds = run_clock() - core_.start - idle;
    stats.receive_calls = core_.costs.receive_calls().calls();
    stats.packets_received = core_.costs.receive_calls().packets();
    core_.messages->finish();
    stats.max_waiting_messages = core_.messages->most_waiting();
    return stats;
  }

  // Every completion there is, without waiting; true if there was one.
  bool take_completed() {
    bool any = false;
    while (const auto completion = core_.messages->test_any()) {
      complete(*completion);
      any = true;
    }
    return any;
  }

  void complete(const MessageSlots::Completion& completion) {
    if (completion.slot < router_.bucket_count()) {
      router_.on_send_complete(completion.slot);
    } else {
      inputs_.on_receive_complete(completion.slot - router_.bucket_count(), completion);
      core_.lookahead.note_occupancy();
      core_.lookahead.flush();
    }
  }

  // Nothing could move: block until one send or receive completes. Returns
  // the time spent waiting, not counting work still being paid for.
  double wait_for_one() {
    const double start = now();
    complete(core_.messages->wait_any());
    return std::max(0.0, run_clock() - start);
  }

  CoreShared core_;
  Router router_;
  ReceiveBuffers inputs_;
  Updater updater_;
  Generator generator_;
  Termination termination_;
  bool polls_each_turn_ = false;
};

}  // namespace
}  // namespace routing

UpdateStats run_routed(const UpdateContext& context, LocalTable& table) {
  return routing::RoutingEngine(context, table).run();
}

}  // namespace gups
