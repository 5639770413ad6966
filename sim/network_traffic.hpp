// Global-exchange traffic driven straight through a network level's timing
// (no kernel, no SimGrid): what a network delivers under all-to-all,
// bisection or uniform traffic, against the peak its longest line allows.
// gups-network runs it; the unit tests check it.
#pragma once

#include <cstdint>
#include <functional>

#include "kernel/core/exchange_pattern.hpp"
#include "sim/levels/network_level.hpp"
#include "topologies/torus_links.hpp"

namespace gups {

struct TrafficRun {
  ExchangePattern pattern = ExchangePattern::all_to_all;
  std::uint64_t steps = 0;     // 0: the pattern's own (exchange_steps); uniform needs some
  double payload_bytes = 256;  // per message
  double wire_bytes = 256;     // per message, with its packets' headers and rounding
  std::uint64_t seed = 1;
  // Each node injects a message every wire_bytes / (offered_load x peak)
  // seconds, step after step; 0: every message at time 0 (an all-to-all
  // posted at once, as a DMA takes it).
  double offered_load = 0;
  // At most so many of a node's messages in flight (injected, not yet
  // arrived): a node waits for its oldest to arrive before it injects
  // another, so that a network driven past saturation holds a bounded
  // backlog. 0: no bound.
  std::uint64_t window = 0;
};

struct TrafficResult {
  std::uint64_t messages = 0;
  double seconds = 0;         // from the first injection (all at 0) to the last arrival
  double mean_latency = 0;    // seconds, injection to arrival, over the messages
  double wire_rate = 0;       // wire bytes delivered per node per second
  double payload_rate = 0;    // payload bytes delivered per node per second
  double peak_rate = 0;       // per node: what the busiest line's links allow under uniform traffic
  double efficiency = 0;      // wire_rate / peak_rate
};

// Every node sends its messages step by step (so that the network serves
// older steps first), all at time 0 or paced at the offered load, through
// `timing`. `progress`
// (if set) is called with the fraction done now and then.
TrafficResult drive_traffic(MessageTiming& timing, const TorusLinks& links, double link_bandwidth,
                            const TrafficRun& run, const std::function<void(double)>& progress = {});

}  // namespace gups
