#include "models/src/model_intervals.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

#include "models/src/model_report.hpp"

namespace gups::model {
namespace {

constexpr std::size_t kTopInputs = 3;

std::string short_name(const std::string& field) {
  const std::string prefix = "costs_cycles.";
  return field.starts_with(prefix) ? field.substr(prefix.size()) : field;
}

std::string top_inputs(const PredictionInterval& interval) {
  std::vector<std::string> named;
  for (const auto& effect : interval.inputs) {
    if (named.size() == kTopInputs || effect.share < 0.005) break;
    named.push_back(fmt::format("{} {:.0f}%", short_name(effect.range.field), 100 * effect.share));
  }
  return named.empty() ? std::string("none moves it") : fmt::format("{}", fmt::join(named, ", "));
}

std::string binds_at_ends(const PredictionInterval& interval) {
  const auto low = binds_column(interval.low.prediction), high = binds_column(interval.high.prediction);
  return low == high ? low : low + " .. " + high;
}

std::string value_text(const InputRange& range, double value) {
  if (range.discrete() && value >= kEveryPartitionMeshes) return "all";
  return fmt::format("{:.4g}", value);
}

}  // namespace

std::string inputs_summary(const Machine& machine) {
  std::map<std::string, unsigned> by_kind;
  unsigned ranged = 0, left_out = 0, unsourced = 0;
  for (const auto& range : machine.ranges) {
    ++by_kind[to_string(range.kind)];
    if (range.ranged()) ++ranged;
    if (range.defaulted) ++left_out;
    if (range.default_range && !range.defaulted) ++unsourced;
  }
  std::vector<std::string> kinds;
  for (const auto kind : {InputKind::measured, InputKind::derived, InputKind::published, InputKind::assumed}) {
    if (by_kind.count(to_string(kind))) kinds.push_back(fmt::format("{} {}", by_kind[to_string(kind)], to_string(kind)));
  }
  std::string line = fmt::format("inputs of {}: {} ({} with a range)", machine.name, fmt::join(kinds, ", "), ranged);
  if (left_out) line += fmt::format("; {} left out, taking defaults", left_out);
  if (unsourced) line += fmt::format("; {} assumed with the default range", unsourced);
  return line;
}

std::string format_intervals(const std::vector<Prediction>& rows, const std::vector<PredictionInterval>& intervals) {
  if (intervals.empty()) return {};
  std::string out = fmt::format("{:>7} {:>9} {:>20} {:>20} {:>17}  {}\n", "N", "GUPS", "over the ranges",
                                "90% central", "binds low..high", "inputs by share of the spread");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& iv = intervals[i];
    const auto exact = fmt::format("{} .. {}", gups_text(iv.low.prediction.gups), gups_text(iv.high.prediction.gups));
    const auto central = iv.samples ? fmt::format("{} .. {}", gups_text(iv.central_low), gups_text(iv.central_high))
                                    : std::string("-");
    out += fmt::format("{:>7} {:>9} {:>20} {:>20} {:>17}  {}\n", rows[i].nodes, gups_text(iv.gups), exact, central,
                       binds_at_ends(iv), top_inputs(iv));
  }
  const auto central = intervals.front().samples
                           ? fmt::format("{} draws, {}", intervals.front().samples, kCentralDistribution)
                           : std::string("not drawn (--samples 0)");
  out += fmt::format("over the ranges: every input at the end that lowers, or raises, the bound (exact: the bounds "
                     "are monotone in each); 90% central: {}; shares: {}\n",
                     central, kRankingMethod);
  return out;
}

std::string explain_interval(const Prediction& row, const PredictionInterval& iv) {
  std::string out = fmt::format(
      "interval at {} nodes: {} GUPS at the file's values; {} to {} over the ranges", row.nodes, gups_text(iv.gups),
      gups_text(iv.low.prediction.gups), gups_text(iv.high.prediction.gups));
  if (iv.samples) {
    out += fmt::format(", {} to {} central (90% of {} draws)", gups_text(iv.central_low), gups_text(iv.central_high),
                       iv.samples);
  }
  out += "\n";
  const auto low_binds = binding_resource(iv.low.prediction), high_binds = binding_resource(iv.high.prediction);
  out += low_binds == high_binds
             ? fmt::format("  binds at both ends: {}\n", low_binds)
             : fmt::format("  binds at the low end: {}; at the high end: {} (the binding resource changes inside the "
                           "interval)\n",
                           low_binds, high_binds);
  out += fmt::format("  {:>6}  {:<40} {:<9} {:>10} {:>20} {:>18}  {}\n", "share", "input", "kind", "value", "range",
                     "GUPS at its ends", "how its range was set");
  for (const auto& e : iv.inputs) {
    out += fmt::format("  {:>5.1f}%  {:<40} {:<9} {:>10} {:>20} {:>18}  {}\n", 100 * e.share, e.range.field,
                       to_string(e.range.kind), value_text(e.range, e.range.value), range_text(e.range),
                       fmt::format("{} .. {}", gups_text(e.gups_at_low), gups_text(e.gups_at_high)), e.range.why);
  }
  std::vector<std::string> low, high;
  for (std::size_t i = 0; i < iv.low.inputs.size(); ++i) {
    const auto& [field, at_low] = iv.low.inputs[i];
    const auto at_high = iv.high.inputs[i].second;
    const auto range = std::find_if(iv.inputs.begin(), iv.inputs.end(),
                                    [&](const InputEffect& e) { return e.range.field == field; });
    if (range == iv.inputs.end() || at_low == at_high) continue;
    low.push_back(fmt::format("{}={}", short_name(field), value_text(range->range, at_low)));
    high.push_back(fmt::format("{}={}", short_name(field), value_text(range->range, at_high)));
  }
  out += fmt::format("  low end at: {}\n  high end at: {}\n", fmt::join(low, ", "), fmt::join(high, ", "));
  return out;
}

