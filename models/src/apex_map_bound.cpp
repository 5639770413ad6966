#include "models/src/apex_map_bound.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kernel/apex_map/access.hpp"
#include "topologies/torus_links.hpp"

namespace gups::model {
namespace {

constexpr double kRequestBytes = 16;  // the two-sided request: offset and reply buffer

struct Traffic {
  double remote_accesses = 0;
  double hops = 0;              // summed one way over the remote accesses
  double busiest_link_bytes = 0;
  std::vector<double> crossings;                   // per directed link, the sampled blocks that cross it
  std::vector<std::vector<std::uint32_t>> routes;  // a spread-out subset of the blocks' routes
};

// At most this many of the sampled routes enter a block's expected sharing.
constexpr std::size_t kSharingRoutes = 8192;

// The expected largest of independent Poisson counts with these means.
double expected_largest_poisson(const std::vector<double>& means) {
  double expected = 0;
  std::vector<double> pmf(means.size()), cdf(means.size());
  for (std::size_t i = 0; i < means.size(); ++i) cdf[i] = pmf[i] = std::exp(-means[i]);
  for (int k = 1; k < 200; ++k) {
    double all_below = 1;
    for (const double c : cdf) all_below *= c;
    const double tail = 1 - all_below;  // P(max >= k)
    expected += tail;
    if (tail < 1e-9) break;
    for (std::size_t i = 0; i < means.size(); ++i) {
      pmf[i] *= means[i] / k;
      cdf[i] = std::min(1.0, cdf[i] + pmf[i]);
    }
  }
  return expected;
}

// How many blocks in flight a block's transfer shares its busiest link with,
// itself included, on average: each process is in a transfer a fraction
// `in_transfer` of its time, so a link carries on average in_transfer x its
// crossings per process's remote access, and a block on a route meets the
// largest of those counts, each a Poisson count.
double expected_sharing(const Traffic& traffic, double in_transfer, std::uint64_t processes) {
  if (traffic.routes.empty()) return 1;
  const double per_flow = in_transfer * static_cast<double>(processes) / traffic.remote_accesses;
  double sum = 0;
  std::vector<double> means;
  for (const auto& route : traffic.routes) {
    means.clear();
    for (const auto link : route) means.push_back(per_flow * traffic.crossings[link]);
    sum += 1 + expected_largest_poisson(means);
  }
  return sum / static_cast<double>(traffic.routes.size());
}

// The sample's remote accesses routed over the torus: a request from the
// process to the owner (two-sided) and the block back.
Traffic sample_traffic(const ApexMapModelRequest& request, const apex_map::Parameters& p, std::uint64_t processes) {
  const TorusLinks links(request.shape, std::vector<bool>(request.shape.dimensions(), true));
  std::vector<double> bytes(links.count(), 0.0);
  std::vector<std::uint32_t> route;
  // Every how many remote blocks a route is kept: about kSharingRoutes of the sample's.
  const double expected_remote = static_cast<double>(processes * request.samples_per_process) *
                                 apex_map::expected_remote_fraction(p.alpha, processes);
  const auto stride = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(expected_remote / kSharingRoutes));
  const bool two_sided = request.algorithm == "apex-map-mpi";
  const double reply_bytes = 8.0 * static_cast<double>(p.block_words);
  Traffic traffic;
  traffic.crossings.assign(links.count(), 0.0);
  const auto share = apex_map::share_words(p, processes);
  for (std::uint64_t rank = 0; rank < processes; ++rank) {
    const auto node = rank / request.ranks_per_node;
    for (const auto start : apex_map::start_indices(p, processes, rank, 0)) {
      const auto owner = apex_map::owner_of(start, share);
      if (owner == rank) continue;
      const auto owner_node = owner / request.ranks_per_node;
      traffic.remote_accesses += 1;
      links.route(owner_node, node, route);
      traffic.hops += static_cast<double>(route.size());
      for (const auto link : route) {
        bytes[link] += reply_bytes;
        traffic.crossings[link] += 1;
      }
      if (static_cast<std::uint64_t>(traffic.remote_accesses) % stride == 0) traffic.routes.push_back(route);
      if (two_sided) {
        links.route(node, owner_node, route);
        for (const auto link : route) bytes[link] += kRequestBytes;
      }
    }
  }
  traffic.busiest_link_bytes = bytes.empty() ? 0 : *std::max_element(bytes.begin(), bytes.end());
  return traffic;
}

}  // namespace

