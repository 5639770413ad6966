// The issue of one core whose hardware threads are several simulated ranks:
// the spans of simulated time it is taken, so that one thread's
// instructions fill the gaps the others leave while they wait on memory.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <limits>
#include <map>

namespace gups {

class IssuePort {
 public:
  // Takes `seconds` of issue from `from` on (not before `now`), in the first
  // free spans; returns when the last of it is issued. Spans that ended by
  // `now` are forgotten: no thread can issue before it.
  double take(double now, double from, double seconds) {
    while (!busy_.empty() && busy_.begin()->second <= now) busy_.erase(busy_.begin());
    double t = std::max(from, now), left = seconds;
    while (left > 0) {
      auto next = busy_.upper_bound(t);
      if (next != busy_.begin()) {
        const auto previous = std::prev(next);
        if (previous->second > t) {
          t = previous->second;
          continue;
        }
      }
      const double free_until = next == busy_.end() ? std::numeric_limits<double>::infinity() : next->first;
      const double piece = std::min(left, free_until - t);
      mark(t, t + piece);
      t += piece;
      left -= piece;
    }
    return t;
  }
  // Disjoint busy spans held (they join where they touch).
  std::size_t spans() const noexcept { return busy_.size(); }

 private:
  // [from, to) lies in a free span: joined with the spans it touches.
  void mark(double from, double to) {
    auto next = busy_.lower_bound(from);
    if (next != busy_.end() && next->first <= to) {
      to = next->second;
      next = busy_.erase(next);
    }
    if (next != busy_.begin()) {
      const auto previous = std::prev(next);
      if (previous->second >= from) {
        previous->second = to;
        return;
      }
    }
    busy_.emplace(from, to);
  }

  std::map<double, double> busy_;  // start -> end
};

}  // namespace gups