nlohmann::json interval_to_json(const PredictionInterval& iv) {
  auto end = [](const IntervalEnd& e) {
    nlohmann::json inputs = nlohmann::json::object();
    for (const auto& [field, value] : e.inputs) inputs[field] = value;
    return nlohmann::json{{"gups", e.prediction.gups},
                          {"binds", e.prediction.network_binds ? "network" : "cpu"},
                          {"binding_resource", binding_resource(e.prediction)},
                          {"inputs", inputs}};
  };
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& e : iv.inputs) {
    inputs.push_back({{"field", e.range.field},
                      {"kind", to_string(e.range.kind)},
                      {"value", e.range.value},
                      {"low", e.range.discrete() ? e.range.values.front() : e.range.low},
                      {"high", e.range.discrete() ? e.range.values.back() : e.range.high},
                      {"gups_at_low", e.gups_at_low},
                      {"gups_at_high", e.gups_at_high},
                      {"swing", e.swing},
                      {"share", e.share},
                      {"defaulted", e.range.defaulted}});
    if (e.range.discrete()) {  // a structural unknown: its values by name ("all" for every partition a mesh)
      auto& names = inputs.back()["values"] = nlohmann::json::array();
      for (const double v : e.range.values) names.push_back(value_text(e.range, v));
    }
  }
  return {{"gups", iv.gups},
          {"low", end(iv.low)},
          {"high", end(iv.high)},
          {"central_low", iv.central_low},
          {"central_high", iv.central_high},
          {"central_samples", iv.samples},
          {"central_method", kCentralDistribution},
          {"ranking_method", kRankingMethod},
          {"binding_changes", binding_resource(iv.low.prediction) != binding_resource(iv.high.prediction)},
          {"inputs", inputs}};
}

std::string format_verdict(const Prediction& row, const PredictionInterval& iv, const MeasuredVerdict& verdict) {
  const auto interval = fmt::format("{} .. {}", gups_text(iv.low.prediction.gups), gups_text(iv.high.prediction.gups));
  std::vector<std::string> named;
  for (const auto& move : verdict.moves) {
    if (named.size() == kTopInputs) break;
    named.push_back(short_name(move.range.field));
  }
  if (verdict.inside) {
    return fmt::format("measured at {} nodes: {} GUPS, inside the interval ({}): no mechanism needed, within the "
                       "ranges of {}\n",
                       row.nodes, gups_text(verdict.measured), interval,
                       named.empty() ? std::string("its inputs") : fmt::format("{}", fmt::join(named, " and ")));
  }
  std::vector<std::string> moves;
  for (const auto& move : verdict.moves) {
    if (moves.size() == kTopInputs) break;
    const auto& r = move.range;
    if (!move.needed) {
      moves.push_back(fmt::format("{} cannot reach it", short_name(r.field)));
    } else {
      moves.push_back(fmt::format("{} would have to be {} ({:+.0f}% of its {}, range {})", short_name(r.field),
                                  value_text(r, *move.needed), 100 * (*move.needed / r.value - 1),
                                  value_text(r, r.value), range_text(r)));
    }
  }
  return fmt::format("measured at {} nodes: {} GUPS, OUTSIDE the interval ({}), {} by {:.0f}%: beyond what the "
                     "inputs' ranges allow, not noise. Alone (the others at their values): {}\n",
                     row.nodes, gups_text(verdict.measured), interval, verdict.beyond > 0 ? "above" : "below",
                     100 * std::abs(verdict.beyond), fmt::join(moves, "; "));
}

nlohmann::json verdict_to_json(const MeasuredVerdict& verdict) {
  nlohmann::json moves = nlohmann::json::array();
  for (const auto& move : verdict.moves) {
    moves.push_back({{"field", move.range.field},
                     {"kind", to_string(move.range.kind)},
                     {"value", move.range.value},
                     {"needed", move.needed ? nlohmann::json(*move.needed) : nlohmann::json()}});
  }
  return {{"gups", verdict.measured},
          {"inside", verdict.inside},
          {"beyond", verdict.beyond},
          {"needed_alone", moves}};
}

nlohmann::json ranges_to_json(const Machine& machine) {
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& r : machine.ranges) {
    nlohmann::json row{{"field", r.field}, {"kind", to_string(r.kind)}, {"value", r.value}, {"why", r.why},
                       {"defaulted", r.defaulted}, {"default_range", r.default_range}};
    if (r.discrete()) {
      row["values"] = r.values;
    } else {
      row["low"] = r.low;
      row["high"] = r.high;
    }
    inputs.push_back(row);
  }
  return inputs;
}

}  // namespace gups::model
