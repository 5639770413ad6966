#include "models/src/input_ranges.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include "models/src/machine.hpp"
#include "models/src/machine_schema.hpp"

namespace gups::model {
namespace {

using ordered = nlohmann::ordered_json;

bool starts_with_word(const std::string& text, const char* word) {
  const std::string w = word;
  if (text.size() < w.size()) return false;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != w[i]) return false;
  }
  return true;
}

struct Problem : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

[[noreturn]] void refuse(const std::string& field, const std::string& why) {
  throw Problem(fmt::format("field 'sources.{}' {}", field, why));
}

// One end of a written range: a number, or "x0.5" (a factor of the value).
double range_end(const ordered& end, double value, const std::string& field) {
  if (end.is_number()) return end.get<double>();
  if (end.is_string()) {
    const auto text = end.get<std::string>();
    if (text.size() > 1 && text[0] == 'x') {
      try {
        std::size_t used = 0;
        const double factor = std::stod(text.substr(1), &used);
        if (used == text.size() - 1 && factor >= 0) return value * factor;
      } catch (const std::exception&) {
      }
    }
  }
  refuse(field, "has a range end that is neither a number nor a factor such as \"x0.5\"");
}

void set_default_range(InputRange& r, const std::string& reason) {
  r.kind = InputKind::assumed;
  r.default_range = true;
  if (r.field == "torus.mesh_below_nodes") {
    r.values = {0, r.value, kEveryPartitionMeshes};
    std::sort(r.values.begin(), r.values.end());
    r.values.erase(std::unique(r.values.begin(), r.values.end()), r.values.end());
    r.why = reason + "; both ends of the unknown: every partition wraps, or none does";
    return;
  }
  r.low = r.value / kDefaultRangeFactor;
  r.high = r.value * kDefaultRangeFactor;
  r.why = fmt::format("{}; a factor of {:g} either way", reason, kDefaultRangeFactor);
}

void set_precision(InputRange& r, double relative, const std::string& why) {
  r.low = r.value * (1 - relative);
  r.high = r.value * (1 + relative);
  r.why = why;
}

void check_keys(const ordered& declared, const std::string& field) {
  static const char* known[] = {"kind", "source", "range", "values", "printed", "elasticity", "precision", "spread"};
  for (const auto& [key, ignored] : declared.items()) {
    if (std::none_of(std::begin(known), std::end(known), [&](const char* k) { return key == k; })) {
      refuse(field, fmt::format("has '{}', which is not one of kind, source, range, values, printed, elasticity, "
                                "precision, spread",
                                key));
    }
  }
}

InputKind kind_named(const ordered& declared, const std::string& field) {
  if (!declared.contains("kind") || !declared.at("kind").is_string()) {
    refuse(field, "needs a kind: measured, derived, published or assumed");
  }
  const auto kind = declared.at("kind").get<std::string>();
  for (const auto k : {InputKind::measured, InputKind::derived, InputKind::published, InputKind::assumed}) {
    if (kind == to_string(k)) return k;
  }
  refuse(field, fmt::format("has kind '{}'; it must be measured, derived, published or assumed", kind));
}

double positive_number(const ordered& declared, const char* key, const std::string& field) {
  const auto& x = declared.at(key);
  if (!x.is_number() || !(x.get<double>() >= 0) || !std::isfinite(x.get<double>())) {
    refuse(field, fmt::format("has a '{}' that is not a number >= 0", key));
  }
  return x.get<double>();
}

// A measured input's range: from its least timing (the file's value) to its median.
void set_spread(InputRange& r, double spread) {
  r.low = r.value;
  r.high = r.value * (1 + spread);
  r.why = fmt::format("measured: the least of its repeats to their median (+{:.1f}%)", 100 * spread);
}

void read_measured(const Machine& m, const ordered& declared, InputRange& r) {
  if (declared.contains("range") || declared.contains("values")) {
    refuse(r.field, "is measured, and a measured range comes from its timings' spread, never given by hand (drop "
                    "'range'; gups-calibrate writes the spread)");
  }
  double spread = 0;
  if (r.field.starts_with("costs_cycles.")) {
    const auto found = m.cost_spread.find(r.field.substr(13));
    if (found == m.cost_spread.end()) {
      refuse(r.field, "is measured, and costs_cycles_spread gives no spread for it (gups-calibrate writes one "
                      "for every cost it times)");
    }
    spread = found->second;
  } else if (declared.contains("spread")) {
    spread = positive_number(declared, "spread", r.field);
  } else {
    refuse(r.field, "is measured and gives no 'spread' (median / least of its repeats, less 1)");
  }
  set_spread(r, spread);
}

