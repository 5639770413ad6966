#include "sim/network_traffic.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace gups {

double uniform_peak_rate(const TorusLinks& links, double link_bandwidth) {
  double peak = std::numeric_limits<double>::infinity();
  const auto& shape = links.shape();
  for (unsigned d = 0; d < shape.dimensions(); ++d) {
    const double k = shape.size(d);
    if (k < 2) continue;
    peak = std::min(peak, (links.wraps(d) ? 8.0 : 4.0) * link_bandwidth / k);
  }
  return peak;
}

double bisection_peak_rate(const TorusLinks& links, double link_bandwidth) {
  // r -> r + n/2 crosses the cut of the last dimension (node numbering puts
  // dimension 0 fastest): the lower half's n/2 senders share the links
  // across it, one way: 2 per line of that dimension on a ring, 1 on a chain.
  const auto& shape = links.shape();
  const unsigned last = shape.dimensions() - 1;
  const double lines = static_cast<double>(shape.nodes()) / shape.size(last);
  const double across = lines * (links.wraps(last) && shape.size(last) > 2 ? 2.0 : 1.0) * link_bandwidth;
  return across / (static_cast<double>(shape.nodes()) / 2);
}

TrafficResult drive_traffic(MessageTiming& timing, const TorusLinks& links, double link_bandwidth,
                            const TrafficRun& run, const std::function<void(double)>& progress) {
  const std::uint64_t nodes = links.nodes();
  if (nodes < 2) throw std::invalid_argument("traffic needs 2 nodes or more");
  const std::uint64_t steps = run.steps ? run.steps : exchange_steps(run.pattern, nodes);
  if (steps == 0) throw std::invalid_argument("uniform traffic needs a number of messages per node");
  TrafficResult r;
  r.peak_rate = run.pattern == ExchangePattern::bisection ? bisection_peak_rate(links, link_bandwidth)
                                                          : uniform_peak_rate(links, link_bandwidth);
  if (run.offered_load < 0) throw std::invalid_argument("the offered load must not be negative");
  const double interval = run.offered_load > 0 ? run.wire_bytes / (run.offered_load * r.peak_rate) : 0.0;
  double latency_sum = 0;
  std::uint64_t senders = 0;
  for (std::uint64_t step = 0; step < steps; ++step) {
    const double now = static_cast<double>(step) * interval;
    for (std::uint64_t node = 0; node < nodes; ++node) {
      const auto to = exchange_destination(run.pattern, node, step, nodes, run.seed);
      if (to == node) continue;
      const double arrived = timing.arrival(node, to, run.wire_bytes, now);
      r.seconds = std::max(r.seconds, arrived);
      latency_sum += arrived - now;
      ++r.messages;
    }
    if (step == 0) senders = r.messages;
    if (progress && (step + 1) % std::max<std::uint64_t>(1, steps / 20) == 0) progress(double(step + 1) / steps);
  }
  r.mean_latency = latency_sum / static_cast<double>(r.messages);
  // Per sending node: bisection traffic has half the nodes send.
  const double per_node = static_cast<double>(r.messages) / static_cast<double>(senders) / r.seconds;
  r.wire_rate = per_node * run.wire_bytes;
  r.payload_rate = per_node * run.payload_bytes;
  r.efficiency = r.wire_rate / r.peak_rate;
  return r;
}

}  // namespace gups
