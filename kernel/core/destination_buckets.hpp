// Updates waiting for their destination, one bucket per destination, with
// the fullest bucket found in O(1): the HPCC reference sends the fullest
// bucket when the look-ahead budget is used up. All buckets share one pool
// of `capacity` slots, so memory is O(capacity + destinations), not
// O(capacity x destinations).
//
// Among buckets equally full the one that reached that count last is taken.
// Up to kScannedDestinations destinations that one is found by a scan when
// a bucket is taken, from each bucket's count and the number of its last
// insert: an insert is then half the work of keeping the destinations in
// lists by count, as more destinations need, and the choice is the same.
//
// Where a segment of `capacity` words for every destination fits in
// kSegmentedWords (a few ranks, the reference's look-ahead), each bucket has
// its own: an insert is one store and a take one copy, where the pool's
// links are a pointer chase on every insert.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace gups {

// direct polls for incoming messages every this many updates. The reference
// polls before every update; every few keeps receivers just as responsive
// at a fraction of the MPI_Test calls (calibration spreads a poll's cost
// over as many updates).
inline constexpr std::uint64_t kDirectUpdatesPerPoll = 64;

class DestinationBuckets {
 public:
  static constexpr std::uint32_t kScannedDestinations = 64;
  static constexpr std::uint64_t kSegmentedWords = std::uint64_t{1} << 16;

  DestinationBuckets(std::uint32_t destinations, std::uint32_t capacity);

  std::uint32_t pending() const noexcept { return pending_; }
  std::uint32_t capacity() const noexcept { return capacity_; }
  bool segmented() const noexcept { return segmented_; }
  bool full() const noexcept { return pending_ == capacity(); }
  std::uint32_t count(std::uint32_t destination) const noexcept { return count_[destination]; }

  // Precondition: !full(). Inline: direct inserts half its updates, and a
  // call from another library reloads every array's address each time.
  void insert(std::uint32_t destination, std::uint64_t update);

  // Appends the fullest bucket's updates to `out` in insertion order, empties
  // it and returns its destination. Precondition: pending() > 0.
  std::uint32_t take_fullest(std::vector<std::uint64_t>& out);

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  void insert_into_pool(std::uint32_t destination, std::uint64_t update) noexcept;
  void unlink_from_count_list(std::uint32_t destination) noexcept;
  void link_into_count_list(std::uint32_t destination) noexcept;

  std::uint32_t capacity_;
  bool segmented_;
  std::vector<std::uint64_t> segment_words_;  // destination d's bucket from d x capacity

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

  // Up to kScannedDestinations: no count lists, but each bucket's last insert.
  bool scanned_;
  std::vector<std::uint64_t> last_insert_;
  std::uint64_t inserts_ = 0;
};

inline void DestinationBuckets::unlink_from_count_list(std::uint32_t destination) noexcept {
  const auto next = next_same_count_[destination];
  const auto prev = prev_same_count_[destination];
  if (prev != kNone) {
    next_same_count_[prev] = next;
  } else {
    count_list_head_[count_[destination]] = next;
  }
  if (next != kNone) prev_same_count_[next] = prev;
}

inline void DestinationBuckets::link_into_count_list(std::uint32_t destination) noexcept {
  const auto head = count_list_head_[count_[destination]];
  next_same_count_[destination] = head;
  prev_same_count_[destination] = kNone;
  if (head != kNone) prev_same_count_[head] = destination;
  count_list_head_[count_[destination]] = destination;
}

inline void DestinationBuckets::insert(std::uint32_t destination, std::uint64_t update) {
  if (full()) throw std::logic_error("insert into full destination buckets");
  if (segmented_) {
    segment_words_[std::uint64_t{destination} * capacity_ + count_[destination]] = update;
  } else {
    insert_into_pool(destination, update);
  }
  ++pending_;

  if (scanned_) {
    ++count_[destination];
    last_insert_[destination] = ++inserts_;
    return;
  }
  if (count_[destination] > 0) unlink_from_count_list(destination);
  ++count_[destination];
  link_into_count_list(destination);
  if (count_[destination] > highest_count_) highest_count_ = count_[destination];
}

inline void DestinationBuckets::insert_into_pool(std::uint32_t destination, std::uint64_t update) noexcept {
  const auto slot = free_slot_;
  free_slot_ = slot_next_[slot];
  slot_value_[slot] = update;
  slot_next_[slot] = kNone;
  if (bucket_tail_[destination] == kNone) {
    bucket_head_[destination] = slot;
  } else {
    slot_next_[bucket_tail_[destination]] = slot;
  }
  bucket_tail_[destination] = slot;
}

}  // namespace gups
