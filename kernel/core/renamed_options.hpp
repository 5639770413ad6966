// Options and values whose names changed so that one concept has one name
// across gups, gups-sim, gups-topology, gups-model and the analysis. A
// program that has the new name refuses the old one with a line naming the
// new; gups-topology --catalogue exports the rows for gups-sim.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gups {

struct RenamedOption {
  std::string_view old_name;
  std::string_view new_name;
  std::string_view old_value;  // for a renamed value of the option: "--verify no" is now "--verify none"
  std::string_view new_value;
};

const std::vector<RenamedOption>& renamed_options();
// "--bandwidth-scale is now --bandwidth-scale (CHANGELOG, 2026-12-02)".
std::string renamed_message(const RenamedOption& row);

}  // namespace gups
