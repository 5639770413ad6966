#include "kernel/core/update_timeline.hpp"

#include <array>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace gups {

void UpdateTimeline::add(double seconds, double count) {
  if (!(seconds > 0)) seconds = 0;
  while (seconds >= width_ * kBins) double_width();
  counts_[static_cast<std::size_t>(seconds / width_)] += count;
}

void UpdateTimeline::double_width() {
  for (std::size_t i = 0; i < kBins / 2; ++i) counts_[i] = counts_[2 * i] + counts_[2 * i + 1];
  for (std::size_t i = kBins / 2; i < kBins; ++i) counts_[i] = 0;
  width_ *= 2;
}

void UpdateTimeline::widen_to(double width) {
  if (width < width_) throw std::invalid_argument("a timeline cannot be made narrower");
  while (width_ < width) double_width();
  if (width_ != width) throw std::invalid_argument("timeline widths are not of one doubling series");
}

UpdateTimeline UpdateTimeline::from(double width, std::vector<double> counts) {
  if (counts.size() != kBins) throw std::invalid_argument("a timeline has 64 bins");
  UpdateTimeline timeline;
  timeline.width_ = width;
  timeline.counts_ = std::move(counts);
  return timeline;
}

double SteadyState::spread() const noexcept {
  return rate > 0 ? std::abs(second_quarter - first_quarter) / rate : 0.0;
}

namespace {

// Updates applied in [from, to), counting a bin that straddles an end in
// proportion to its overlap.
double applied_between(const UpdateTimeline& timeline, double from, double to) {
  double total = 0;
  const double w = timeline.width();
  for (std::size_t i = 0; i < UpdateTimeline::kBins; ++i) {
    const double lo = static_cast<double>(i) * w, hi = lo + w;
    const double overlap = std::min(hi, to) - std::max(lo, from);
    if (overlap > 0) total += timeline.counts()[i] * overlap / w;
  }
  return total;
}

std::optional<double> batch_means_error(const UpdateTimeline& timeline, double seconds, double rate) {
  const double w = timeline.width();
  const auto first = static_cast<std::size_t>(std::ceil(seconds / 4 / w));
  const auto last = std::min(static_cast<std::size_t>(std::floor(3 * seconds / 4 / w)), UpdateTimeline::kBins);
  constexpr std::size_t kBatches = SteadyState::kNoiseBatches;
  const std::size_t per_batch = last > first ? (last - first) / kBatches : 0;
  if (per_batch < 2 || !(rate > 0)) return std::nullopt;
  std::array<double, kBatches> batches{};
  for (std::size_t b = 0; b < kBatches; ++b) {
    const auto begin = timeline.counts().begin() + static_cast<std::ptrdiff_t>(first + b * per_batch);
    batches[b] = std::accumulate(begin, begin + static_cast<std::ptrdiff_t>(per_batch), 0.0);
  }
  const double mean = std::accumulate(batches.begin(), batches.end(), 0.0) / kBatches;
  if (!(mean > 0)) return std::nullopt;
  double squares = 0;
  for (const double b : batches) squares += (b - mean) * (b - mean);
  const double deviation = std::sqrt(squares / (kBatches - 1));
  return deviation / mean / std::sqrt(static_cast<double>(kBatches));
}

}  // namespace

SteadyState steady_state(const UpdateTimeline& timeline, double seconds) {
  SteadyState s;
  if (!(seconds > 0)) return s;
  const double q = seconds / 4;
  s.first_quarter = applied_between(timeline, q, 2 * q) / q;
  s.second_quarter = applied_between(timeline, 2 * q, 3 * q) / q;
  s.rate = (s.first_quarter + s.second_quarter) / 2;
  s.standard_error = batch_means_error(timeline, seconds, s.rate);
  return s;
}

}  // namespace gups
