#include "models/src/loggp_fit.hpp"

#include <algorithm>

namespace gups::model {

LinearFit fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  if (n == 0) return {};
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  const double denominator = n * sxx - sx * sx;
  if (denominator == 0) return {sy / n, 0};
  const double slope = (n * sxy - sx * sy) / denominator;
  return {std::max(0.0, (sy - slope * sx) / n), std::max(0.0, slope)};
}

namespace {
LinearFit fit_pairs(const std::vector<std::pair<double, double>>& points) {
  std::vector<double> x, y;
  for (const auto& [a, b] : points) {
    x.push_back(a);
    y.push_back(b);
  }
  return fit_line(x, y);
}
}  // namespace

MessageLayer fit_loggp(const LogGPTimings& timings) {
  MessageLayer layer;
  layer.o_send = timings.send_call_s;
  layer.o_recv = timings.receive_call_s;
  const double calls = timings.small_calls_s > 0 ? timings.small_calls_s : layer.o_send + layer.o_recv;
  layer.L = std::max(0.0, timings.half_round_trip_s - calls);
  layer.g = fit_pairs(timings.trains).slope;
  layer.G = fit_pairs(timings.ping_pongs).slope;
  return layer;
}

}  // namespace gups::model
