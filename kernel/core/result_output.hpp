// A program's result, once: the lines for people on stdout and, when asked,
// the JSON for scripts in a file.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace gups {

// False (and one "PROGRAM: error:" line) when the JSON file cannot be written.
bool print_and_save(const std::string& lines, const nlohmann::json& document, const std::string& json_path,
                    const char* program = "gups");

}  // namespace gups
