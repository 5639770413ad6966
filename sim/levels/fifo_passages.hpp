// When a FIFO buffer lets a packet go: after every packet whose head came in
// before it has left (head-of-line blocking). The packet level asks this at
// every hop of every packet it books, and under a saturated cut a buffer
// holds the passages of thousands of packets booked ahead.
//
// Only the passages that can answer are kept: one that came in no earlier
// than another and left no later never can. What is left rises in both
// times, so an answer is one binary search and forgetting the past drops a
// prefix, where a scan of every passage would take most of a saturated
// simulation's time.
#pragma once

#include <algorithm>
#include <vector>

#include "sim/levels/gentle_vector.hpp"

namespace gups {

class FifoPassages {
 public:
  // The latest time a packet that came in at or before `in` leaves; 0 when
  // none it keeps did. Exact for `in` at or after the last forget_before().
  double clear_after(double in) const {
    const auto after = first_in_after(passages_, in);
    return after == passages_.begin() ? 0 : (after - 1)->out;
  }

  // A packet whose head came in at `in` and whose tail left at `out`.
  void pass(double in, double out) {
    const auto after = first_in_after(passages_, in);
    if (after != passages_.begin() && (after - 1)->out >= out) return;  // one before it leaves later
    auto first = after;
    while (first != passages_.begin() && (first - 1)->in == in) --first;  // same in, left earlier
    auto last = after;
    while (last != passages_.end() && last->out <= out) ++last;  // came in later, left no later
    if (first == last) {
      const auto offset = first - passages_.begin();
      make_room_for_one(passages_);
      passages_.insert(passages_.begin() + offset, Passage{in, out});
    } else {
      *first = Passage{in, out};
      passages_.erase(first + 1, last);
    }
  }

  // Drops the packets gone by `now`: none of them can hold back a packet
  // that comes in after it.
  void forget_before(double now) {
    passages_.erase(passages_.begin(), std::partition_point(passages_.begin(), passages_.end(),
                                                            [now](const Passage& p) { return p.out <= now; }));
    give_back_unused(passages_);
  }

  std::size_t kept() const noexcept { return passages_.size(); }

 private:
  struct Passage {
    double in;   // its head came in
    double out;  // its tail had left
  };
  // The first passage that came in after `in` (const or not, as `passages`).
  static auto first_in_after(auto& passages, double in) -> decltype(passages.begin()) {
    return std::upper_bound(passages.begin(), passages.end(), in,
                            [](double time, const Passage& p) { return time < p.in; });
  }
  std::vector<Passage> passages_;  // by `in` and by `out`, both strictly rising
};

}  // namespace gups
