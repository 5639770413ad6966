// Checks of command-line values that CLI11's own validators let through,
// shared by the programs of the project.
#pragma once

// SimGrid's smpicxx defines exit(x) as a macro; CLI11 has a member of that name.
#ifdef exit
#undef exit
#endif
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/core/renamed_options.hpp"

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

// An output file, checked before the run, so that a long run does not end
// unable to write its result: its folder exists and can be written, and the
// path itself is not a folder. "" where it is fine, else why not.
inline std::string output_file_problem(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) return path + " is a folder: name a file in it";
  const auto parent = std::filesystem::absolute(path, error).parent_path();
  if (!std::filesystem::is_directory(parent, error)) return "no such directory: " + parent.string();
  if (::access(parent.c_str(), W_OK) != 0) return "cannot write in " + parent.string();
  if (std::filesystem::exists(path, error) && ::access(path.c_str(), W_OK) != 0) return "cannot write " + path;
  return {};
}

inline const CLI::Validator kOutputFile([](std::string& path) { return output_file_problem(path); }, "FILE", "");

// Refuses, with a line naming the new spelling, the old names of the options
// this program has (renamed_options.hpp), and their old values: call just
// before parsing, inside the parse's try. Read from the arguments, as CLI11
// would otherwise put the option's name before the line or call it unknown.
inline void refuse_old_spellings(const CLI::App& app, int argc, const char* const* argv) {
  for (const auto& row : renamed_options()) {
    if (app.get_option_no_throw(std::string(row.new_name)) == nullptr) continue;
    const std::string old_name(row.old_name);
    for (int i = 1; i < argc; ++i) {
      const std::string argument(argv[i]);
      const bool named = argument == old_name || argument.starts_with(old_name + "=");
      if (!named) continue;
      const std::string value = argument.size() > old_name.size()
                                    ? argument.substr(old_name.size() + 1)
                                    : (i + 1 < argc ? std::string(argv[i + 1]) : std::string());
      if (row.old_value.empty() || value == row.old_value) throw CLI::ValidationError(renamed_message(row));
    }
  }
}

// A program's command line parsed, its old spellings refused first: the
// exit status to return at once (0 after --help, 2 after one error line
// "PROGRAM: error: ..."), or none to go on.
inline std::optional<int> parse_or_exit(CLI::App& app, int argc, const char* const* argv, std::string_view program) {
  try {
    refuse_old_spellings(app, argc, argv);
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return 2;
  }
  return std::nullopt;
}

}  // namespace gups::cli
