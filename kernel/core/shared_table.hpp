// One table updated by several cores at once, as when a node's cores share
// its table (mapping modes 5 to 7 of the paper's Table 1), and what keeps
// their updates from undoing each other: nothing (a read and a write that
// another core's update can fall between, losing one of the two), an atomic
// XOR, or a lock per stripe of words. Free of MPI: threads of one process
// or ranks sharing a window both use it.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace gups {

enum class Protection { none, atomic, locks };

std::string to_string(Protection protection);

// Word i is guarded by lock i mod N, each lock on a cache line of its own.
class StripedLocks {
 public:
  explicit StripedLocks(unsigned count);
  unsigned count() const noexcept { return static_cast<unsigned>(locks_.size()); }
  std::mutex& of(std::uint64_t word) noexcept { return locks_[word % locks_.size()].mutex; }

 private:
  struct alignas(64) PaddedMutex {
    std::mutex mutex;
  };
  std::vector<PaddedMutex> locks_;
};

// Applies steps first_step+1 ... first_step+count of the HPCC stream to
// `table` (all of a power-of-two table), protected as asked; `locks` is used
// with Protection::locks only. Safe to call from several threads at once on
// one table: with `none`, concurrent updates of one word may lose one.
void apply_shared_segment(std::span<std::uint64_t> table, std::uint64_t first_step, std::uint64_t count,
                          Protection protection, StripedLocks* locks);

}  // namespace gups
