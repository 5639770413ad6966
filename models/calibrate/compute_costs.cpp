#include "models/calibrate/compute_costs.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <vector>

#include "kernel/core/destination_buckets.hpp"
#include "kernel/core/hpcc_stream.hpp"
#include "kernel/core/role_plan.hpp"
#include "kernel/core/route_step.hpp"
#include "kernel/core/table_distribution.hpp"

namespace gups::calibrate {
namespace {

using Clock = std::chrono::steady_clock;

double ns_per(Clock::time_point start, std::uint64_t operations) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count() / static_cast<double>(operations);
}

// Keeps a result alive so the optimiser cannot drop the loop.
void keep(std::uint64_t value) { asm volatile("" : : "r"(value) : "memory"); }

}  // namespace

Timing time_generate(std::uint64_t operations, unsigned repeats) {
  return repeat_timing(repeats, [&] {
    std::uint64_t a = starts(12345), sum = 0;
    const auto start = Clock::now();
    for (std::uint64_t i = 0; i < operations; ++i) {
      a = next_random(a);
      sum += a & 0xffff;
    }
    keep(sum);
    return ns_per(start, operations);
  });
}

Timing time_generate_and_update(unsigned log2_words, std::uint64_t operations, unsigned repeats,
                                const BeforeEachRepeat& before_each) {
  std::vector<std::uint64_t> table(std::uint64_t{1} << log2_words);
  for (std::uint64_t i = 0; i < table.size(); ++i) table[i] = i;
  const std::uint64_t mask = table.size() - 1;
  return repeat_timing(repeats, [&] {
    if (before_each) before_each();
    std::uint64_t a = starts(777);
    const auto start = Clock::now();
    for (std::uint64_t i = 0; i < operations; ++i) {
      a = next_random(a);
      table[a & mask] ^= a;
    }
    keep(table[a & mask]);
    return ns_per(start, operations);
  });
}

Timing time_generate_and_dependent_update(unsigned log2_words, std::uint64_t operations, unsigned repeats) {
  std::vector<std::uint64_t> table(std::uint64_t{1} << log2_words);
  for (std::uint64_t i = 0; i < table.size(); ++i) table[i] = i;
  const std::uint64_t mask = table.size() - 1;
  return repeat_timing(repeats, [&] {
    std::uint64_t a = starts(777), carry = 0;
    const auto start = Clock::now();
    for (std::uint64_t i = 0; i < operations; ++i) {
      a = next_random(a);
      auto& word = table[(a ^ carry) & mask];
      word ^= a;
      carry = word & 1;
    }
    keep(carry);
    return ns_per(start, operations);
  });
}

Timing time_route(const TorusShape& shape, unsigned bucket_size, std::uint64_t operations, unsigned repeats) {
  // Node 0 of a routed run (one core per node) on a table of 2^20 words.
  const TableLayout layout(20, shape.nodes());
  const OwnerFinder owner_of(layout, OwnerMode::division);
  const RolePlan plan(1, shape.dimensions());
  const TableDistribution distribution(layout, 1, plan.updater_cores());
  constexpr std::uint64_t kNode = 0;
  RouteStep route(layout, owner_of, shape, plan, distribution, kNode, 0);
  std::vector<std::vector<std::uint64_t>> buckets;
  for (unsigned d = 0; d < shape.dimensions(); ++d) {
    for (const auto neighbour : shape.line_neighbours(kNode, d)) {
      route.set_network_bucket(d, neighbour, static_cast<int>(buckets.size()));
      buckets.emplace_back().reserve(bucket_size);
    }
  }
  return repeat_timing(repeats, [&] {
    std::uint64_t a = starts(4242), sent = 0;
    const auto start = Clock::now();
    for (std::uint64_t i = 0; i < operations; ++i) {
      a = next_random(a);
      const int b = route.next_bucket(a);
      if (b == RouteStep::kApplyHere) {
        sent ^= a;
        continue;
      }
      auto& bucket = buckets[static_cast<std::size_t>(b)];
      bucket.push_back(a);
      if (bucket.size() == bucket_size) {
        sent += bucket.back();
        bucket.clear();
      }
    }
    keep(sent);
    return ns_per(start, operations);
  });
}

