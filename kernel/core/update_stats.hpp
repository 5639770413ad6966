// What one rank's update phase did, summed over ranks for the report.
#pragma once

#include <algorithm>
#include <cstdint>

namespace gups {

struct UpdateStats {
  std::uint64_t generated = 0;
  std::uint64_t applied = 0;  // table updates done by this rank
  std::uint64_t updates_sent = 0;
  std::uint64_t updates_received = 0;
  std::uint64_t messages_sent = 0;
  std::uint64_t messages_received = 0;
  std::uint64_t max_pending = 0;  // most updates generated but not yet applied, at once

  void merge(const UpdateStats& other) noexcept {
    generated += other.generated;
    applied += other.applied;
    updates_sent += other.updates_sent;
    updates_received += other.updates_received;
    messages_sent += other.messages_sent;
    messages_received += other.messages_received;
    max_pending = std::max(max_pending, other.max_pending);
  }
};

}  // namespace gups
