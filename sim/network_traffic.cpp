#include "sim/network_traffic.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <queue>
#include <stdexcept>
#include <vector>

namespace gups {

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
  for (std::uint64_t node = 0; node < nodes; ++node) {
    senders += exchange_destination(run.pattern, node, 0, nodes, run.seed) != node;
  }
  // Each node's next message, the earliest first (ties: the lower step, then
  // the lower node, so that an unpaced exchange goes step by step).
  struct Next {
    double time;
    std::uint64_t step;
    std::uint64_t node;
    bool operator>(const Next& o) const {
      return time != o.time ? time > o.time : step != o.step ? step > o.step : node > o.node;
    }
  };
  std::priority_queue<Next, std::vector<Next>, std::greater<>> due;
  std::vector<std::deque<double>> in_flight(run.window ? nodes : 0);  // arrival times, in injection order
  for (std::uint64_t node = 0; node < nodes; ++node) due.push({0.0, 0, node});
  const std::uint64_t report = std::max<std::uint64_t>(1, steps / 20);
  std::uint64_t reported = 0;
  while (!due.empty()) {
    const Next next = due.top();
    due.pop();
    const auto to = exchange_destination(run.pattern, next.node, next.step, nodes, run.seed);
    if (to != next.node) {
      const double arrived = timing.arrival(next.node, to, run.wire_bytes, next.time);
      r.seconds = std::max(r.seconds, arrived);
      latency_sum += arrived - next.time;
      ++r.messages;
      if (run.window) in_flight[next.node].push_back(arrived);
    }
    if (next.step + 1 == steps) continue;
    double at = std::max(next.time, static_cast<double>(next.step + 1) * interval);
    if (run.window && in_flight[next.node].size() >= run.window) {
      at = std::max(at, in_flight[next.node].front());
      in_flight[next.node].pop_front();
    }
    due.push({at, next.step + 1, next.node});
    if (progress && next.node == 0 && (next.step + 1) / report > reported) {
      reported = (next.step + 1) / report;
      progress(double(next.step + 1) / steps);
    }
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
