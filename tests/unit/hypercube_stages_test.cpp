#include "kernel/core/hypercube_stages.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <vector>

#include "kernel/core/hpcc_stream.hpp"
#include "kernel/core/table_layout.hpp"

namespace gups {
namespace {

std::vector<std::vector<HypercubeStage>> every_process(int ranks) {
  std::vector<std::vector<HypercubeStage>> all;
  for (int rank = 0; rank < ranks; ++rank) all.push_back(hypercube_stages(rank, ranks));
  return all;
}

TEST(HypercubeStages, APowerOfTwoIsTheHypercubeItsNameSays) {
  // 8 processes: stage 0 pairs i with i + 4, stage 1 with i + 2 within each half, stage 2 with i + 1.
  const auto stages = hypercube_stages(5, 8);
  ASSERT_EQ(stages.size(), 3u);
  EXPECT_EQ(*stages[0].send_to, 1);
  EXPECT_EQ(*stages[1].send_to, 7);
  EXPECT_EQ(*stages[2].send_to, 4);
  for (const auto& stage : stages) EXPECT_EQ(stage.receive_from, std::vector<int>{*stage.send_to});
  EXPECT_TRUE(hypercube_stages(0, 1).empty());
}

TEST(HypercubeStages, EveryProcessCountPairsConsistentlyWithinLog2Stages) {
  for (int ranks = 1; ranks <= 40; ++ranks) {
    const auto all = every_process(ranks);
    for (int rank = 0; rank < ranks; ++rank) {
      const auto& mine = all[rank];
      EXPECT_LE(static_cast<int>(mine.size()), hypercube_stage_count(ranks)) << rank << " of " << ranks;
      EXPECT_GE(static_cast<int>(mine.size()), hypercube_stage_count(ranks) - 1) << rank << " of " << ranks;
      for (std::size_t s = 0; s < mine.size(); ++s) {
        const auto& stage = mine[s];
        ASSERT_TRUE(stage.lo <= rank && rank < stage.hi);
        ASSERT_TRUE(stage.send_to.has_value());
        const int partner = *stage.send_to;
        // The partner is in the other half, at the same stage of the same group, and expects this process.
        EXPECT_NE(stage.in_lower(partner), stage.in_lower(rank));
        ASSERT_LT(s, all[partner].size());
        const auto& theirs = all[partner][s];
        EXPECT_EQ(theirs.lo, stage.lo);
        EXPECT_EQ(theirs.hi, stage.hi);
        EXPECT_NE(std::find(theirs.receive_from.begin(), theirs.receive_from.end(), rank), theirs.receive_from.end())
            << rank << " sends to " << partner << " at stage " << s << " of " << ranks;
        for (const int sender : stage.receive_from) EXPECT_EQ(*all[sender][s].send_to, rank);
        EXPECT_LE(stage.receive_from.size(), 2u);
      }
    }
  }
}

TEST(HypercubeStages, BadRanksAreRefused) {
  EXPECT_THROW(hypercube_stages(3, 3), std::invalid_argument);
  EXPECT_THROW(hypercube_stages(-1, 3), std::invalid_argument);
  EXPECT_THROW(hypercube_stages(0, 0), std::invalid_argument);
}

// Every update of a small table's HPCC stream, carried stage by stage as the
// stages say, ends at its owner; and the updates each process hands on at
// stage k are exactly those it holds whose owners lie in the other half,
// counted directly.
TEST(HypercubeStages, TheStreamsUpdatesReachTheirOwnersAndMoveOnlyAcrossTheSplit) {
  constexpr unsigned kLog2Words = 10;
  for (const int ranks : {2, 3, 4, 5, 7, 8, 12}) {
    const TableLayout layout(kLog2Words, static_cast<std::uint64_t>(ranks));
    const auto all = every_process(ranks);
    // Each process generates its stretch of 4 updates per word.
    std::vector<std::vector<std::uint64_t>> held(ranks);
    const std::uint64_t per_rank = 4 * layout.total_words() / ranks;
    for (int rank = 0; rank < ranks; ++rank) {
      std::uint64_t random = starts(per_rank * rank);
      for (std::uint64_t i = 0; i < per_rank; ++i) {
        random = next_random(random);
        held[rank].push_back(layout.owner_by_division(layout.index_of(random)));
      }
    }
    const int stages = hypercube_stage_count(ranks);
    for (int s = 0; s < stages; ++s) {
      std::vector<std::vector<std::uint64_t>> next(ranks);
      for (int rank = 0; rank < ranks; ++rank) {
        if (static_cast<int>(all[rank].size()) <= s) {  // a group of one: done, keeps what it holds
          next[rank].insert(next[rank].end(), held[rank].begin(), held[rank].end());
          continue;
        }
        const auto& stage = all[rank][s];
        const auto moving = std::count_if(held[rank].begin(), held[rank].end(), [&](std::uint64_t owner) {
          return (owner < static_cast<std::uint64_t>(stage.mid)) != (rank < stage.mid);
        });
        std::int64_t moved = 0;
        for (const auto owner : held[rank]) {
          EXPECT_TRUE(stage.lo <= static_cast<int>(owner) && static_cast<int>(owner) < stage.hi);
          if (stage.moves(rank, owner)) {
            next[*stage.send_to].push_back(owner);
            ++moved;
          } else {
            next[rank].push_back(owner);
          }
        }
        EXPECT_EQ(moved, moving) << "stage " << s << ", process " << rank << " of " << ranks;
      }
      held = std::move(next);
    }
    std::uint64_t total = 0;
    for (int rank = 0; rank < ranks; ++rank) {
      total += held[rank].size();
      for (const auto owner : held[rank]) ASSERT_EQ(owner, static_cast<std::uint64_t>(rank)) << ranks << " ranks";
    }
    EXPECT_EQ(total, per_rank * ranks);
  }
}

}  // namespace
}  // namespace gups
