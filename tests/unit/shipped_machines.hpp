// The machine files shipped in models/machines, as the unit tests load them.
#pragma once

#include <string>

#include "models/src/machine.hpp"

namespace gups::model::testing {

inline Machine shipped_machine(const std::string& name) { return load_machine(name, default_machine_directories()); }
inline Machine bgp() { return shipped_machine("bgp"); }

}  // namespace gups::model::testing
