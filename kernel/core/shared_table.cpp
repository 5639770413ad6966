#include "shared_table.hpp"

#include <atomic>
#include <stdexcept>

#include "hpcc_stream.hpp"

namespace gups {

std::string to_string(Protection protection) {
  switch (protection) {
    case Protection::none:
      return "none";
    case Protection::atomic:
      return "atomic";
    case Protection::locks:
      return "locks";
  }
  return "?";
}

StripedLocks::StripedLocks(unsigned count) : locks_(count) {
  if (count == 0) throw std::invalid_argument("striped locks: at least one lock");
}

namespace {

// The loop of each protection, apart, so that none pays another's branch.
template <typename Update>
void for_each_update(std::uint64_t first_step, std::uint64_t count, std::uint64_t mask, Update update) {
  std::uint64_t random = starts(first_step);
  for (std::uint64_t i = 0; i < count; ++i) {
    random = next_random(random);
    update(random & mask, random);
  }
}

}  // namespace

void apply_shared_segment(std::span<std::uint64_t> table, std::uint64_t first_step, std::uint64_t count,
                          Protection protection, StripedLocks* locks) {
  const std::uint64_t mask = table.size() - 1;
  std::uint64_t* words = table.data();
  switch (protection) {
    case Protection::none:
      // A load and a store, each atomic on its own (so the race is the
      // hardware's, not undefined behaviour): the same instructions as
      // `words[i] ^= random`, and the same window for another core.
      for_each_update(first_step, count, mask, [words](std::uint64_t i, std::uint64_t random) {
        std::atomic_ref<std::uint64_t> word(words[i]);
        word.store(word.load(std::memory_order_relaxed) ^ random, std::memory_order_relaxed);
      });
      return;
    case Protection::atomic:
      for_each_update(first_step, count, mask, [words](std::uint64_t i, std::uint64_t random) {
        std::atomic_ref<std::uint64_t>(words[i]).fetch_xor(random, std::memory_order_relaxed);
      });
      return;
    case Protection::locks:
      if (locks == nullptr) throw std::invalid_argument("locks asked for and none given");
      for_each_update(first_step, count, mask, [words, locks](std::uint64_t i, std::uint64_t random) {
        const std::lock_guard guard(locks->of(i));
        words[i] ^= random;
      });
      return;
  }
}

}  // namespace gups
