// One count of a SimGrid topology's parameters ("16" of "2;16,4;1,2;1,1"),
// read as SimGrid's parser would take it but refusing what it would take
// silently (a sign, trailing text, a count past 2^20).
#pragma once

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace gups {

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

}  // namespace gups
