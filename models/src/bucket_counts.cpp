#include "models/src/bucket_counts.hpp"

#include <stdexcept>

namespace gups::model {

BucketCounts::BucketCounts(std::uint32_t capacity)
    : capacity_(capacity),
      destination_(capacity),
      count_(capacity, 0),
      next_(capacity, kNone),
      prev_(capacity, kNone),
      count_head_(capacity + 1, kNone) {
  if (capacity == 0) throw std::invalid_argument("bucket counts need a capacity");
  std::uint32_t size = 4;
  while (size < 2 * capacity) size *= 2;  // at most half full: short probes
  mask_ = size - 1;
  table_.assign(size, kNone);
  free_slots_.reserve(capacity);
  for (std::uint32_t slot = capacity; slot-- > 0;) free_slots_.push_back(slot);
}

std::uint32_t BucketCounts::home(std::uint32_t destination) const noexcept {
  return static_cast<std::uint32_t>((std::uint64_t{destination} * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
}

std::uint32_t BucketCounts::find_or_add(std::uint32_t destination) {
  std::uint32_t at = home(destination);
  while (table_[at] != kNone) {
    if (destination_[table_[at]] == destination) return table_[at];
    at = (at + 1) & mask_;
  }
  const auto slot = free_slots_.back();
  free_slots_.pop_back();
  destination_[slot] = destination;
  count_[slot] = 0;
  table_[at] = slot;
  return slot;
}

// Linear probing's deletion by shifting back the entries a probe passes.
void BucketCounts::forget(std::uint32_t slot) {
  std::uint32_t hole = home(destination_[slot]);
  while (table_[hole] != slot) hole = (hole + 1) & mask_;
  for (std::uint32_t at = (hole + 1) & mask_; table_[at] != kNone; at = (at + 1) & mask_) {
    const auto wanted = home(destination_[table_[at]]);
    // The entry may fill the hole unless its home lies cyclically in (hole, at].
    if (((at - wanted) & mask_) >= ((at - hole) & mask_)) {
      table_[hole] = table_[at];
      hole = at;
    }
  }
  table_[hole] = kNone;
  free_slots_.push_back(slot);
}

void BucketCounts::unlink(std::uint32_t slot) noexcept {
  if (prev_[slot] != kNone) {
    next_[prev_[slot]] = next_[slot];
  } else {
    count_head_[count_[slot]] = next_[slot];
  }
  if (next_[slot] != kNone) prev_[next_[slot]] = prev_[slot];
}

void BucketCounts::link(std::uint32_t slot) noexcept {
  const auto head = count_head_[count_[slot]];
  prev_[slot] = kNone;
  next_[slot] = head;
  if (head != kNone) prev_[head] = slot;
  count_head_[count_[slot]] = slot;
}

void BucketCounts::insert(std::uint32_t destination) {
  if (full()) throw std::logic_error("insert into full bucket counts");
  const auto slot = find_or_add(destination);
  if (count_[slot] > 0) unlink(slot);
  ++count_[slot];
  link(slot);
  if (count_[slot] > highest_count_) highest_count_ = count_[slot];
  ++pending_;
}

std::uint32_t BucketCounts::take_fullest() {
  if (pending_ == 0) throw std::logic_error("take from empty bucket counts");
  while (count_head_[highest_count_] == kNone) --highest_count_;
  const auto slot = count_head_[highest_count_];
  unlink(slot);
  const auto taken = count_[slot];
  pending_ -= taken;
  count_[slot] = 0;
  forget(slot);
  return taken;
}

}  // namespace gups::model