void read_derived(const ordered& declared, InputRange& r) {
  if (declared.contains("range") || declared.contains("values")) {
    refuse(r.field, "is derived, and a derived range follows its printed figure's precision (drop 'range'; give "
                    "'printed' and, where the input moves faster than the figure, 'elasticity')");
  }
  if (!declared.contains("printed") || !declared.at("printed").is_string()) {
    refuse(r.field, "is derived and needs 'printed': the figure it was computed from, as printed (such as \"0.38\")");
  }
  const auto printed = declared.at("printed").get<std::string>();
  double relative = 0;
  try {
    relative = printed_precision(printed);
  } catch (const std::invalid_argument&) {
    refuse(r.field, fmt::format("has printed '{}', which is no decimal figure", printed));
  }
  const double elasticity = declared.contains("elasticity") ? positive_number(declared, "elasticity", r.field) : 1;
  set_precision(r, relative * elasticity,
                fmt::format("derived from the printed {}: half its last digit ({:.2f}%){}", printed, 100 * relative,
                            elasticity != 1 ? fmt::format(" times {:g}, how much faster the input moves", elasticity)
                                            : std::string()));
}

void read_given_range(const ordered& declared, InputRange& r, const std::string& kind) {
  if (declared.contains("values")) {
    const auto& values = declared.at("values");
    if (!values.is_array() || values.size() < 2) refuse(r.field, "has 'values' that is not a list of two or more");
    for (const auto& v : values) {
      if (v.is_string() && v.get<std::string>() == "all" && r.field == "torus.mesh_below_nodes") {
        r.values.push_back(kEveryPartitionMeshes);
      } else if (v.is_number()) {
        r.values.push_back(v.get<double>());
      } else {
        refuse(r.field, "has a value that is not a number");
      }
    }
    std::sort(r.values.begin(), r.values.end());
    r.why = kind + ": " + range_text(r);
    if (std::find(r.values.begin(), r.values.end(), r.value) == r.values.end()) {
      // A variant that moved the value on purpose (a what-if): the unknown keeps its values and gains this one.
      r.why += fmt::format(", and the file's own {:g}, which its sources entry leaves out", r.value);
      r.stretched = true;
      r.values.insert(std::upper_bound(r.values.begin(), r.values.end(), r.value), r.value);
    }
    return;
  }
  const auto& range = declared.at("range");
  if (!range.is_array() || range.size() != 2) refuse(r.field, "has a 'range' that is not [low, high]");
  r.low = range_end(range[0], r.value, r.field);
  r.high = range_end(range[1], r.value, r.field);
  if (r.low > r.high) refuse(r.field, "has a range whose low end is above its high end");
  r.why = fmt::format("{}: [{:g}, {:g}] as the file gives it", kind, r.low, r.high);
  constexpr double kSlack = 1e-12;
  if (r.value < r.low * (1 - kSlack) || r.value > r.high * (1 + kSlack)) {
    // As above: the range reaches the moved value, and says so.
    r.why += fmt::format(", stretched to the file's own {:g}, which it leaves out", r.value);
    r.stretched = true;
    r.low = std::min(r.low, r.value);
    r.high = std::max(r.high, r.value);
  }
}

void read_declared(const Machine& m, const ordered& declared, InputRange& r) {
  check_keys(declared, r.field);
  if (!declared.contains("source") || !declared.at("source").is_string()) {
    refuse(r.field, "needs 'source': where the value comes from, in words");
  }
  r.kind = kind_named(declared, r.field);
  switch (r.kind) {
    case InputKind::measured:
      return read_measured(m, declared, r);
    case InputKind::derived:
      return read_derived(declared, r);
    case InputKind::published:
      if (declared.contains("range") || declared.contains("values")) return read_given_range(declared, r, "published");
      if (declared.contains("precision")) {
        const double precision = positive_number(declared, "precision", r.field);
        return set_precision(r, precision, fmt::format("published, to {:g}% as its source states", 100 * precision));
      }
      return set_precision(r, printed_precision(fmt::format("{}", r.value)),
                           "published: half the last digit of the figure as written");
    case InputKind::assumed:
      if (!declared.contains("range") && !declared.contains("values")) {
        refuse(r.field, "is assumed and gives no range: an assumed input needs 'range' [low, high] (or factors "
                        "such as [\"x0.5\", \"x2\"]) and its reason in 'source'");
      }
      return read_given_range(declared, r, "assumed");
  }
}

// The sources entry for a field: its own, else its section's ("packet" for packet.ack_bytes).
const InputSource* source_of(const Machine& m, const std::string& field) {
  if (const auto found = m.sources.find(field); found != m.sources.end()) return &found->second;
  const auto dot = field.find('.');
  if (dot == std::string::npos) return nullptr;
  const auto section = m.sources.find(field.substr(0, dot));
  return section == m.sources.end() ? nullptr : &section->second;
}

InputRange range_of(const Machine& m, const InputField& f, int depth = 0);

// "see send_call": the input another field's source covers, whose kind and
// relative range it shares. Null when the words name no input.
const InputField* seen_field(const Machine& m, const std::string& text) {
  if (!starts_with_word(text, "see ")) return nullptr;
  auto name = text.substr(4);
  name = name.substr(0, name.find_first_of(" ,;:()"));
  if (const auto* field = input_field(name, m)) return field;
  return input_field("costs_cycles." + name, m);
}

