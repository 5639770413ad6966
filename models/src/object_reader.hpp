// Reads the fields of one JSON object of a machine file, naming each by its
// dotted path in errors, and rejects fields it was never asked for (a
// mistyped name), with the likely meant one.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace gups::model {

inline std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1] ? 1 : 0)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

class ObjectReader {
 public:
  using json = nlohmann::json;
  ObjectReader(const json& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object_.is_object()) fail(path_.empty() ? "the file" : path_, "must be a JSON object");
  }

  double number(const std::string& key, bool positive = false) {
    const auto& value = field(key);
    if (!value.is_number()) fail(name(key), "must be a number");
    const double x = value.get<double>();
    if (!std::isfinite(x) || x < 0) fail(name(key), fmt::format("must not be negative (is {})", x));
    if (positive && x == 0) fail(name(key), "must be greater than zero");
    return x;
  }

  unsigned count(const std::string& key, unsigned minimum = 1) {
    const auto& value = field(key);
    if (!value.is_number_integer() || value.get<long long>() < minimum ||
        value.get<long long>() > UINT32_MAX) {
      fail(name(key), fmt::format("must be a whole number >= {}", minimum));
    }
    return value.get<unsigned>();
  }

  std::string text(const std::string& key) {
    const auto& value = field(key);
    if (!value.is_string()) fail(name(key), "must be a string");
    return value.get<std::string>();
  }

  const json& child(const std::string& key) { return field(key); }
  bool has(const std::string& key) const { return object_.contains(key); }
  void skip(const std::string& key) { known_.insert(key); }
  std::string name(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

  // Call after reading: every field present must have been read.
  void reject_unknown() const {
    for (const auto& [key, value] : object_.items()) {
      if (known_.count(key)) continue;
      std::string hint;
      for (const auto& k : known_) {
        if (edit_distance(k, key) <= 2) hint = fmt::format(" (did you mean '{}'?)", name(k));
      }
      fail(name(key), "is not a known field" + hint);
    }
  }

  [[noreturn]] static void fail(const std::string& field, const std::string& problem) {
    throw std::invalid_argument(fmt::format("field '{}' {}", field, problem));
  }

 private:
  const json& field(const std::string& key) {
    known_.insert(key);
    if (!object_.contains(key)) {
      std::string hint;
      for (const auto& [present, value] : object_.items()) {
        if (edit_distance(present, key) <= 2) hint = fmt::format(" (is '{}' a misspelling?)", name(present));
      }
      fail(name(key), "is missing" + hint);
    }
    return object_.at(key);
  }

  const json& object_;
  std::string path_;
  std::set<std::string> known_;
};

}  // namespace gups::model
