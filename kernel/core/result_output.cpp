#include "kernel/core/result_output.hpp"

#include <cstdio>
#include <fstream>

namespace gups {

bool print_and_save(const std::string& lines, const nlohmann::json& document, const std::string& json_path,
                    const char* program) {
  std::fputs(lines.c_str(), stdout);
  std::fflush(stdout);
  if (json_path.empty()) return true;
  std::ofstream json(json_path);
  json << document.dump(2) << '\n';
  if (!json) std::fprintf(stderr, "%s: error: cannot write %s\n", program, json_path.c_str());
  return static_cast<bool>(json);
}

}  // namespace gups
