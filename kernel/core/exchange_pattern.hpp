// Global-exchange traffic: who sends to whom, in which order. One
// definition for every program that makes such traffic (the network
// harness gups-network on a level's timing, the exchange probes on MPI), so
// that a simulated and a measured all-to-all are the same traffic.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gups {

enum class ExchangePattern {
  all_to_all,  // step s = 1 .. n-1: rank r sends to (r + s) mod n (each step a permutation, as a pairwise all-to-all)
  bisection,   // ranks of the lower half send to the upper half, r -> r + n/2 (n even)
  uniform,     // each message to a destination drawn uniformly among the others (seeded)
};

// Throws std::invalid_argument naming the patterns.
ExchangePattern exchange_pattern_named(const std::string& name);
std::string to_string(ExchangePattern pattern);

// The destination of rank `rank`'s message at `step` (0-based) among `ranks`
// ranks, or `rank` itself when it sends nothing at that step (bisection's
// upper half). `seed` is read by the uniform pattern only.
std::uint64_t exchange_destination(ExchangePattern pattern, std::uint64_t rank, std::uint64_t step,
                                   std::uint64_t ranks, std::uint64_t seed = 1);

// The steps a whole exchange takes: n - 1 for all-to-all, 1 for bisection;
// uniform traffic has as many steps as one asks for (0 here).
std::uint64_t exchange_steps(ExchangePattern pattern, std::uint64_t ranks);

}  // namespace gups
