// How busy other processes kept a host while a real run's update phase ran:
// the CPU time every process spent (/proc/stat), less the run's own ranks'
// on that host, as a share of the host's cores over the phase. A rate
// measured on a host others kept busy is low for a reason no model has, and
// the report says so beside it.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gups {

// Above this share of a host's cores taken by others, the report says so.
inline constexpr double kBusyHostShare = 0.10;

// /proc/stat counts in ticks of 1/CLK_TCK (10 ms on Linux): over a phase
// shorter than ten ticks the share is mostly rounding, so it is not measured.
inline constexpr double kLeastLoadTicks = 10;
bool load_measurable(double wall_seconds);

// CPU seconds all processes of this host have spent since boot; nothing
// where /proc/stat cannot be read.
std::optional<double> host_busy_seconds();
// CPU seconds this process has spent.
double own_cpu_seconds();
// The share of `cores` cores that others used: what the host spent beyond
// the run's own, over `wall` seconds (0 to 1).
double others_share(double host_seconds, double own_seconds, double wall, int cores);

// The report's line ("" up to kBusyHostShare, or where unknown), and the
// JSON value ({"others_cpu_share", "busy_above"}: the share and the
// threshold the line uses, so that a reader applies the same; null where
// unknown).
std::string host_load_line(const std::optional<double>& share);
nlohmann::json host_load_json(const std::optional<double>& share);

}  // namespace gups
