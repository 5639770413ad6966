#include "models/src/prediction_interval.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "models/src/machine_schema.hpp"

namespace gups::model {
namespace {

struct Coordinate {
  const InputRange* range;
  const InputField* field;
  std::vector<double> candidates;  // the ends a corner may take: low and high, or the discrete values
};

std::vector<Coordinate> coordinates(const Machine& machine) {
  std::vector<Coordinate> coordinates;
  for (const auto& range : machine.ranges) {
    if (!range.ranged()) continue;
    const auto* field = input_field(range.field, machine);
    if (field == nullptr) throw std::logic_error("no schema row for input " + range.field);
    coordinates.push_back({&range, field, range.discrete() ? range.values : std::vector<double>{range.low, range.high}});
  }
  return coordinates;
}

class Evaluator {
 public:
  Evaluator(const Machine& machine, const TorusShape& shape, const ModelOptions& options,
            const std::vector<Coordinate>& coordinates)
      : machine_(machine), shape_(shape), options_(options), coordinates_(coordinates) {}

  Prediction at(const std::vector<double>& point) const {
    auto varied = machine_;
    for (std::size_t i = 0; i < coordinates_.size(); ++i) set_input(varied, *coordinates_[i].field, point[i]);
    return predict(varied, shape_, options_);
  }

  // The corner where GUPS is least (sign -1) or most (+1): each input moved
  // in turn to the candidate that goes furthest, twice over, since an input
  // that moves nothing at the file's values may move the output at a corner.
  // It starts from `start`: each input at the side its tornado bar lowers
  // (or raises) the bound, so that one the corner leaves indifferent still
  // sits at that end (a simulation of the end charges it too).
  std::vector<double> corner(int sign, std::vector<double> point) const {
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t i = 0; i < coordinates_.size(); ++i) {
        double best = point[i], best_gups = sign * at(point).gups;
        for (const double candidate : coordinates_[i].candidates) {
          auto trial = point;
          trial[i] = candidate;
          const double g = sign * at(trial).gups;
          if (g > best_gups) {
            best = candidate;
            best_gups = g;
          }
        }
        point[i] = best;
      }
    }
    return point;
  }

 private:
  const Machine& machine_;
  const TorusShape& shape_;
  const ModelOptions& options_;
  const std::vector<Coordinate>& coordinates_;
};

IntervalEnd end_at(const Evaluator& evaluate, const std::vector<Coordinate>& coordinates,
                   const std::vector<double>& point) {
  IntervalEnd end{evaluate.at(point), {}};
  for (std::size_t i = 0; i < coordinates.size(); ++i) end.inputs.emplace_back(coordinates[i].range->field, point[i]);
  return end;
}

double draw(const Coordinate& c, std::mt19937_64& random) {
  const auto& r = *c.range;
  if (r.discrete()) return r.values[std::uniform_int_distribution<std::size_t>(0, r.values.size() - 1)(random)];
  std::uniform_real_distribution<double> unit(0, 1);
  if (r.low > 0) return r.low * std::pow(r.high / r.low, unit(random));
  return r.low + (r.high - r.low) * unit(random);
}

double percentile(std::vector<double>& sorted, double fraction) {
  const double at = fraction * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(at));
  const auto above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

}  // namespace

Machine machine_at(const Machine& machine, const std::vector<std::pair<std::string, double>>& inputs) {
  auto varied = machine;
  for (const auto& [name, value] : inputs) {
    const auto* field = input_field(name, machine);
    if (field == nullptr) throw std::invalid_argument(fmt::format("machine '{}' has no input '{}'", machine.name, name));
    set_input(varied, *field, value);
  }
  return varied;
}

