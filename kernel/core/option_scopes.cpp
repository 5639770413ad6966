#include "kernel/core/option_scopes.hpp"

#include <algorithm>
#include <stdexcept>

namespace gups {

const std::vector<OptionScope>& option_scopes() {
  static const std::vector<OptionScope> rows{
      {"--shape", AlgorithmTrait::routes_over_torus, ""},
      {"--bucket-size", AlgorithmTrait::routes_over_torus, ""},
      {"--sends", AlgorithmTrait::routes_over_torus,
       "an algorithm that sends each update straight to its owner sends as HPCC's does"},
      {"--dma-injection", AlgorithmTrait::routes_over_torus, ""},
      {"--link-load", AlgorithmTrait::routes_over_torus, ""},
      {"--settle-to", AlgorithmTrait::routes_over_torus,
       "an algorithm that sends each update straight to its owner keeps no timeline of the updates applied"},
      {"--role-plan", AlgorithmTrait::specialised_cores, ""},
      {"--handoffs", AlgorithmTrait::specialised_cores, "only specialised cores hand updates on"},
  };
  return rows;
}

const OptionScope& option_scope(std::string_view option) {
  const auto& rows = option_scopes();
  const auto row = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r.option == option; });
  if (row == rows.end()) throw std::out_of_range("no scope for " + std::string(option));
  return *row;
}

std::string refusal_template(const OptionScope& scope) {
  std::string text = "{option} applies to " + algorithms_with(scope.needs);
  if (!scope.why.empty()) text += " (" + std::string(scope.why) + ")";
  return text;
}

std::string refusal(std::string_view option, std::string_view as_given) {
  std::string text = refusal_template(option_scope(option));
  text.replace(text.find("{option}"), 8, as_given.empty() ? option : as_given);
  return text;
}

std::string scope_help(std::string_view option) {
  return algorithms_with(option_scope(option).needs, ", ") + ": ";
}

}  // namespace gups