Timing time_generate_and_owner(unsigned log2_words, std::uint64_t owners, OwnerMode mode,
                               std::uint64_t operations, unsigned repeats) {
  const TableLayout layout(log2_words, owners);
  const OwnerFinder owner_of(layout, mode);
  return repeat_timing(repeats, [&] {
    std::uint64_t a = starts(31337), sum = 0;
    const auto start = Clock::now();
    for (std::uint64_t i = 0; i < operations; ++i) {
      a = next_random(a);
      sum += owner_of(layout.index_of(a));
    }
    keep(sum);
    return ns_per(start, operations);
  });
}

Timing time_direct_bucketing(std::uint32_t destinations, std::uint32_t lookahead, std::uint64_t operations,
                             unsigned repeats) {
  return repeat_timing(repeats, [&] {
    DestinationBuckets buckets(destinations, lookahead);
    std::vector<std::uint64_t> message;
    std::uint64_t a = starts(99), sent = 0;
    const auto start = Clock::now();
    for (std::uint64_t i = 0; i < operations; ++i) {
      a = next_random(a);
      buckets.insert(static_cast<std::uint32_t>(a % destinations), a);
      if (buckets.full()) {
        message.clear();
        sent += buckets.take_fullest(message);
      }
    }
    keep(sent);
    return ns_per(start, operations);
  });
}

Timing time_stage_split(unsigned log2_words, std::uint64_t owners, std::uint64_t chunk, std::uint64_t operations,
                        unsigned repeats) {
  const TableLayout layout(log2_words, owners);
  const std::uint64_t upper_start = layout.global_start(owners / 2);
  std::vector<std::uint64_t> held(chunk), outgoing(chunk);
  std::uint64_t a = starts(7);
  for (auto& update : held) update = a = next_random(a);
  return repeat_timing(repeats, [&] {
    std::uint64_t moved = 0;
    const auto start = Clock::now();
    for (std::uint64_t done = 0; done < operations; done += chunk) {
      // The stage's split, as the kernel does it (the side told by the
      // index, no branch); what moved comes back, so every pass looks at a
      // whole chunk.
      std::size_t kept = 0, leaving = 0;
      for (std::size_t i = 0; i < chunk; ++i) {
        const std::uint64_t update = held[i];
        const bool moves = layout.index_of(update) >= upper_start;
        outgoing[leaving] = update;
        held[kept] = update;
        leaving += moves;
        kept += !moves;
      }
      moved += leaving;
      std::copy(outgoing.begin(), outgoing.begin() + static_cast<std::ptrdiff_t>(leaving),
                held.begin() + static_cast<std::ptrdiff_t>(kept));
    }
    keep(moved);
    return ns_per(start, operations);
  });
}

double measured_clock_hz() {
  // A chain of dependent adds retires one per cycle on any current core.
  constexpr std::uint64_t kAdds = 400'000'000;
  std::uint64_t x = 1;
  const auto start = Clock::now();
  for (std::uint64_t i = 0; i < kAdds; ++i) {
    x += 1;
    asm volatile("" : "+r"(x));  // the compiler may not merge the adds
  }
  keep(x);
  return 1e9 / ns_per(start, kAdds);
}

double clock_hz(std::string& source) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("cpu MHz", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    try {
      const double mhz = std::stod(line.substr(colon + 1));
      if (mhz > 0) {
        source = "/proc/cpuinfo 'cpu MHz' of the first core";
        return mhz * 1e6;
      }
    } catch (const std::exception&) {
    }
  }
  source = "measured: a chain of dependent integer adds, one per cycle";
  return measured_clock_hz();
}

}  // namespace gups::calibrate
