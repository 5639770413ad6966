// Per-update compute costs of this host, timed on the kernel's own code:
// the stream step, the table update, the routing decision with bucketing,
// and the HPCC reference bucket policy.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "kernel/core/table_layout.hpp"
#include "kernel/core/torus_shape.hpp"

namespace gups::calibrate {

struct Timing {
  double median_ns = 0;  // per operation, median of the repeats
  double min_ns = 0;
  double max_ns = 0;
};

// The median, least and most of samples (ns per operation), at least one.
inline Timing summarise(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return {samples[samples.size() / 2], samples.front(), samples.back()};
}

// How far a figure at its repeats' medians lies above the same at their
// least, to four decimals (0 where it is no higher): a measured input's spread.
inline double relative_spread(double least, double typical) {
  return least > 0 && typical > least ? std::round(1e4 * (typical / least - 1)) / 1e4 : 0.0;
}

// Runs `measure` (which returns ns per operation) `repeats` times.
template <typename Measure>
Timing repeat_timing(unsigned repeats, Measure measure) {
  std::vector<double> samples;
  for (unsigned i = 0; i < std::max(1u, repeats); ++i) samples.push_back(measure());
  return summarise(std::move(samples));
}

// Called before each repeat of a table loop: lets several processes time
// the same loop together (a barrier), so they share the memory throughout.
using BeforeEachRepeat = std::function<void()>;

Timing time_generate(std::uint64_t operations, unsigned repeats);
// Stream step plus T[a & mask] ^= a on a table of 2^log2_words words.
Timing time_generate_and_update(unsigned log2_words, std::uint64_t operations, unsigned repeats,
                                const BeforeEachRepeat& before_each = {});
// The same with each update's address depending on the word the previous
// one loaded: one memory latency per update, as inside a routing loop whose
// other work keeps the core from overlapping updates (the paper's tu = 104).
Timing time_generate_and_dependent_update(unsigned log2_words, std::uint64_t operations, unsigned repeats);
// Stream step and the kernel's routing step (RouteStep: owner, next bucket)
// on node 0 of `shape`, and the append to that bucket.
Timing time_route(const TorusShape& shape, unsigned bucket_size, std::uint64_t operations, unsigned repeats);
// Stream step plus the owner of its index, found by `mode` among `owners`
// of a 2^log2_words table (no table is made).
Timing time_generate_and_owner(unsigned log2_words, std::uint64_t owners, OwnerMode mode,
                               std::uint64_t operations, unsigned repeats);
// HPCC reference bucketing: insert, send the fullest bucket when full.
Timing time_direct_bucketing(std::uint32_t destinations, std::uint32_t lookahead, std::uint64_t operations,
                             unsigned repeats);

// The hypercube algorithm's stage work: a chunk of `chunk` updates, each
// kept or put out to the partner by the half of `owners` its index lies in
// (a 2^log2_words table), ns per update and stage.
Timing time_stage_split(unsigned log2_words, std::uint64_t owners, std::uint64_t chunk, std::uint64_t operations,
                        unsigned repeats);

// Core clock: /proc/cpuinfo's "cpu MHz" if present, else a dependent-add
// loop (one add per cycle). `source` says which.
double clock_hz(std::string& source);
double measured_clock_hz();

}  // namespace gups::calibrate
