// What gups-model prints of each prediction's interval: one line a size in
// the table's manner, the full derivation under --explain, and JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/src/machine.hpp"
#include "models/src/prediction_interval.hpp"

namespace gups::model {

// The machine's inputs by kind: "18 ranged inputs: 3 derived, 6 published, 9 assumed (3 left out)".
std::string inputs_summary(const Machine& machine);

std::string format_intervals(const std::vector<Prediction>& rows, const std::vector<PredictionInterval>& intervals);
std::string explain_interval(const Prediction& row, const PredictionInterval& interval);
nlohmann::json interval_to_json(const PredictionInterval& interval);

// A measured figure judged against the row's interval, in one line, and as JSON.
std::string format_verdict(const Prediction& row, const PredictionInterval& interval, const MeasuredVerdict& verdict);
nlohmann::json verdict_to_json(const MeasuredVerdict& verdict);

// Every input's kind, value and range, as the machine file and its defaults give them.
nlohmann::json ranges_to_json(const Machine& machine);

}  // namespace gups::model
