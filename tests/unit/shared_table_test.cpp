#include "kernel/core/shared_table.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "kernel/core/local_table.hpp"
#include "kernel/core/table_layout.hpp"

namespace gups {
namespace {

constexpr unsigned kLog2Words = 12;
constexpr std::uint64_t kUpdates = 4 << kLog2Words;

// The table after the whole stream, applied by `threads` threads in stretches.
LocalTable updated_by_threads(unsigned threads, Protection protection, StripedLocks* locks) {
  LocalTable table(0, std::uint64_t{1} << kLog2Words);
  table.initialise();
  std::vector<std::jthread> workers;
  for (unsigned t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      const std::uint64_t first = kUpdates * t / threads, last = kUpdates * (t + 1) / threads;
      apply_shared_segment(table.words(), first, last - first, protection, locks);
    });
  }
  workers.clear();
  return table;
}

TEST(SharedTable, OneThreadGivesTheSerialTableWhateverTheProtection) {
  const TableLayout layout(kLog2Words, 1);
  const auto reference = serial_checksums(layout, 0, kUpdates);
  StripedLocks locks(3);
  for (const auto protection : {Protection::none, Protection::atomic, Protection::locks}) {
    EXPECT_EQ(updated_by_threads(1, protection, &locks).checksums(), reference) << to_string(protection);
  }
}

TEST(SharedTable, ProtectedUpdatesFromManyThreadsLoseNothing) {
  const TableLayout layout(kLog2Words, 1);
  const auto reference = serial_checksums(layout, 0, kUpdates);
  StripedLocks one(1), striped(16);
  EXPECT_EQ(updated_by_threads(4, Protection::atomic, nullptr).checksums(), reference);
  EXPECT_EQ(updated_by_threads(4, Protection::locks, &one).checksums(), reference);
  EXPECT_EQ(updated_by_threads(4, Protection::locks, &striped).checksums(), reference);
}

TEST(SharedTable, ApplyingTheStreamAgainUndoesIt) {
  auto table = updated_by_threads(2, Protection::atomic, nullptr);
  apply_shared_segment(table.words(), 0, kUpdates, Protection::atomic, nullptr);
  EXPECT_EQ(table.count_errors(), 0u);
}

TEST(SharedTable, StripedLocksGuardWordsByTheirIndexModuloTheCount) {
  alignas(StripedLocks::kLine) std::byte memory[StripedLocks::bytes(4)];
  StripedLocks locks(memory, 4);
  locks.clear();
  EXPECT_EQ(locks.count(), 4u);
  locks.lock(3);
  // Word 7 shares word 3's lock; word 4 has its own, free.
  const auto held = [&](std::size_t lock) { return *reinterpret_cast<std::uint32_t*>(memory + 64 * lock) != 0; };
  EXPECT_TRUE(held(3));
  EXPECT_FALSE(held(0));
  locks.lock(4);
  EXPECT_TRUE(held(0));
  locks.unlock(7);
  EXPECT_FALSE(held(3));
  locks.unlock(4);
  EXPECT_THROW(StripedLocks(0), std::invalid_argument);
  std::vector<std::uint64_t> words(8, 0);
  EXPECT_THROW(apply_shared_segment(words, 0, 1, Protection::locks, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace gups
