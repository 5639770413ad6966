// Updates applied over the run's clock, in a fixed number of bins whose
// width doubles whenever an update lands past the last one. Every rank keeps
// one; they are brought to a common width and summed, and the steady-state
// rate is read from the middle of the run. Counting applied updates over
// time, rather than timing the generators, is not fooled by updates piling
// up in buffers while the generators run ahead of the updaters.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace gups {

class UpdateTimeline {
 public:
  static constexpr std::size_t kBins = 64;
  static constexpr double kFirstWidth = 1e-9;  // seconds; a power-of-two multiple of it is always used

  UpdateTimeline() : counts_(kBins, 0.0) {}

  // `count` updates applied by `seconds` after the start (negative: at 0).
  void add(double seconds, double count);
  // Merges neighbouring bins until the width is `width` (a wider one of the
  // same doubling series, such as another timeline's).
  void widen_to(double width);

  double width() const noexcept { return width_; }
  const std::vector<double>& counts() const noexcept { return counts_; }
  // A timeline from summed counts at a common width.
  static UpdateTimeline from(double width, std::vector<double> counts);

 private:
  void double_width();

  double width_ = kFirstWidth;
  std::vector<double> counts_;
};

// The steady state of a run `seconds` long: the rate of applied updates over
// its middle half, and over each quarter of it, and whether they agree; and
// the standard error of that rate, relative to it, from the scatter of the
// rates of kNoiseBatches equal batches of whole bins inside the middle half
// over sqrt(batches) (batch means). Whole batches, not single bins: the
// pipelines breathe (a dip every few bins), so neighbouring bins trade
// updates. No error where the middle half holds fewer than two bins a batch.
struct SteadyState {
  static constexpr std::size_t kNoiseBatches = 4;

  double rate = 0;           // updates per second, middle half
  double first_quarter = 0;  // 25% to 50% of the run
  double second_quarter = 0; // 50% to 75%
  std::optional<double> standard_error;
  double spread() const noexcept;  // |second - first| / rate
};

SteadyState steady_state(const UpdateTimeline& timeline, double seconds);

}  // namespace gups
