// A min-heap of small entries with four children a node: half the levels of
// a binary heap, and each node's children in one cache line when an entry is
// 16 bytes. The alarm clock keeps its sleeps and its operations in two.
// `Entry::before(other)` orders them; equal entries must not occur.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace gups {

template <typename Entry>
class QuaternaryHeap {
 public:
  bool empty() const noexcept { return entries_.empty(); }
  const Entry& front() const noexcept { return entries_.front(); }

  void push(const Entry& entry) {
    entries_.push_back(entry);
    std::size_t at = entries_.size() - 1;
    while (at > 0) {
      const std::size_t parent = (at - 1) / kArity;
      if (!entry.before(entries_[parent])) break;
      entries_[at] = entries_[parent];
      at = parent;
    }
    entries_[at] = entry;
  }

  Entry pop() {
    const Entry first = entries_.front();
    const Entry moving = entries_.back();
    entries_.pop_back();
    const std::size_t size = entries_.size();
    if (size == 0) return first;
    std::size_t at = 0;
    for (;;) {
      const std::size_t child = at * kArity + 1;
      if (child >= size) break;
      std::size_t least = child;
      for (std::size_t c = child + 1; c < std::min(child + kArity, size); ++c) {
        if (entries_[c].before(entries_[least])) least = c;
      }
      if (!entries_[least].before(moving)) break;
      entries_[at] = entries_[least];
      at = least;
    }
    entries_[at] = moving;
    return first;
  }

 private:
  static constexpr std::size_t kArity = 4;
  std::vector<Entry> entries_;
};

}  // namespace gups