PredictionInterval prediction_interval(const Machine& machine, const TorusShape& shape, const ModelOptions& options,
                                       unsigned samples, std::uint64_t seed) {
  const auto axes = coordinates(machine);
  auto cached = options;
  if (!cached.routes_cache) cached.routes_cache = std::make_shared<RoutesCache>();
  const Evaluator evaluate(machine, shape, cached, axes);
  std::vector<double> file_point;
  for (const auto& c : axes) file_point.push_back(c.range->value);
  PredictionInterval interval;
  interval.gups = evaluate.at(file_point).gups;
  std::vector<double> lowering = file_point, raising = file_point;

  double total = 0;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    InputEffect effect{*axes[i].range, interval.gups, interval.gups, 0, 0};
    double least = INFINITY, most = -INFINITY;
    for (const double candidate : axes[i].candidates) {
      auto point = file_point;
      point[i] = candidate;
      const double g = evaluate.at(point).gups;
      if (g < least) lowering[i] = candidate;
      if (g > most) raising[i] = candidate;
      least = std::min(least, g);
      most = std::max(most, g);
      if (candidate == axes[i].candidates.front()) effect.gups_at_low = g;
      if (candidate == axes[i].candidates.back()) effect.gups_at_high = g;
    }
    if (least == most) {  // indifferent here: the side that would lower it, by what the input is
      const std::string unit = axes[i].field->unit;
      const bool better_higher = unit == "Hz" || unit == "B/s";
      lowering[i] = better_higher ? axes[i].candidates.front() : axes[i].candidates.back();
      raising[i] = better_higher ? axes[i].candidates.back() : axes[i].candidates.front();
    }
    effect.swing = most - least;
    total += effect.swing * effect.swing;
    interval.inputs.push_back(effect);
  }
  for (auto& effect : interval.inputs) effect.share = total > 0 ? effect.swing * effect.swing / total : 0;
  interval.low = end_at(evaluate, axes, evaluate.corner(-1, lowering));
  interval.high = end_at(evaluate, axes, evaluate.corner(+1, raising));
  std::stable_sort(interval.inputs.begin(), interval.inputs.end(),
                   [](const InputEffect& a, const InputEffect& b) { return a.share > b.share; });

  interval.samples = axes.empty() ? 0 : samples;
  interval.central_low = interval.low.prediction.gups;
  interval.central_high = interval.high.prediction.gups;
  if (interval.samples > 0) {
    std::mt19937_64 random(seed);
    std::vector<double> drawn;
    drawn.reserve(samples);
    for (unsigned s = 0; s < samples; ++s) {
      std::vector<double> point;
      for (const auto& c : axes) point.push_back(draw(c, random));
      drawn.push_back(evaluate.at(point).gups);
    }
    std::sort(drawn.begin(), drawn.end());
    interval.central_low = percentile(drawn, 0.05);
    interval.central_high = percentile(drawn, 0.95);
  }
  return interval;
}

namespace {

// The value of one input giving `target` with the others at the file's
// values: the bounds are monotone in it, so a bisection (on a log scale,
// where the input is positive) over a factor of 1000 either way finds it.
std::optional<double> needed_value(const Machine& machine, const TorusShape& shape, const ModelOptions& options,
                                   const InputRange& range, double target) {
  const auto* field = input_field(range.field, machine);
  const auto gups_at = [&](double value) { return predict(with_input(machine, *field, value), shape, options).gups; };
  if (range.discrete()) {
    for (const double value : range.values) {
      if (std::abs(gups_at(value) / target - 1) < 1e-3) return value;
    }
    return std::nullopt;
  }
  if (range.value <= 0) return std::nullopt;
  double low = range.value / 1000, high = range.value * 1000;
  const double at_low = gups_at(low) - target, at_high = gups_at(high) - target;
  if (at_low * at_high > 0) return std::nullopt;
  for (int step = 0; step < 60; ++step) {
    const double middle = std::sqrt(low * high);
    if ((gups_at(middle) - target) * at_low > 0) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return std::sqrt(low * high);
}

}  // namespace

MeasuredVerdict judge_measured(const Machine& machine, const TorusShape& shape, const ModelOptions& options,
                               const PredictionInterval& interval, double measured) {
  MeasuredVerdict verdict;
  verdict.measured = measured;
  const double low = interval.low.prediction.gups, high = interval.high.prediction.gups;
  verdict.inside = measured >= low * (1 - 1e-9) && measured <= high * (1 + 1e-9);
  if (!verdict.inside) verdict.beyond = measured / (measured > high ? high : low) - 1;
  for (const auto& effect : interval.inputs) {
    if (effect.share <= 0) continue;
    verdict.moves.push_back({effect.range, needed_value(machine, shape, options, effect.range, measured)});
  }
  return verdict;
}

}  // namespace gups::model
