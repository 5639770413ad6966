#include "topologies/topology.hpp"

#include <stdexcept>

#include "topologies/platform_names.hpp"

namespace gups {

#define GUPS_TOPOLOGY(name) extern const TopologyKind topology_##name;
#include "topologies/topologies.def"
#undef GUPS_TOPOLOGY

const std::vector<const TopologyKind*>& topologies() {
  static const std::vector<const TopologyKind*> registered{
#define GUPS_TOPOLOGY(name) &topology_##name,
#include "topologies/topologies.def"
#undef GUPS_TOPOLOGY
  };
  return registered;
}

const TopologyKind& topology_named(const std::string& name) {
  std::string names;
  for (const auto* kind : topologies()) {
    if (name == kind->name) return *kind;
    names += (names.empty() ? "" : ", ") + std::string(kind->name);
  }
  throw std::invalid_argument("unknown topology '" + name + "' (give " + names + ")");
}

std::shared_ptr<const PhysicalLinks> platform_links(const TopologyKind& kind, const PropertyReader& property) {
  return kind.platform_links ? kind.platform_links(property) : kind.links(property(kTopologyParametersProperty));
}

}  // namespace gups
