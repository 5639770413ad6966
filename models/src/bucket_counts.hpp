// The counts of DestinationBuckets (kernel/core/destination_buckets.hpp)
// alone, for replaying the direct algorithm's message sizes in the model:
// the same fullest bucket taken (among equally full, the one that reached
// that count last), in memory that grows with the look-ahead, not with the
// destinations. The kernel's buckets keep arrays over every destination, and
// a 48-core node's 7.6 million processes make each insert a few cache misses;
// at most `capacity` destinations hold anything, and a table of them fits in
// cache.
#pragma once

#include <cstdint>
#include <vector>

namespace gups::model {

class BucketCounts {
 public:
  explicit BucketCounts(std::uint32_t capacity);

  bool full() const noexcept { return pending_ == capacity_; }
  // Precondition: !full().
  void insert(std::uint32_t destination);
  // Empties the fullest bucket and returns how many it held. Precondition: something is pending.
  std::uint32_t take_fullest();

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  std::uint32_t home(std::uint32_t destination) const noexcept;
  std::uint32_t find_or_add(std::uint32_t destination);
  void forget(std::uint32_t slot);
  void unlink(std::uint32_t slot) noexcept;
  void link(std::uint32_t slot) noexcept;

  std::uint32_t capacity_;
  std::uint32_t pending_ = 0;
  std::uint32_t highest_count_ = 0;
  // An open-addressed table (linear probing) from destination to slot.
  std::uint32_t mask_;
  std::vector<std::uint32_t> table_;
  // Each holding destination's slot: its destination, count, and its place in its count's list (newest first).
  std::vector<std::uint32_t> destination_, count_, next_, prev_;
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::uint32_t> count_head_;
};

}  // namespace gups::model
