// A SimGrid topology's parameters ("2;16,4;1,2;1,1"): split into their
// parts, and each count read as SimGrid's parser would take it but refusing
// what it would take silently (a sign, trailing text, a count past 2^20);
// and the counts of a machine's partition, level by level.
#pragma once

#include <fmt/format.h>

#include <cstdint>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gups {

inline std::vector<std::string> topology_parts(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
  return parts;
}

inline unsigned topology_count(const std::string& item, const std::string& what) {
  std::size_t used = 0;
  unsigned long value = 0;
  try {
    value = item.empty() || item.front() == '-' ? 0 : std::stoul(item, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (item.empty() || used != item.size() || value > 1u << 20) {
    throw std::invalid_argument(fmt::format("{}: '{}' is not a count", what, item));
  }
  return static_cast<unsigned>(value);
}

// The first level, from the bottom, whose whole span holds `nodes`; its
// count becomes nodes over the span below it. Counts are bottom first.
inline std::vector<unsigned> partition_counts(const std::vector<unsigned>& counts, std::uint64_t nodes, const std::string& what,
                                       const std::string& machine) {
  if (nodes == 0) throw std::invalid_argument("the node count must be at least 1");
  std::uint64_t below = 1;
  for (std::size_t level = 0; level < counts.size(); ++level) {
    if (nodes <= below * counts[level]) {
      if (nodes % below != 0) {
        throw std::invalid_argument(fmt::format(
            "{} nodes do not fill whole {} of {} nodes on '{}' (give a multiple of {})", nodes,
            level == 0 ? "units" : what, below, machine, below));
      }
      std::vector<unsigned> kept(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(level) + 1);
      kept.back() = static_cast<unsigned>(nodes / below);
      return kept;
    }
    below *= counts[level];
  }
  throw std::invalid_argument(fmt::format("{} nodes exceed the {} nodes of '{}'", nodes, below, machine));
}

}  // namespace gups
