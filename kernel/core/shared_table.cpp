#include "kernel/core/shared_table.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>
#include <stdexcept>

#include "kernel/core/hpcc_stream.hpp"

namespace gups {

namespace {

constexpr Protection kProtections[] = {Protection::none, Protection::atomic, Protection::locks};

}  // namespace

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

const std::vector<std::string>& protection_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const auto protection : kProtections) all.push_back(to_string(protection));
    return all;
  }();
  return names;
}

Protection protection_named(const std::string& name) {
  for (const auto protection : kProtections) {
    if (to_string(protection) == name) return protection;
  }
  throw std::invalid_argument("no protection named '" + name + "'");
}

StripedLocks::StripedLocks(void* memory, unsigned count) : base_(static_cast<std::byte*>(memory)), count_(count) {
  if (count == 0) throw std::invalid_argument("striped locks: at least one lock");
}

namespace {

void* allocate_lines(unsigned count) {
  if (count == 0) throw std::invalid_argument("striped locks: at least one lock");
  void* lines = std::aligned_alloc(StripedLocks::kLine, StripedLocks::bytes(count));
  if (lines == nullptr) throw std::bad_alloc();
  return lines;
}

}  // namespace

StripedLocks::StripedLocks(unsigned count) : StripedLocks(allocate_lines(count), count) {
  owned_.reset(base_);
  clear();
}

void StripedLocks::FreeLines::operator()(std::byte* lines) const noexcept { std::free(lines); }

void StripedLocks::clear() noexcept {
  for (unsigned i = 0; i < count_; ++i) std::atomic_ref<std::uint32_t>(cell(i)).store(0, std::memory_order_relaxed);
}

void StripedLocks::lock(std::uint64_t word) noexcept {
  std::atomic_ref<std::uint32_t> flag(cell(word));
  while (flag.exchange(1, std::memory_order_acquire) != 0) {
    // Wait reading, not writing, so the line stays shared until it is free.
    while (flag.load(std::memory_order_relaxed) != 0) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
  }
}

void StripedLocks::unlock(std::uint64_t word) noexcept {
  std::atomic_ref<std::uint32_t>(cell(word)).store(0, std::memory_order_release);
}

void apply_shared_segment(std::span<std::uint64_t> table, std::uint64_t first_step, std::uint64_t count,
                          Protection protection, StripedLocks* locks) {
  if (protection == Protection::locks && locks == nullptr) throw std::invalid_argument("locks asked for and none given");
  ProtectedTable shared(table.data(), 0, protection, locks);
  const std::uint64_t mask = table.size() - 1;
  std::uint64_t random = starts(first_step);
  for (std::uint64_t i = 0; i < count; ++i) {
    random = next_random(random);
    shared.apply(random & mask, random);
  }
}

}  // namespace gups
