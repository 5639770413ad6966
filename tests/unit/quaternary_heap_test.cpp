#include "sim/smpi/quaternary_heap.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace gups {
namespace {

struct Timed {
  double time;
  std::uint64_t order;  // unique: breaks equal times
  bool before(const Timed& other) const {
    return time < other.time || (time == other.time && order < other.order);
  }
};

TEST(QuaternaryHeap, PopsInOrderWhateverThePushesAndPopsInterleaved) {
  std::mt19937_64 random(7);
  QuaternaryHeap<Timed> heap;
  std::vector<Timed> reference;  // what the heap holds
  std::uint64_t next = 0;
  for (int step = 0; step < 20000; ++step) {
    if (reference.empty() || random() % 3 != 0) {
      const Timed entry{static_cast<double>(random() % 50), next++};  // many equal times
      heap.push(entry);
      reference.push_back(entry);
      continue;
    }
    const auto least = std::min_element(reference.begin(), reference.end(),
                                        [](const Timed& a, const Timed& b) { return a.before(b); });
    ASSERT_EQ(heap.front().order, least->order);
    ASSERT_EQ(heap.pop().order, least->order);
    reference.erase(least);
  }
  EXPECT_EQ(heap.empty(), reference.empty());
}

}  // namespace
}  // namespace gups
