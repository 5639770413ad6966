// A core's own updates, each written kLag of its own updates after its word
// was asked for: about what a core's line fill buffers hold in flight (Intel
// 12-16, AMD 22-24), measured best at 32-64 on 2^25-word tables and 20%
// faster than writing each batch's own updates right after it. So the table's
// misses overlap as those of a plain serial loop do, across batches and polls.
// Updates are added without a branch (whose an update is cannot be
// predicted, and a mispredicted branch cuts the misses in flight short):
// every update is stored, only this core's are kept. `direct` and the
// routing cores of `routed` and `multicore` write through it.
#pragma once

#include <cstdint>

#include "kernel/core/table_layout.hpp"

namespace gups {

class DeferredWrites {
 public:
  static constexpr std::uint64_t kLag = 32;
  static constexpr std::uint64_t kRing = 128;  // a power of two
  // A caller writes after at most this many adds, so that none is overwritten.
  static constexpr std::uint64_t kMostAddsBetweenWrites = kRing - kLag;

  // Keeps `update` when `here` (this core's), drops it otherwise.
  void add(std::uint64_t update, bool here) noexcept {
    ring_[written_ % kRing] = update;
    written_ += static_cast<std::uint64_t>(here);  // as `here ? 1 : 0`, g++ 12 made direct's loop branch again
  }

  // A loop's adds, with the count in a register until the batch ends: a
  // store into a bucket or the table (a uint64_t, as the count) would make
  // the compiler read a member count again after it. Nothing may write or
  // add through the DeferredWrites itself while a batch is open.
  class Batch {
   public:
    explicit Batch(DeferredWrites& writes) noexcept : writes_(writes), written_(writes.written_) {}
    ~Batch() { writes_.written_ = written_; }
    Batch(const Batch&) = delete;
    Batch& operator=(const Batch&) = delete;
    void add(std::uint64_t update, bool here) noexcept {
      writes_.ring_[written_ % kRing] = update;
      written_ += static_cast<std::uint64_t>(here);
    }

   private:
    DeferredWrites& writes_;
    std::uint64_t written_;
  };

  // Writes all but the last `keep` kept updates into `table` (a table view:
  // LocalTable::View or ProtectedTable).
  template <typename Table>
  void write(const Table& table, const TableLayout& layout, std::uint64_t keep) noexcept {
    for (; written_ - applied_ > keep; ++applied_) {
      const std::uint64_t update = ring_[applied_ % kRing];
      table.apply(layout.index_of(update), update);
    }
  }
  void write_lagging(const auto& table, const TableLayout& layout) noexcept { write(table, layout, kLag); }
  void write_all(const auto& table, const TableLayout& layout) noexcept { write(table, layout, 0); }

  std::uint64_t kept() const noexcept { return written_; }

 private:
  std::uint64_t ring_[kRing]{};
  std::uint64_t written_ = 0;  // kept, over the run
  std::uint64_t applied_ = 0;  // written into the table
};

}  // namespace gups
