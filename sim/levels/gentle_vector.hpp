// The packet level's bookings live in vectors that grow at the back or in
// the middle and are forgotten from the front. Behind a saturated cut they
// hold every packet booked ahead (4,096 nodes of bisection: millions), and
// a vector doubled when full leaves up to half of its memory unused at the
// peak. These grow by a quarter, and give back what forgetting freed.
#pragma once

#include <cstddef>
#include <vector>

namespace gups {

// Room for one more, at a quarter more than now when it is full.
template <typename T>
void make_room_for_one(std::vector<T>& v) {
  if (v.size() == v.capacity()) v.reserve(v.size() + v.size() / 4 + 8);
}

// After a forget: memory back when less than half of it is in use.
template <typename T>
void give_back_unused(std::vector<T>& v) {
  if (v.capacity() > 2 * v.size() + 64) v.shrink_to_fit();
}

}  // namespace gups
