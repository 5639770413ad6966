// Updates waiting for their destination, one bucket per destination, with
// the fullest bucket found in O(1): the HPCC reference sends the fullest
// bucket when the look-ahead budget is used up. All buckets share one pool
// of `capacity` slots, so memory is O(capacity + destinations), not
// O(capacity x destinations).
#pragma once

#include <cstdint>
#include <vector>

namespace gups {

// direct polls for incoming messages every this many updates. The reference
// polls before every update; every few keeps receivers just as responsive
// at a fraction of the MPI_Test calls (calibration spreads a poll's cost
// over as many updates).
inline constexpr std::uint64_t kDirectUpdatesPerPoll = 64;

class DestinationBuckets {
 public:
  DestinationBuckets(std::uint32_t destinations, std::uint32_t capacity);

  std::uint32_t pending() const noexcept { return pending_; }
  std::uint32_t capacity() const noexcept { return static_cast<std::uint32_t>(slot_value_.size()); }
  bool full() const noexcept { return pending_ == capacity(); }
  std::uint32_t count(std::uint32_t destination) const noexcept { return count_[destination]; }

  // Precondition: !full().
  void insert(std::uint32_t destination, std::uint64_t update);

  // Appends the fullest bucket's updates to `out` in insertion order, empties
  // it and returns its destination. Precondition: pending() > 0.
  std::uint32_t take_fullest(std::vector<std::uint64_t>& out);

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  void unlink_from_count_list(std::uint32_t destination) noexcept;
  void link_into_count_list(std::uint32_t destination) noexcept;

  std::vector<std::uint64_t> slot_value_;
  std::vector<std::uint32_t> slot_next_;
  std::uint32_t free_slot_ = 0;

  std::vector<std::uint32_t> bucket_head_;
  std::vector<std::uint32_t> bucket_tail_;
  std::vector<std::uint32_t> count_;

  // Destinations with the same non-zero count form a doubly linked list.
  std::vector<std::uint32_t> count_list_head_;
  std::vector<std::uint32_t> next_same_count_;
  std::vector<std::uint32_t> prev_same_count_;
  std::uint32_t highest_count_ = 0;  // an upper bound on the fullest count
  std::uint32_t pending_ = 0;
};

}  // namespace gups
