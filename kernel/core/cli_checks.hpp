// Checks of command-line values that CLI11's own validators let through,
// shared by the programs of the project.
#pragma once

// SimGrid's smpicxx defines exit(x) as a macro; CLI11 has a member of that name.
#ifdef exit
#undef exit
#endif
#include <CLI/CLI.hpp>

#include <cmath>
#include <string>

namespace gups::cli {

// "--shape ''" would otherwise mean "not given".
inline const CLI::Validator kNotEmpty(
    [](std::string& value) { return value.empty() ? std::string("must not be empty") : std::string(); }, "", "");

// CLI::PositiveNumber accepts "nan" (no comparison with NaN fails) and "inf".
inline const CLI::Validator kFinitePositive(
    [](std::string& value) {
      double number = 0;
      if (!CLI::detail::lexical_cast(value, number) || !std::isfinite(number) || number <= 0) {
        return "Value " + value + " is not a finite number above 0";
      }
      return std::string();
    },
    "POSITIVE", "");

}  // namespace gups::cli
