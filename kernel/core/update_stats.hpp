// What one rank's update phase did. The driver gathers them by core index
// (the role) and by node.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "kernel/core/update_timeline.hpp"

namespace gups {

struct UpdateStats {
  std::uint64_t generated = 0;
  std::uint64_t applied = 0;           // table updates done by this rank
  std::uint64_t updates_sent = 0;      // over the network (to another node)
  std::uint64_t updates_received = 0;  // from the network
  std::uint64_t messages_sent = 0;
  std::uint64_t messages_received = 0;
  std::uint64_t updates_handed = 0;  // to another core of the same node
  std::uint64_t local_messages_sent = 0;
  std::uint64_t local_messages_received = 0;
  std::uint64_t max_pending = 0;  // most updates this rank held at once
  std::uint64_t bucket_capacity = 0;
  std::uint64_t network_bytes_sent = 0;  // by the network messages, as their layer sized them
  // Simulated with receive batches: the calls made and the packets they took.
  std::uint64_t receive_calls = 0;
  std::uint64_t packets_received = 0;
  double busy_seconds = 0.0;  // time spent doing work rather than waiting
  // Of the time waiting, that spent with work in hand that a bucket still in
  // flight held back (the rest waited for input, or for its last sends).
  double stalled_seconds = 0.0;
  // Generators: the rate between 25% and 75% of this rank's generation,
  // updates per second (0 if not measured): the steady state, without the
  // filling and draining of the pipeline at either end.
  double window_rate = 0.0;
  UpdateTimeline applied_over_time;  // updaters: when their updates were applied
  double generation_end = -1;        // generators: when the last update was generated (run clock, from the start)
  // Every core of a node whose cores counted in shared memory (NodePending):
  // the node's own peak; -1 where it was not counted so.
  std::int64_t node_peak = -1;
  // Most messages waiting at once for a receive of this rank
  // (MessageSlots::most_waiting).
  std::uint64_t max_waiting_messages = 0;

  static constexpr std::size_t kCounters = 14;
  std::array<std::uint64_t, kCounters> counters() const noexcept {
    return {generated,     applied,        updates_sent,       updates_received,
            messages_sent, messages_received, updates_handed, local_messages_sent,
            local_messages_received, max_pending, bucket_capacity, network_bytes_sent,
            receive_calls, packets_received};
  }
  static UpdateStats from(const std::array<std::uint64_t, kCounters>& c, double busy) noexcept {
    return {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13], busy, 0.0, 0.0, {}, -1};
  }

  // Sums, except the peak, which is the larger one.
  void merge(const UpdateStats& other) noexcept {
    generated += other.generated;
    applied += other.applied;
    updates_sent += other.updates_sent;
    updates_received += other.updates_received;
    messages_sent += other.messages_sent;
    messages_received += other.messages_received;
    updates_handed += other.updates_handed;
    local_messages_sent += other.local_messages_sent;
    local_messages_received += other.local_messages_received;
    max_pending = std::max(max_pending, other.max_pending);
    max_waiting_messages = std::max(max_waiting_messages, other.max_waiting_messages);
    bucket_capacity = std::max(bucket_capacity, other.bucket_capacity);
    network_bytes_sent += other.network_bytes_sent;
    receive_calls += other.receive_calls;
    packets_received += other.packets_received;
    busy_seconds += other.busy_seconds;
    stalled_seconds += other.stalled_seconds;
  }
};

}  // namespace gups
