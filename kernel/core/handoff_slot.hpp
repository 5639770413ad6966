// A hand-off from one core to another core of its node, through memory both
// share: one slot, filled by one sender and emptied by one receiver. A
// message stays the sender's until the receiver has copied it out, as with a
// synchronous MPI send, so a node's look-ahead budget keeps counting its
// updates until the receiving core holds them. Free of MPI: the slot lives
// in whatever memory the caller gives it (a node's MPI-3 shared window, or
// a test's buffer shared by threads).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>

namespace gups {

class HandoffSlot {
 public:
  static constexpr std::size_t kAlignment = 64;

  // Memory one slot of `capacity` updates needs: its own cache lines for
  // what the sender writes and for what the receiver writes, then the data.
  static constexpr std::size_t bytes(std::size_t capacity) noexcept {
    return kDataOffset + round_up(capacity * sizeof(std::uint64_t));
  }

  // `memory`: bytes(capacity) bytes, aligned to kAlignment. The slot's
  // creator calls clear() once, before either side uses it.
  HandoffSlot(void* memory, std::size_t capacity) noexcept
      : base_(static_cast<std::byte*>(memory)), capacity_(capacity) {}

  void clear() noexcept {
    published().store(0, std::memory_order_relaxed);
    taken().store(0, std::memory_order_relaxed);
    *count_cell() = 0;
  }

  std::size_t capacity() const noexcept { return capacity_; }

  // Sender: the last message published has been taken (or none was).
  bool empty() const noexcept {
    return taken().load(std::memory_order_acquire) == published().load(std::memory_order_relaxed);
  }

  // Sender, when empty(): copies the message in; count 0 is a message too.
  void publish(const std::uint64_t* data, std::size_t count) {
    if (count > capacity_) throw std::length_error("hand-off larger than its slot");
    if (!empty()) throw std::logic_error("hand-off published over one not yet taken");
    if (count > 0) std::memcpy(data_cells(), data, count * sizeof(std::uint64_t));
    *count_cell() = count;
    published().fetch_add(1, std::memory_order_release);
  }

  // Receiver: copies the waiting message, if any, into `out` and frees the
  // slot; returns its count.
  std::optional<std::size_t> take(std::uint64_t* out, std::size_t out_capacity) {
    const std::uint64_t sequence = published().load(std::memory_order_acquire);
    if (sequence == taken().load(std::memory_order_relaxed)) return std::nullopt;
    const std::size_t count = *count_cell();
    if (count > out_capacity) throw std::length_error("hand-off larger than the buffer taking it");
    if (count > 0) std::memcpy(out, data_cells(), count * sizeof(std::uint64_t));
    taken().store(sequence, std::memory_order_release);
    return count;
  }

 private:
  static constexpr std::size_t round_up(std::size_t n) noexcept {
    return (n + kAlignment - 1) / kAlignment * kAlignment;
  }
  // Line 0: the sender's sequence and count; line 1: the receiver's sequence.
  static constexpr std::size_t kTakenOffset = kAlignment;
  static constexpr std::size_t kDataOffset = 2 * kAlignment;

  std::atomic_ref<std::uint64_t> published() const noexcept {
    return std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(base_));
  }
  std::atomic_ref<std::uint64_t> taken() const noexcept {
    return std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(base_ + kTakenOffset));
  }
  std::size_t* count_cell() const noexcept {
    return reinterpret_cast<std::size_t*>(base_ + sizeof(std::uint64_t));
  }
  std::uint64_t* data_cells() const noexcept { return reinterpret_cast<std::uint64_t*>(base_ + kDataOffset); }

  std::byte* base_;
  std::size_t capacity_;
};

}  // namespace gups
