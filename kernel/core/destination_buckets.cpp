#include "kernel/core/destination_buckets.hpp"

#include <stdexcept>

namespace gups {

DestinationBuckets::DestinationBuckets(std::uint32_t destinations, std::uint32_t capacity)
    : slot_value_(capacity),
      slot_next_(capacity),
      bucket_head_(destinations, kNone),
      bucket_tail_(destinations, kNone),
      count_(destinations, 0),
      count_list_head_(capacity + 1, kNone),
      next_same_count_(destinations, kNone),
      prev_same_count_(destinations, kNone) {
  if (destinations == 0 || capacity == 0) {
    throw std::invalid_argument("destination buckets need destinations and capacity");
  }
  for (std::uint32_t slot = 0; slot < capacity; ++slot) {
    slot_next_[slot] = slot + 1 < capacity ? slot + 1 : kNone;
  }
}

void DestinationBuckets::unlink_from_count_list(std::uint32_t destination) noexcept {
  const auto next = next_same_count_[destination];
  const auto prev = prev_same_count_[destination];
  if (prev != kNone) {
    next_same_count_[prev] = next;
  } else {
    count_list_head_[count_[destination]] = next;
  }
  if (next != kNone) prev_same_count_[next] = prev;
}

void DestinationBuckets::link_into_count_list(std::uint32_t destination) noexcept {
  const auto head = count_list_head_[count_[destination]];
  next_same_count_[destination] = head;
  prev_same_count_[destination] = kNone;
  if (head != kNone) prev_same_count_[head] = destination;
  count_list_head_[count_[destination]] = destination;
}

void DestinationBuckets::insert(std::uint32_t destination, std::uint64_t update) {
  if (full()) throw std::logic_error("insert into full destination buckets");
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

  if (count_[destination] > 0) unlink_from_count_list(destination);
  ++count_[destination];
  link_into_count_list(destination);
  if (count_[destination] > highest_count_) highest_count_ = count_[destination];
  ++pending_;
}

std::uint32_t DestinationBuckets::take_fullest(std::vector<std::uint64_t>& out) {
  if (pending_ == 0) throw std::logic_error("take from empty destination buckets");
  while (count_list_head_[highest_count_] == kNone) --highest_count_;
  const auto destination = count_list_head_[highest_count_];
  unlink_from_count_list(destination);

  auto slot = bucket_head_[destination];
  while (slot != kNone) {
    out.push_back(slot_value_[slot]);
    const auto next = slot_next_[slot];
    slot_next_[slot] = free_slot_;
    free_slot_ = slot;
    slot = next;
  }
  pending_ -= count_[destination];
  count_[destination] = 0;
  bucket_head_[destination] = kNone;
  bucket_tail_[destination] = kNone;
  return destination;
}

}  // namespace gups
