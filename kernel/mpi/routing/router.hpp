// The routing step of a core: its buckets (one per line neighbour of each
// dimension it routes, one per core of the node it hands to) and the place
// of each update, RouteStep's answer. A bucket is sent once full; an update
// that meets a bucket whose send is still in flight waits where it is.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <vector>

#include "kernel/mpi/routing/core_shared.hpp"

namespace gups::routing {

struct Bucket {
  std::vector<std::uint64_t> items;  // sized to the capacity: the first `count` are the bucket's
  std::size_t count = 0;
  std::size_t capacity = 0;  // sent once this full
  int destination_rank = 0;
  int channel = 0;
  bool in_flight = false;
};

struct Placed {
  std::size_t updates = 0;  // placed, from the first
  std::uint64_t here = 0;   // of them, applied here
};

class Router {
 public:
  explicit Router(CoreShared& core);

  const RouteStep& route() const noexcept { return route_; }
  std::size_t bucket_count() const noexcept { return buckets_.size(); }
  int in_flight() const noexcept { return in_flight_; }

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
  Placed place_span(const std::uint64_t* updates, std::size_t count, AfterEach&& after_each);

  void send(int b);
  // Sends what is left in the buckets of a channel; true once all are empty.
  bool flush(int channel);
  void on_send_complete(std::size_t b);

 private:
  void build_buckets();
  int add_bucket(int destination_rank, int channel);

  CoreShared& core_;
  RouteStep route_;
  std::vector<Bucket> buckets_;
  // By RouteStep's answer + 1: the spare bucket of updates applied here
  // (kApplyHere = -1), then buckets_.
  std::vector<Bucket*> place_of_target_;
  // The updates of a span applied here, in order: never full, never sent (see place_span()).
  Bucket applied_here_{std::vector<std::uint64_t>(kGenerateBatch), 0, SIZE_MAX};
  int in_flight_ = 0;  // buckets whose send has not completed
};

template <typename AfterEach>
Placed Router::place_span(const std::uint64_t* updates, std::size_t count, AfterEach&& after_each) {
  assert(count <= kGenerateBatch);
  std::array<int, kGenerateBatch> targets;
  route_.next_buckets(updates, count, targets.data());
  // Locals, not members, in the loop: each item's store (a uint64_t) could
  // be any member's, for all the compiler knows.
  Bucket* const* const place_of_target = place_of_target_.data();
  OperationCosts& costs = core_.costs;
  applied_here_.count = 0;
  Placed placed;
  DeferredWrites::Batch deferred(core_.deferred);
  for (; placed.updates < count; ++placed.updates) {
    const int b = targets[placed.updates];
    Bucket& bucket = *place_of_target[static_cast<std::size_t>(b + 1)];
    if (bucket.in_flight) break;
    const std::uint64_t update = updates[placed.updates];
    costs.owner_found();
    if (b == RouteStep::kApplyHere) {  // a real run's marks are nothing, and so is this branch
      costs.applied();
    } else {
      costs.routed();
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
  if (core_.context.config.slow_update_ns) spin_for(placed.here * core_.context.config.slow_update_ns);
  return placed;
}

}  // namespace gups::routing
