#include "kernel/core/exchange_pattern.hpp"

#include <stdexcept>

namespace gups {

ExchangePattern exchange_pattern_named(const std::string& name) {
  if (name == "all-to-all") return ExchangePattern::all_to_all;
  if (name == "bisection") return ExchangePattern::bisection;
  if (name == "uniform") return ExchangePattern::uniform;
  throw std::invalid_argument("unknown traffic '" + name + "' (give all-to-all, bisection or uniform)");
}

std::string to_string(ExchangePattern pattern) {
  switch (pattern) {
    case ExchangePattern::all_to_all: return "all-to-all";
    case ExchangePattern::bisection: return "bisection";
    case ExchangePattern::uniform: return "uniform";
  }
  return "?";
}

namespace {

// SplitMix64: a well-mixed 64-bit hash of (seed, rank, step), so that uniform
// traffic is the same whatever order ranks ask in.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::uint64_t exchange_destination(ExchangePattern pattern, std::uint64_t rank, std::uint64_t step,
                                   std::uint64_t ranks, std::uint64_t seed) {
  if (ranks < 2 || rank >= ranks) throw std::invalid_argument("an exchange needs 2 ranks or more, and a rank among them");
  switch (pattern) {
    case ExchangePattern::all_to_all:
      return (rank + 1 + step % (ranks - 1)) % ranks;
    case ExchangePattern::bisection:
      if (ranks % 2 != 0) throw std::invalid_argument("a bisection exchange needs an even number of ranks");
      return rank < ranks / 2 ? rank + ranks / 2 : rank;
    case ExchangePattern::uniform: {
      // One of the other ranks-1, uniformly (the remainder's bias is below 2^-40 for any machine here).
      const std::uint64_t other = mix(mix(seed ^ (rank << 20)) ^ step) % (ranks - 1);
      return other >= rank ? other + 1 : other;
    }
  }
  return rank;
}

std::uint64_t exchange_steps(ExchangePattern pattern, std::uint64_t ranks) {
  switch (pattern) {
    case ExchangePattern::all_to_all: return ranks - 1;
    case ExchangePattern::bisection: return 1;
    case ExchangePattern::uniform: return 0;
  }
  return 0;
}

}  // namespace gups
