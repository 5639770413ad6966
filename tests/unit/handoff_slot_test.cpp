#include "kernel/core/handoff_slot.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

namespace gups {
namespace {

struct AlignedFree {
  void operator()(void* memory) const noexcept { std::free(memory); }
};

std::unique_ptr<void, AlignedFree> slot_memory(std::size_t capacity) {
  return std::unique_ptr<void, AlignedFree>(std::aligned_alloc(HandoffSlot::kAlignment, HandoffSlot::bytes(capacity)));
}

TEST(HandoffSlot, LaysOutTheSendersAndTheReceiversWordsOnLinesOfTheirOwn) {
  EXPECT_EQ(HandoffSlot::bytes(0), 128u);
  EXPECT_EQ(HandoffSlot::bytes(1), 192u);
  EXPECT_EQ(HandoffSlot::bytes(8), 192u);
  EXPECT_EQ(HandoffSlot::bytes(9), 256u);
}

TEST(HandoffSlot, AMessageStaysTheSendersUntilTaken) {
  auto memory = slot_memory(4);
  HandoffSlot sender(memory.get(), 4), receiver(memory.get(), 4);
  sender.clear();
  std::vector<std::uint64_t> out(4, 0);
  EXPECT_TRUE(sender.empty());
  EXPECT_FALSE(receiver.take(out.data(), out.size()).has_value());

  const std::uint64_t message[] = {7, 8, 9};
  sender.publish(message, 3);
  EXPECT_FALSE(sender.empty());
  EXPECT_THROW(sender.publish(message, 1), std::logic_error);

  const auto count = receiver.take(out.data(), out.size());
  ASSERT_TRUE(count.has_value());
  EXPECT_EQ(*count, 3u);
  EXPECT_EQ(out, (std::vector<std::uint64_t>{7, 8, 9, 0}));
  EXPECT_TRUE(sender.empty());
  EXPECT_FALSE(receiver.take(out.data(), out.size()).has_value());
}

TEST(HandoffSlot, AnEmptyMessageIsAMessage) {
  auto memory = slot_memory(2);
  HandoffSlot slot(memory.get(), 2);
  slot.clear();
  slot.publish(nullptr, 0);
  std::uint64_t out[2];
  const auto count = slot.take(out, 2);
  ASSERT_TRUE(count.has_value());
  EXPECT_EQ(*count, 0u);
}

TEST(HandoffSlot, RefusesWhatDoesNotFit) {
  auto memory = slot_memory(2);
  HandoffSlot slot(memory.get(), 2);
  slot.clear();
  const std::uint64_t message[] = {1, 2, 3};
  EXPECT_THROW(slot.publish(message, 3), std::length_error);
  slot.publish(message, 2);
  std::uint64_t out[1];
  EXPECT_THROW(slot.take(out, 1), std::length_error);
  EXPECT_FALSE(slot.empty());  // still there for a buffer that fits
}

// Two threads, as two cores of a node: every value arrives once, in order,
// and none is torn, over many hand-offs of varying length.
TEST(HandoffSlot, CarriesEveryValueOnceInOrderBetweenThreads) {
  constexpr std::size_t kCapacity = 37;
  constexpr std::uint64_t kValues = 200'000;
  auto memory = slot_memory(kCapacity);
  HandoffSlot(memory.get(), kCapacity).clear();

  std::thread sender([&] {
    HandoffSlot slot(memory.get(), kCapacity);
    std::vector<std::uint64_t> bucket;
    std::uint64_t next = 1;
    while (next <= kValues) {
      bucket.clear();
      const std::size_t length = 1 + next % kCapacity;
      while (bucket.size() < length && next <= kValues) bucket.push_back(next++);
      while (!slot.empty()) std::this_thread::yield();
      slot.publish(bucket.data(), bucket.size());
    }
    while (!slot.empty()) std::this_thread::yield();
    slot.publish(nullptr, 0);  // done
  });

  HandoffSlot slot(memory.get(), kCapacity);
  std::vector<std::uint64_t> buffer(kCapacity);
  std::uint64_t expected = 1;
  bool in_order = true;
  for (;;) {
    const auto count = slot.take(buffer.data(), buffer.size());
    if (!count) {
      std::this_thread::yield();
      continue;
    }
    if (*count == 0) break;
    for (std::size_t i = 0; i < *count; ++i) in_order &= buffer[i] == expected++;
  }
  sender.join();
  EXPECT_TRUE(in_order);
  EXPECT_EQ(expected, kValues + 1);
}

}  // namespace
}  // namespace gups
