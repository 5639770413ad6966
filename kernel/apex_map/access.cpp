#include "kernel/apex_map/access.hpp"

#include <cmath>
#include <fmt/format.h>

namespace gups::apex_map {
namespace {

// SplitMix64 (Steele, Lea, Flood 2014): a counter-based generator, so each
// process and repetition has its own stream, the same on every MPI and
// in the simulator, with no state shared between ranks.
constexpr std::uint64_t mix(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Uniform in [0, 1) with 53 bits.
double uniform(std::uint64_t bits) noexcept { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

}  // namespace

std::optional<std::string> problem(const Parameters& p, std::uint64_t processes) {
  if (!(p.alpha > 0.0 && p.alpha <= 1.0)) {
    return fmt::format("--alpha must be above 0 and at most 1 (1: uniform; toward 0: ever more local), not {}",
                       p.alpha);
  }
  if (processes == 0) return "needs at least one process";
  if (p.block_words == 0) return "--block-words (L) must be at least 1";
  if (p.memory_words == 0 || p.memory_words % processes != 0) {
    return fmt::format("--memory-words (M = {}) must be a positive multiple of the {} processes", p.memory_words,
                       processes);
  }
  const auto share = p.memory_words / processes;
  if (p.block_words > share) {
    return fmt::format("--block-words (L = {}) is larger than a process's share of the memory (M / {} = {} words)",
                       p.block_words, processes, share);
  }
  if (share % p.block_words != 0) {
    return fmt::format("a process's share (M / {} = {} words) must be a multiple of --block-words (L = {}), so "
                       "that no block spans two processes",
                       processes, share, p.block_words);
  }
  if (p.indices == 0) return "--indices (I) must be at least 1";
  if (p.repeats == 0) return "--repeats (N) must be at least 1";
  if (p.receive_buffers == 0 || p.receive_buffers > kMaxReceiveBuffers) {
    return fmt::format("--receive-buffers (B) must be 1 to {}", kMaxReceiveBuffers);
  }
  if (p.send_handles == 0) return "--send-handles (SMSG) must be at least 1";
  if (p.serve_per_turn == 0) return "--serve-per-turn (NSER) must be at least 1";
  return std::nullopt;
}

std::uint64_t share_words(const Parameters& p, std::uint64_t processes) { return p.memory_words / processes; }

double expected_remote_fraction(double alpha, std::uint64_t processes) {
  return 1.0 - std::pow(static_cast<double>(processes), -alpha);
}

std::vector<std::uint64_t> start_indices(const Parameters& p, std::uint64_t processes, std::uint64_t rank,
                                         unsigned repetition) {
  const std::uint64_t blocks = p.memory_words / p.block_words;
  const std::uint64_t own_start = rank * share_words(p, processes);
  const double exponent = 1.0 / p.alpha;
  // One stream per (seed, rank, repetition): its counter starts far apart.
  const std::uint64_t stream = mix(mix(p.seed) ^ mix(rank + 0x5bd1e995ULL * (repetition + 1ULL)));
  std::vector<std::uint64_t> starts(p.indices);
  for (std::uint64_t i = 0; i < p.indices; ++i) {
    const double fraction = std::pow(uniform(mix(stream + i)), exponent);
    auto block = static_cast<std::uint64_t>(fraction * static_cast<double>(blocks));
    if (block >= blocks) block = blocks - 1;  // rounding of a fraction just under 1
    starts[i] = (block * p.block_words + own_start) % p.memory_words;
  }
  return starts;
}

std::uint64_t word_at(std::uint64_t global_index) noexcept { return mix(global_index ^ 0x243f6a8885a308d3ULL); }

std::uint64_t block_sum(const std::uint64_t* words, std::uint64_t count) noexcept {
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < count; ++i) sum += words[i];
  return sum;
}

std::uint64_t serial_sum(const std::vector<std::uint64_t>& starts, std::uint64_t block_words) {
  std::uint64_t sum = 0;
  for (const auto start : starts) {
    for (std::uint64_t j = 0; j < block_words; ++j) sum += word_at(start + j);
  }
  return sum;
}

}  // namespace gups::apex_map
