// What gups-model prints: a table in the manner of the paper's Table 4 for
// a person, and the same figures as JSON for a script.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/src/bounds.hpp"
#include "models/src/machine.hpp"

namespace gups::model {

struct ModelSeries {
  ModelOptions options;
  std::vector<Prediction> rows;
  std::optional<std::uint64_t> crossover;  // first node count where the network binds
  bool all_cores = false;  // a column per core however many (else, past kFoldedCores, the busiest few)
};

// Past this many cores a row shows its three busiest cores' cycles and a count (--all-cores: every one).
inline constexpr std::size_t kFoldedCores = 6;

// A GUPS figure to the decimals its size deserves.
std::string gups_text(double gups);
// The binds column (network, core N, CPU) and, in words, what sets the bound.
std::string binds_column(const Prediction& p);
std::string binding_resource(const Prediction& p);

std::string format_series(const Machine& machine, const ModelSeries& series);
nlohmann::json series_to_json(const Machine& machine, const ModelSeries& series);
nlohmann::json machine_summary(const Machine& machine);

inline constexpr const char* kModelSchema = "torus-gups/model/1";

}  // namespace gups::model
