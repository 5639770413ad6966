// A prediction's interval over its inputs' ranges: the exact ends (the
// bounds are monotone in each input, so each end is a corner of the ranges),
// a central interval under stated distributions, and the inputs ranked by
// how much of the spread each carries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/src/bounds.hpp"
#include "models/src/input_ranges.hpp"

namespace gups::model {

// One input's effect with every other at the file's value (a tornado bar).
struct InputEffect {
  InputRange range;
  double gups_at_low = 0;   // the input at its low end (a discrete one: its first value)
  double gups_at_high = 0;  // at its high end (a discrete one: its last value)
  double swing = 0;         // the most less the least GUPS over its range (over every value of a discrete one)
  double share = 0;         // its swing squared over the sum of every input's
};

// Where an end of the interval lies: its GUPS, what binds there, and the
// value each ranged input takes.
struct IntervalEnd {
  Prediction prediction;
  std::vector<std::pair<std::string, double>> inputs;
};

struct PredictionInterval {
  double gups = 0;  // at the file's values
  IntervalEnd low, high;
  // The central interval: 5th to 95th percentile of `samples` draws, each
  // continuous input log-uniform over its range (a ratio either way as
  // likely) and each discrete one uniform over its values.
  double central_low = 0, central_high = 0;
  unsigned samples = 0;
  std::vector<InputEffect> inputs;  // the ranged inputs, by share, largest first
};

inline constexpr const char* kCentralDistribution =
    "5th to 95th percentile of draws with each input log-uniform over its range (uniform where it reaches 0), "
    "each structural unknown uniform over its values";
inline constexpr const char* kRankingMethod =
    "one at a time (a tornado): each input from its low end to its high end with the others at the file's values; "
    "share = its swing squared over the sum of every input's";

// The machine with each named input at the given value.
Machine machine_at(const Machine& machine, const std::vector<std::pair<std::string, double>>& inputs);

// `samples` 0: no central interval (its ends are the exact interval's).
PredictionInterval prediction_interval(const Machine& machine, const TorusShape& shape, const ModelOptions& options,
                                       unsigned samples = 1000, std::uint64_t seed = 1);

// A measured figure against the interval: inside it, or outside with how
// far, and for each input that moves the bound, the value it alone would
// need (the others at the file's values) to give the measured figure.
struct NeededMove {
  InputRange range;
  std::optional<double> needed;  // none: no value within a factor of 1000 of the file's gives it
};
struct MeasuredVerdict {
  double measured = 0;
  bool inside = false;
  double beyond = 0;  // outside: measured / the nearer end - 1 (above the high end > 0, below the low end < 0)
  std::vector<NeededMove> moves;  // the inputs that move the bound, by share
};
MeasuredVerdict judge_measured(const Machine& machine, const TorusShape& shape, const ModelOptions& options,
                               const PredictionInterval& interval, double measured);

}  // namespace gups::model
