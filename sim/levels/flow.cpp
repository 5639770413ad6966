// flow: SimGrid's own network. Every link of the physical network is a
// sharing constraint, and SimGrid re-solves the fair shares of the links a
// message crosses whenever a message starts or ends: exact, and the level
// the cheaper ones are validated against.
#include "sim/levels/network_level.hpp"

namespace gups {

extern const NetworkLevelKind network_level_flow{
    "flow", "SimGrid's network: every link shared fairly among the messages crossing it (exact, slowest at scale)",
    nullptr};

}  // namespace gups
