// A SimGrid topology's parameters ("2;16,4;1,2;1,1"): split into their
// parts, and each count read as SimGrid's parser would take it but refusing
// what it would take silently (a sign, trailing text, a count past 2^20).
#pragma once

#include <fmt/format.h>

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

}  // namespace gups
