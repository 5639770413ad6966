// What the parts of one routing core share: where the core sits (node,
// core, role), its costs, its message slots, its statistics, the deferred
// table writes and the node's look-ahead. The parts (generator, router,
// receive buffers, updater, termination) each hold this and nothing of
// each other but what they are handed.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>

#include "kernel/core/deferred_writes.hpp"
#include "kernel/core/route_step.hpp"
#include "kernel/mpi/message_slots.hpp"
#include "kernel/mpi/routing/node_lookahead.hpp"
#include "kernel/mpi/simulation.hpp"
#include "kernel/mpi/update_algorithm.hpp"

namespace gups::routing {

// Each channel has its own tag and its own posted receives, so a message of
// one dimension never waits for a buffer held by another: with sends that
// complete only when received (SMPI's rendezvous, or a full eager buffer),
// buffers shared across dimensions could all fill with messages waiting on
// later dimensions and deadlock. "Done" is an empty message on the channel.
constexpr int kLocalChannel = kMaxDimensions;  // channels 0..5 are dimensions
constexpr int kChannels = kMaxDimensions + 1;
constexpr std::uint64_t kGenerateBatch = kRoutingGenerateBatch;
// Placing received updates stops for the deferred writes every kWriteBatch.
constexpr std::uint64_t kWriteBatch = 64;
static_assert(DeferredWrites::kMostAddsBetweenWrites >= std::max(kWriteBatch, kGenerateBatch));

// --slow-updates: a busy wait, so that the core stays busy as a slow one is.
inline void spin_for(std::uint64_t nanoseconds) noexcept {
  const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(nanoseconds);
  while (std::chrono::steady_clock::now() < until) {
  }
}

struct CoreShared {
  CoreShared(const UpdateContext& context, LocalTable& table)
      : context(context),
        table(table),
        shape(*context.setup.shape),
        plan(context.setup.plan),
        cores(context.setup.cores_per_node),
        node(static_cast<std::uint64_t>(context.rank) / cores),
        core(static_cast<unsigned>(context.rank) % cores),
        role(plan.role(core)),
        capacity(context.setup.node_buckets.capacity),
        costs(context.costs),
        lookahead(context.node_pending, stats) {
    stats.bucket_capacity = capacity;
  }

  int rank_of(std::uint64_t on_node, unsigned on_core) const {
    return static_cast<int>(on_node * cores + on_core);
  }

  // A send, post or "done" happens once the work before it is done: as an
  // event at that time where the layer runs ahead, else by waiting for it.
  void start_after_work() {
    if (messages->runs_ahead()) {
      messages->start_at(costs.busy_until());
    } else {
      costs.pay();
    }
  }

  // Applied updates leave the node's pending count and this core's look-ahead.
  void note_applied(std::uint64_t count) noexcept {
    stats.applied += count;
    lookahead.left_node(count);
    lookahead.left_core(count);
  }

  const UpdateContext& context;
  LocalTable& table;
  const TorusShape& shape;
  const RolePlan& plan;
  const unsigned cores;
  const std::uint64_t node;
  const unsigned core;
  const CoreRole& role;
  const std::size_t capacity;
  OperationCosts& costs;
  // Slots of the router's bucket sends first, then those of the receive buffers.
  std::unique_ptr<MessageSlots> messages;
  DeferredWrites deferred;  // updates placed here, their words not yet written
  UpdateStats stats;
  NodeLookahead lookahead;
  double start = 0;  // run clock at the start of the update phase
};

}  // namespace gups::routing
