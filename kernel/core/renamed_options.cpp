#include "kernel/core/renamed_options.hpp"

namespace gups {

const std::vector<RenamedOption>& renamed_options() {
  static const std::vector<RenamedOption> rows{
      {"--network-scale", "--bandwidth-scale", "", ""},
      {"--converge-tolerance", "--settle-to", "", ""},
      {"--ranks-per-node", "--cores-per-node", "", ""},
      {"--verify", "--verify", "no", "none"},
  };
  return rows;
}

std::string renamed_message(const RenamedOption& row) {
  const auto spelled = [](std::string_view name, std::string_view value) {
    return std::string(name) + (value.empty() ? "" : " " + std::string(value));
  };
  return spelled(row.old_name, row.old_value) + " is now " + spelled(row.new_name, row.new_value) +
         " (CHANGELOG.md, one name for one concept)";
}

}  // namespace gups
