// The packet level's head-of-line rule against every passage kept, as the
// level first kept them: under a random mix of passages (ties included),
// forgetting and questions at or after the last forgetting, the answers are
// the same, and what is kept stays small.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "sim/levels/fifo_passages.hpp"

namespace gups {
namespace {

struct AllPassages {
  std::vector<std::pair<double, double>> kept;  // (in, out)
  double clear_after(double in) const {
    double clear = 0;
    for (const auto& [i, o] : kept) {
      if (i <= in) clear = std::max(clear, o);
    }
    return clear;
  }
  void forget_before(double now) {
    std::erase_if(kept, [now](const auto& p) { return p.second <= now; });
  }
};

TEST(FifoPassages, AnswersAsEveryPassageKeptDoes) {
  std::mt19937 rng(17);
  // Whole times in a small range: equal ins, equal outs and outs equal to now are common.
  std::uniform_int_distribution<int> ahead(0, 40), stay(0, 30);
  FifoPassages frontier;
  AllPassages all;
  int now = 0;
  std::size_t most_kept = 0;
  for (int step = 0; step < 200000; ++step) {
    const unsigned what = rng() % 10;
    if (what < 5) {
      const int in = now + ahead(rng);
      const int out = in + stay(rng);
      frontier.pass(in, out);
      all.kept.emplace_back(in, out);
    } else if (what < 6) {
      now += static_cast<int>(rng() % 4);
      frontier.forget_before(now);
      all.forget_before(now);
    } else {
      const double in = now + ahead(rng) + (rng() % 2 ? 0.5 : 0.0);
      ASSERT_EQ(std::max<double>(now, frontier.clear_after(in)), std::max<double>(now, all.clear_after(in)))
          << "asked at " << in << ", now " << now << ", step " << step;
    }
    most_kept = std::max(most_kept, frontier.kept());
  }
  EXPECT_LT(most_kept, 80u);  // at most one passage per whole time ahead
}

TEST(FifoPassages, ALaterPassageThatLeavesLaterIsKeptAndAnEarlierOneThatLeavesEarlierIsNot) {
  FifoPassages passages;
  passages.pass(1, 10);
  passages.pass(2, 5);  // came in later, left earlier: never the answer
  EXPECT_EQ(passages.kept(), 1u);
  EXPECT_EQ(passages.clear_after(3), 10);
  passages.pass(4, 12);
  EXPECT_EQ(passages.clear_after(3), 10);
  EXPECT_EQ(passages.clear_after(4), 12);
  EXPECT_EQ(passages.clear_after(0.5), 0);
  passages.pass(0, 20);  // came in first and leaves last: the only answer from now on
  EXPECT_EQ(passages.kept(), 1u);
  EXPECT_EQ(passages.clear_after(4), 20);
  passages.forget_before(20);
  EXPECT_EQ(passages.kept(), 0u);
}

}  // namespace
}  // namespace gups
