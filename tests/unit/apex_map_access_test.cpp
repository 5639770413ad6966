#include "kernel/apex_map/access.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace gups::apex_map {
namespace {

Parameters with(std::uint64_t processes, double alpha, std::uint64_t block_words, std::uint64_t indices) {
  Parameters p;
  p.memory_words = processes * 4096;
  p.alpha = alpha;
  p.block_words = block_words;
  p.indices = indices;
  return p;
}

// The share of accesses of the first `ranks` processes that land outside their own memory.
double measured_remote_fraction(const Parameters& p, std::uint64_t processes, std::uint64_t ranks) {
  const auto share = share_words(p, processes);
  std::uint64_t remote = 0;
  for (std::uint64_t rank = 0; rank < ranks; ++rank) {
    for (const auto start : start_indices(p, processes, rank, 0)) remote += owner_of(start, share) != rank;
  }
  return static_cast<double>(remote) / static_cast<double>(ranks * p.indices);
}

// Five standard errors of a fraction measured over n accesses.
double five_sigma(double fraction, double n) { return 5.0 * std::sqrt(fraction * (1.0 - fraction) / n); }

TEST(ApexMapAccess, RemoteFractionOfTheAuthorsExamples) {
  // 256 processes: uniform at alpha = 1 (255/256 remote), 0.55% remote at alpha = 0.001.
  EXPECT_DOUBLE_EQ(expected_remote_fraction(1.0, 256), 255.0 / 256.0);
  EXPECT_NEAR(expected_remote_fraction(0.001, 256), 0.0055, 0.00005);
  for (const double alpha : {1.0, 0.001}) {
    const auto p = with(256, alpha, 1, 250000);
    const double expected = expected_remote_fraction(alpha, 256);
    EXPECT_NEAR(measured_remote_fraction(p, 256, 4), expected, five_sigma(expected, 4 * 250000.0))
        << "alpha " << alpha;
  }
}

TEST(ApexMapAccess, RemoteFractionHoldsForBlocks) {
  const auto p = with(64, 0.1, 64, 100000);
  const double expected = expected_remote_fraction(0.1, 64);
  EXPECT_NEAR(measured_remote_fraction(p, 64, 2), expected, five_sigma(expected, 2 * 100000.0));
}

TEST(ApexMapAccess, EachProcessHitsItsOwnMemoryMostOften) {
  const std::uint64_t processes = 16;
  const auto p = with(processes, 0.3, 4, 20000);
  const auto share = share_words(p, processes);
  for (std::uint64_t rank = 0; rank < processes; ++rank) {
    std::map<std::uint64_t, int> hits;
    for (const auto start : start_indices(p, processes, rank, 0)) ++hits[owner_of(start, share)];
    const auto most = std::max_element(hits.begin(), hits.end(), [](auto a, auto b) { return a.second < b.second; });
    EXPECT_EQ(most->first, rank);
    // Shifted, not reflected: the next process up is the next most likely.
    EXPECT_GT(hits[(rank + 1) % processes], hits[(rank + processes - 1) % processes]) << "rank " << rank;
  }
}

TEST(ApexMapAccess, UniformAtAlphaOne) {
  const std::uint64_t processes = 8;
  const auto p = with(processes, 1.0, 1, 80000);
  std::map<std::uint64_t, int> hits;
  for (const auto start : start_indices(p, processes, 3, 0)) ++hits[owner_of(start, share_words(p, processes))];
  ASSERT_EQ(hits.size(), processes);
  for (const auto& [owner, count] : hits) EXPECT_NEAR(count, 10000, 500) << "owner " << owner;
}

TEST(ApexMapAccess, BlocksAreAlignedAndInsideOneProcess) {
  const std::uint64_t processes = 6;
  auto p = with(processes, 0.5, 16, 5000);
  const auto share = share_words(p, processes);
  for (std::uint64_t rank = 0; rank < processes; ++rank) {
    for (const auto start : start_indices(p, processes, rank, 2)) {
      ASSERT_EQ(start % p.block_words, 0u);
      ASSERT_LT(start + p.block_words - 1, p.memory_words);
      ASSERT_EQ(owner_of(start, share), owner_of(start + p.block_words - 1, share));
    }
  }
}

TEST(ApexMapAccess, StreamsAreReproducibleAndApart) {
  const auto p = with(4, 0.5, 1, 1000);
  EXPECT_EQ(start_indices(p, 4, 1, 0), start_indices(p, 4, 1, 0));
  EXPECT_NE(start_indices(p, 4, 1, 0), start_indices(p, 4, 2, 0));
  EXPECT_NE(start_indices(p, 4, 1, 0), start_indices(p, 4, 1, 1));
  auto other_seed = p;
  other_seed.seed = 2;
  EXPECT_NE(start_indices(p, 4, 1, 0), start_indices(other_seed, 4, 1, 0));
}

TEST(ApexMapAccess, SerialSumAddsEveryWordOfEveryBlock) {
  const std::vector<std::uint64_t> starts{0, 8, 8, 40};
  std::uint64_t expected = 0;
  for (const auto start : starts) {
    std::vector<std::uint64_t> words(4);
    for (std::uint64_t j = 0; j < 4; ++j) words[j] = word_at(start + j);
    expected += block_sum(words.data(), words.size());
  }
  EXPECT_EQ(serial_sum(starts, 4), expected);
  EXPECT_NE(serial_sum(starts, 4), serial_sum({0, 8, 16, 40}, 4));
  EXPECT_NE(word_at(0), word_at(1));
}

TEST(ApexMapAccess, BadParametersAreNamed) {
  auto p = with(4, 0.5, 8, 10);
  EXPECT_FALSE(problem(p, 4));
  auto bad = [&](auto change) {
    auto q = p;
    change(q);
    return problem(q, 4).value_or("");
  };
  EXPECT_NE(bad([](Parameters& q) { q.alpha = 0; }).find("--alpha must be above 0 and at most 1"), std::string::npos);
  EXPECT_NE(bad([](Parameters& q) { q.alpha = -0.5; }).find("--alpha"), std::string::npos);
  EXPECT_NE(bad([](Parameters& q) { q.alpha = 1.5; }).find("--alpha"), std::string::npos);
  EXPECT_NE(bad([](Parameters& q) { q.alpha = std::nan(""); }).find("--alpha"), std::string::npos);
  EXPECT_NE(bad([](Parameters& q) { q.block_words = 8192; }).find("larger than a process's share"),
            std::string::npos);
  EXPECT_NE(bad([](Parameters& q) { q.block_words = 3; }).find("multiple of --block-words"), std::string::npos);
  EXPECT_NE(bad([](Parameters& q) { q.memory_words = 4097 * 4 + 1; }).find("multiple of the 4 processes"),
            std::string::npos);
  EXPECT_NE(bad([](Parameters& q) { q.receive_buffers = 0; }).find("--receive-buffers (B)"), std::string::npos);
  EXPECT_NE(bad([](Parameters& q) { q.receive_buffers = kMaxReceiveBuffers + 1; }).find("1 to 16384"),
            std::string::npos);
  EXPECT_NE(bad([](Parameters& q) { q.send_handles = 0; }).find("--send-handles"), std::string::npos);
  EXPECT_NE(bad([](Parameters& q) { q.serve_per_turn = 0; }).find("--serve-per-turn"), std::string::npos);
  EXPECT_NE(bad([](Parameters& q) { q.indices = 0; }).find("--indices"), std::string::npos);
  EXPECT_NE(bad([](Parameters& q) { q.repeats = 0; }).find("--repeats"), std::string::npos);
}

}  // namespace
}  // namespace gups::apex_map
