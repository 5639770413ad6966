#include "kernel/core/destination_buckets.hpp"

#include <stdexcept>

namespace gups {

DestinationBuckets::DestinationBuckets(std::uint32_t destinations, std::uint32_t capacity)
    : capacity_(capacity),
      segmented_(std::uint64_t{destinations} * capacity <= kSegmentedWords),
      segment_words_(segmented_ ? std::uint64_t{destinations} * capacity : 0),
      slot_value_(segmented_ ? 0 : capacity),
      slot_next_(segmented_ ? 0 : capacity),
      bucket_head_(segmented_ ? 0 : destinations, kNone),
      bucket_tail_(segmented_ ? 0 : destinations, kNone),
      count_(destinations, 0),
      count_list_head_(capacity + 1, kNone),
      next_same_count_(destinations, kNone),
      prev_same_count_(destinations, kNone),
      scanned_(destinations <= kScannedDestinations),
      last_insert_(scanned_ ? destinations : 0, 0) {
  if (destinations == 0 || capacity == 0) {
    throw std::invalid_argument("destination buckets need destinations and capacity");
  }
  for (std::uint32_t slot = 0; slot < slot_next_.size(); ++slot) {
    slot_next_[slot] = slot + 1 < slot_next_.size() ? slot + 1 : kNone;
  }
}

std::uint32_t DestinationBuckets::take_fullest(std::vector<std::uint64_t>& out) {
  if (pending_ == 0) throw std::logic_error("take from empty destination buckets");
  std::uint32_t destination = 0;
  if (scanned_) {
    for (std::uint32_t d = 1; d < count_.size(); ++d) {
      if (count_[d] > count_[destination] ||
          (count_[d] == count_[destination] && last_insert_[d] > last_insert_[destination])) {
        destination = d;
      }
    }
  } else {
    while (count_list_head_[highest_count_] == kNone) --highest_count_;
    destination = count_list_head_[highest_count_];
    unlink_from_count_list(destination);
  }

  if (segmented_) {
    const auto* segment = segment_words_.data() + std::uint64_t{destination} * capacity_;
    out.insert(out.end(), segment, segment + count_[destination]);
  } else {
    auto slot = bucket_head_[destination];
    while (slot != kNone) {
      out.push_back(slot_value_[slot]);
      const auto next = slot_next_[slot];
      slot_next_[slot] = free_slot_;
      free_slot_ = slot;
      slot = next;
    }
    bucket_head_[destination] = kNone;
    bucket_tail_[destination] = kNone;
  }
  pending_ -= count_[destination];
  count_[destination] = 0;
  return destination;
}

}  // namespace gups
