#include "kernel/core/host_memory.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

namespace gups {
namespace {

std::optional<std::uint64_t> meminfo_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> read_number(const char* path) {
  std::ifstream file(path);
  std::uint64_t value = 0;
  if (file >> value) return value;
  return std::nullopt;  // missing, or "max"
}

}  // namespace

std::optional<std::uint64_t> available_host_memory_bytes() {
  auto available = meminfo_available();
  const auto limit = read_number("/sys/fs/cgroup/memory.max");
  const auto used = read_number("/sys/fs/cgroup/memory.current");
  if (limit && used) {
    const std::uint64_t cgroup_free = *limit > *used ? *limit - *used : 0;
    available = available ? std::min(*available, cgroup_free) : cgroup_free;
  }
  return available;
}

std::string format_bytes(double bytes) {
  constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"};
  auto value = bytes;
  int unit = 0;
  while (value >= 1024.0 && unit < 8) {
    value /= 1024.0;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.2f} {}", value, units[unit]);
}

std::optional<std::string> memory_shortfall(double needed, std::uint64_t available,
                                            const std::string& what) {
  if (needed <= static_cast<double>(available)) return std::nullopt;
  return fmt::format("{} needs {} on this host but only {} is available", what,
                     format_bytes(needed), format_bytes(available));
}

}  // namespace gups
