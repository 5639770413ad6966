// A program's result, once: the lines for people on stdout and, when asked,
// the JSON for scripts in a file.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gups {

// False (and one "PROGRAM: error:" line) when the JSON file cannot be written.
bool print_and_save(const std::string& lines, const nlohmann::json& document, const std::string& json_path,
                    const char* program = "gups");

// A probe's parsed command line (Parsed: outcome help, error or run, and
// its message) that needs no run: the help (exit 0) or the one-line error
// (exit 2), printed by rank 0 alone; none when the probe should run.
template <class Parsed>
std::optional<int> exit_without_running(const Parsed& parsed, int rank) {
  if (parsed.outcome == Parsed::Outcome::help) {
    if (rank == 0) std::fputs(parsed.message.c_str(), stdout);
    return 0;
  }
  if (parsed.outcome == Parsed::Outcome::error) {
    if (rank == 0) std::fprintf(stderr, "gups: error: %s\n", parsed.message.c_str());
    return 2;
  }
  return std::nullopt;
}

}  // namespace gups
