// Each input's kind (how its value is known) and the range that kind
// allows: what the intervals of gups-model and the studies rest on.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gups::model {

struct Machine;

enum class InputKind {
  measured,   // timed on the machine: the range is the timings' spread, never chosen by hand
  derived,    // computed from a printed figure by the paper's method: the figure's printed precision
  published,  // a public source: its stated precision, else that of the figure as written
  assumed,    // a guess: its range is required, with its reason
};
const char* to_string(InputKind kind);

// One entry of a machine file's `sources`: a plain string (the source's
// words), or an object saying the kind and what sets the range.
struct InputSource {
  InputSource(std::string words = {}, nlohmann::ordered_json as_declared = nullptr)  // NOLINT: a string is a source
      : text(std::move(words)), declared(std::move(as_declared)) {}
  InputSource(const char* words) : text(words) {}  // NOLINT: as above
  std::string text;
  nlohmann::ordered_json declared;  // the object as written; null for a plain string
};

struct InputRange {
  std::string field;  // dotted, as the file spells it
  InputKind kind = InputKind::assumed;
  double value = 0;  // the file's (core_overhead: its slowest core's)
  double low = 0, high = 0;
  std::vector<double> values;  // a structural unknown's alternatives (empty: a continuous range)
  std::string why;             // how the range was set, in words
  bool defaulted = false;      // absent from the file: it took the schema's default
  bool default_range = false;  // no range was given: the schema's default for an assumed input
  bool unsourced = false;      // the file gives no source for it at all
  bool stretched = false;      // the file's value lies outside the range its source gives, which grew to hold it

  bool ranged() const noexcept { return values.empty() ? high > low : values.size() > 1; }
  bool discrete() const noexcept { return !values.empty(); }
};

// An assumed input with no range of its own: a factor of this either way.
inline constexpr double kDefaultRangeFactor = 2;
// A value of torus.mesh_below_nodes that makes every partition a mesh ("all").
inline constexpr double kEveryPartitionMeshes = 4611686018427387904.0;  // 2^62

// Half a unit in the last significant digit of a decimal figure as written,
// relative to the figure: "0.38" gives 0.005 / 0.38, "150" gives 5 / 150.
// Throws std::invalid_argument when the text is no decimal number.
double printed_precision(const std::string& figure);

// Every input of the table, its kind and range, from the machine's sources,
// its timings' spread and the schema's defaults; each problem of a sources
// entry (a measured range given by hand, an assumed input with none, a
// value outside its range) is added to `problems`, with its field.
std::vector<InputRange> input_ranges(const Machine& machine, std::vector<std::string>& problems);

// The range as words: "[75, 300]" or "{512, all}".
std::string range_text(const InputRange& range);

}  // namespace gups::model