void share_range(const Machine& m, const InputField& seen, InputRange& r, int depth) {
  const auto other = range_of(m, seen, depth + 1);
  r.kind = other.kind;
  r.default_range = other.default_range;
  if (other.discrete()) {
    r.values = other.values;
  } else if (other.value > 0) {
    r.low = r.value * other.low / other.value;
    r.high = r.value * other.high / other.value;
  }
  r.why = fmt::format("as {}: {}", other.field, other.why);
}

InputRange range_of(const Machine& m, const InputField& f, int depth) {
  InputRange r;
  r.field = field_name(f, m);
  r.value = f.get(m);
  r.defaulted = std::find(m.defaulted.begin(), m.defaulted.end(), f.name) != m.defaulted.end();
  const auto* source = r.defaulted ? nullptr : source_of(m, r.field);
  if (r.defaulted) {
    set_default_range(r, fmt::format("left out: the default, {}, assumed", f.fallback_text));
  } else if (source == nullptr) {
    r.unsourced = true;
    set_default_range(r, "no source: assumed");
  } else if (source->declared.is_object()) {
    read_declared(m, source->declared, r);
  } else if (const auto* seen = depth < 4 ? seen_field(m, source->text) : nullptr; seen != nullptr && seen != &f) {
    share_range(m, *seen, r, depth);
  } else if (source->text.find("assumed") != std::string::npos) {  // a source's words that say it is a guess
    set_default_range(r, "assumed, with no range of its own");
  } else if (starts_with_word(source->text, "timed")) {  // a calibration written before sources said their kind
    const auto found = m.cost_spread.find(r.field.substr(r.field.find('.') + 1));
    const double spread = found == m.cost_spread.end() ? 0 : found->second;
    r.kind = InputKind::measured;
    set_spread(r, spread);
  } else {
    r.kind = InputKind::published;
    set_precision(r, printed_precision(fmt::format("{}", r.value)),
                  "published: half the last digit of the figure as written");
  }
  if (f.whole && !r.discrete()) {  // a count takes only the whole numbers its range holds
    r.low = std::ceil(r.low - 1e-9) + 0.0;  // + 0.0: never -0
    r.high = std::floor(r.high + 1e-9);
  }
  if (r.value == 0 && !r.discrete() && r.low == 0 && r.high == 0) r.why += " (0 either way)";
  return r;
}

}  // namespace

const char* to_string(InputKind kind) {
  switch (kind) {
    case InputKind::measured: return "measured";
    case InputKind::derived: return "derived";
    case InputKind::published: return "published";
    case InputKind::assumed: return "assumed";
  }
  return "?";
}

double printed_precision(const std::string& figure) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(figure, &used);
  } catch (const std::exception&) {
    throw std::invalid_argument("no decimal figure: " + figure);
  }
  if (used != figure.size() || !std::isfinite(value)) throw std::invalid_argument("no decimal figure: " + figure);
  if (value == 0) return 0;
  const auto e = figure.find_first_of("eE");
  const std::string mantissa = figure.substr(0, e);
  const int exponent = e == std::string::npos ? 0 : std::stoi(figure.substr(e + 1));
  const auto point = mantissa.find('.');
  int last;  // power of ten of the last significant digit
  if (point != std::string::npos) {
    last = -static_cast<int>(mantissa.size() - point - 1);
  } else {
    const auto digits = mantissa.find_last_not_of('0');
    last = static_cast<int>(mantissa.size() - 1 - digits);
  }
  return 0.5 * std::pow(10.0, last + exponent) / std::abs(value);
}

std::vector<InputRange> input_ranges(const Machine& machine, std::vector<std::string>& problems) {
  std::vector<InputRange> ranges;
  for (const auto& field : input_fields()) {
    if (!field.ranged || !field_applies(field, machine)) continue;
    // A left-out field that equals another moves with it (with_input): no input of its own.
    const bool defaulted =
        std::find(machine.defaulted.begin(), machine.defaulted.end(), field.name) != machine.defaulted.end();
    if (defaulted && field.follows != nullptr) continue;
    if (std::string(field.name) == "torus.mesh_below_nodes" && !machine.topology->is_virtual_torus) continue;
    try {
      ranges.push_back(range_of(machine, field));
    } catch (const Problem& problem) {
      problems.emplace_back(problem.what());
    }
  }
  return ranges;
}

std::string range_text(const InputRange& r) {
  if (r.discrete()) {
    std::vector<std::string> values;
    for (const auto v : r.values) values.push_back(v >= kEveryPartitionMeshes ? "all" : fmt::format("{:g}", v));
    return fmt::format("{{{}}}", fmt::join(values, ", "));
  }
  return fmt::format("[{:.4g}, {:.4g}]", r.low, r.high);
}

}  // namespace gups::model
