// Torus nodes placed on a machine's nodes: how many share one machine node,
// and so how many of its cores apply updates at once (tu follows that:
// Machine::update_cycles). The model and the simulation's charges place
// alike, so that both describe the same run.
#pragma once

#include <cstdint>
#include <string>

#include "models/src/machine.hpp"

namespace gups::model {

// Torus nodes per machine node as asked: a count, or 0 for "fill" (as many
// as the machine node's cores hold, as mpirun places ranks by slot).
inline constexpr unsigned kFillHost = 0;

struct HostPlacement {
  unsigned nodes_per_host = 1;
  unsigned updating_cores = 1;  // of one machine node, at once
};

// `ranks_per_node` and `updaters_per_node` are per torus node. Throws
// std::invalid_argument when the nodes placed together need more ranks than
// the machine node has cores (time-shared cores, which nothing here models).
HostPlacement place_on_hosts(const Machine& machine, std::uint64_t nodes, unsigned ranks_per_node,
                             unsigned updaters_per_node, unsigned requested);

// "fill" -> kFillHost, "3" -> 3; throws std::invalid_argument otherwise.
unsigned nodes_per_host_named(const std::string& text);
inline constexpr const char* kNodesPerHostHelp =
    "torus nodes placed on one of the machine's nodes, sharing its cores and memory (tu follows how many of its "
    "cores update at once); 'fill': as many as its cores hold, as mpirun places ranks by slot (this host's runs)";

}  // namespace gups::model
