// One table updated by several cores at once, as when a node's cores share
// its table (mapping modes 5 to 7 of the paper's Table 1), and what keeps
// their updates from undoing each other: nothing (a read and a write that
// another core's update can fall between, losing one of the two), an atomic
// XOR, or a lock per stripe of words. Free of MPI: threads of one process
// or ranks sharing a window both use it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace gups {

enum class Protection { none, atomic, locks };

std::string to_string(Protection protection);
// "none", "atomic", "locks", as command lines take them.
const std::vector<std::string>& protection_names();
// std::invalid_argument for a name not in protection_names().
Protection protection_named(const std::string& name);

// Word i is guarded by lock i mod N, each a spin lock on a cache line of its
// own: in memory the locks own (threads of one process), or in memory the
// caller gives (a node's MPI-3 shared window, where ranks in several
// processes take them; a process-local mutex could not be shared so).
class StripedLocks {
 public:
  static constexpr std::size_t kLine = 64;
  static constexpr std::size_t bytes(unsigned count) noexcept { return count * kLine; }

  explicit StripedLocks(unsigned count);
  // `memory`: bytes(count), aligned to kLine; its creator calls clear() once.
  StripedLocks(void* memory, unsigned count);
  void clear() noexcept;

  unsigned count() const noexcept { return count_; }
  void lock(std::uint64_t word) noexcept;
  void unlock(std::uint64_t word) noexcept;

 private:
  std::uint32_t& cell(std::uint64_t word) const noexcept {
    return *reinterpret_cast<std::uint32_t*>(base_ + (word % count_) * kLine);
  }

  struct FreeLines {
    void operator()(std::byte* lines) const noexcept;
  };
  std::unique_ptr<std::byte[], FreeLines> owned_;
  std::byte* base_ = nullptr;
  unsigned count_ = 0;
};

// A node's table as its cores share it: writes go through the protection.
// `words` is the node's whole table, starting at global index `global_start`.
class ProtectedTable {
 public:
  ProtectedTable(std::uint64_t* words, std::uint64_t global_start, Protection protection, StripedLocks* locks)
      : words_(words), global_start_(global_start), protection_(protection), locks_(locks) {}

  // const: the words are not the table's own (as LocalTable::View's).
  void apply(std::uint64_t global_index, std::uint64_t random) const noexcept {
    const std::uint64_t i = global_index - global_start_;
    switch (protection_) {
      case Protection::none: {
        std::atomic_ref<std::uint64_t> word(words_[i]);
        word.store(word.load(std::memory_order_relaxed) ^ random, std::memory_order_relaxed);
        return;
      }
      case Protection::atomic:
        std::atomic_ref<std::uint64_t>(words_[i]).fetch_xor(random, std::memory_order_relaxed);
        return;
      case Protection::locks:
        locks_->lock(i);
        words_[i] ^= random;
        locks_->unlock(i);
        return;
    }
  }
  void prefetch(std::uint64_t global_index) const noexcept {
    __builtin_prefetch(&words_[global_index - global_start_], 1);
  }
  std::uint64_t global_start() const noexcept { return global_start_; }
  // Already a value a loop can keep (as LocalTable::View).
  ProtectedTable view() const noexcept { return *this; }

 private:
  std::uint64_t* words_;
  std::uint64_t global_start_;
  Protection protection_;
  StripedLocks* locks_;
};

// Applies steps first_step+1 ... first_step+count of the HPCC stream to
// `table` (all of a power-of-two table), protected as asked; `locks` is used
// with Protection::locks only. Safe to call from several threads at once on
// one table: with `none`, concurrent updates of one word may lose one.
void apply_shared_segment(std::span<std::uint64_t> table, std::uint64_t first_step, std::uint64_t count,
                          Protection protection, StripedLocks* locks);

}  // namespace gups
