// The options of the programs gups-sim runs, as their own parsers declare
// them (gups, simulated; the Apex-Map probe; the global-exchange probes):
// what gups-topology --catalogue exports, so that gups-sim builds its
// pass-through options and their help from one declaration.
#pragma once

#include <nlohmann/json.hpp>

namespace gups::topology {

// {"gups": [...], "apex-map": [...], "exchange": [...]}, each option
// {"name", "help", "default", "flag"} in its parser's order, --help left out.
nlohmann::ordered_json program_options_json();

}  // namespace gups::topology
