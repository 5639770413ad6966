#include "kernel/core/host_load.hpp"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

namespace gups {

std::optional<double> host_busy_seconds() {
  std::ifstream stat("/proc/stat");
  std::string line;
  if (!std::getline(stat, line)) return std::nullopt;
  std::istringstream fields(line);
  std::string label;
  fields >> label;
  if (label != "cpu") return std::nullopt;
  // user nice system idle iowait irq softirq steal: all but idle and iowait are busy.
  double value[8] = {};
  for (auto& v : value) fields >> v;
  if (!fields && !fields.eof()) return std::nullopt;
  const double busy = value[0] + value[1] + value[2] + value[5] + value[6] + value[7];
  return busy / static_cast<double>(sysconf(_SC_CLK_TCK));
}

bool load_measurable(double wall_seconds) {
  return wall_seconds >= kLeastLoadTicks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double own_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double others_share(double host_seconds, double own_seconds, double wall, int cores) {
  if (!(wall > 0) || cores < 1) return 0;
  return std::clamp((host_seconds - own_seconds) / (wall * cores), 0.0, 1.0);
}

std::string host_load_line(const std::optional<double>& share) {
  if (!share || *share <= kBusyHostShare) return "";
  return fmt::format("Host load: other processes used {:.0f}% of the busiest host's cores during the update "
                     "phase: the rate above may be low for that\n",
                     100 * *share);
}

nlohmann::json host_load_json(const std::optional<double>& share) {
  if (!share) return nullptr;
  return {{"others_cpu_share", std::round(1000 * *share) / 1000}, {"busy_above", kBusyHostShare}};
}

}  // namespace gups