double expected_largest_binomial(std::uint64_t indices, double p, std::uint64_t processes) {
  // E[max] = sum over k >= 1 of P(max >= k) = sum of 1 - F(k - 1)^processes.
  double expected = 0;
  double cdf = 0;
  const double n = static_cast<double>(indices);
  for (std::uint64_t k = 0; k < indices; ++k) {
    const double x = static_cast<double>(k);
    const double log_pmf = std::lgamma(n + 1) - std::lgamma(x + 1) - std::lgamma(n - x + 1) +
                           (p > 0 ? x * std::log(p) : (k == 0 ? 0 : -INFINITY)) +
                           (p < 1 ? (n - x) * std::log1p(-p) : -INFINITY);  // p = 1: only k = indices
    cdf = std::min(1.0, cdf + std::exp(log_pmf));
    const double tail = 1 - std::pow(cdf, static_cast<double>(processes));
    expected += tail;
    if (tail < 1e-12 && x > n * p) break;
  }
  return expected;
}

ApexMapPoint apex_map_point(const Machine& machine, const AccessCharges& c, const ApexMapModelRequest& request,
                            double alpha, std::uint64_t block_words) {
  if (request.algorithm != "apex-map-mpi" && request.algorithm != "apex-map-rma") {
    throw std::invalid_argument("the model knows apex-map-mpi and apex-map-rma, not '" + request.algorithm + "'");
  }
  const std::uint64_t processes = request.shape.nodes() * request.ranks_per_node;
  apex_map::Parameters p;
  p.memory_words = request.share_words * processes;
  p.alpha = alpha;
  p.block_words = block_words;
  p.indices = request.samples_per_process;
  p.receive_buffers = request.receive_buffers;
  p.seed = request.seed;
  if (const auto why = apex_map::problem(p, processes)) throw std::invalid_argument(*why);

  const auto traffic = sample_traffic(request, p, processes);
  const double sampled = static_cast<double>(processes * request.samples_per_process);
  ApexMapPoint point;
  point.alpha = alpha;
  point.block_words = block_words;
  point.remote_fraction = apex_map::expected_remote_fraction(alpha, processes);
  point.mean_hops = traffic.remote_accesses > 0 ? traffic.hops / traffic.remote_accesses : 0;
  point.slowest_remote_fraction =
      request.indices ? expected_largest_binomial(request.indices, point.remote_fraction, processes) /
                            static_cast<double>(request.indices)
                      : point.remote_fraction;
  const double f = point.slowest_remote_fraction;
  const double clock = c.clock_hz;
  const double block = c.block_cycles(block_words) / clock;
  const double calls = (c.send_call + c.receive_call) / clock;
  const double reply_on_link = 8.0 * static_cast<double>(block_words) / machine.link_bandwidth;
  const double one_way = point.mean_hops * machine.link_latency;
  point.link_seconds = traffic.busiest_link_bytes / (sampled / static_cast<double>(processes)) / machine.link_bandwidth;
  if (request.algorithm == "apex-map-mpi") {
    point.core_seconds = block + f * 2 * calls + c.poll / clock;
    const double round_trip = 2 * calls + 2 * one_way + kRequestBytes / machine.link_bandwidth + reply_on_link;
    point.latency_seconds = f * round_trip / request.receive_buffers;
    point.seconds = std::max({point.core_seconds, point.latency_seconds, point.link_seconds});
    point.binds = point.seconds == point.core_seconds ? "core" : point.seconds == point.latency_seconds ? "latency" : "links";
  } else {
    // A get waits for its block, which shares the links of its path with
    // the blocks of the other processes' gets in flight: how many depends
    // on how much of its time a process spends in transfers, which depends
    // on the sharing; a few rounds settle it.
    // The other processes are the mean process (f), the slowest is this one.
    const double mean_f = point.remote_fraction;
    const double mean_core = block + mean_f * (c.send_call + c.poll) / clock;
    double in_transfer = 1;
    for (int round = 0; round < 6; ++round) {
      point.sharing = expected_sharing(traffic, in_transfer, processes);
      const double transfer = mean_f * reply_on_link * point.sharing;
      in_transfer = transfer / (mean_core + mean_f * 2 * one_way + transfer);
    }
    point.core_seconds = block + f * (c.send_call + c.poll) / clock;
    point.latency_seconds = f * (2 * one_way + reply_on_link * point.sharing);
    point.seconds = std::max(point.core_seconds + point.latency_seconds, point.link_seconds);
    point.binds = point.seconds == point.link_seconds ? "links" : "core + latency";
  }
  return point;
}

nlohmann::json to_json(const ApexMapPoint& point) {
  return {{"alpha", point.alpha},
          {"block_words", point.block_words},
          {"remote_fraction", point.remote_fraction},
          {"slowest_remote_fraction", point.slowest_remote_fraction},
          {"mean_hops", point.mean_hops},
          {"sharing", point.sharing},
          {"core_ns", 1e9 * point.core_seconds},
          {"latency_ns", 1e9 * point.latency_seconds},
          {"link_ns", 1e9 * point.link_seconds},
          {"ns_per_access", 1e9 * point.seconds},
          {"mb_per_second_per_process", point.mb_per_second_per_process()},
          {"binds", point.binds}};
}

}  // namespace gups::model
