// A SimGrid platform of a machine's torus: a TORUS cluster with the
// machine's link bandwidth and latency, hosts with its cores and clock (what
// --costs measured scales SMPI's timings by; charged cycles are timed waits),
// and the hostfile placing core c of node n at rank
// n * k + c (SimGrid numbers torus hosts with dimension 0 fastest, as the
// kernel does). A mesh, which SimGrid's clusters do not offer, is a zone of
// the same hosts and links without the wrap-around ones, routed by shortest
// paths (Floyd): along a line of a mesh there is only one.
//
// At the network levels other than flow the platform is a flat cluster of
// the same hosts, each with a private link fast enough never to be waited
// on, and the torus in the cluster's properties (simulated_network.hpp):
// the simulated kernel sets each message's time across the torus from them.
#pragma once

#include <string>

#include "kernel/core/torus_shape.hpp"
#include "models/src/machine.hpp"
#include "sim/levels/network_level.hpp"
#include "topologies/platform_names.hpp"

namespace gups::topology {

struct PlatformOptions {
  unsigned ranks_per_node = 1;
  double bandwidth_scale = 1;  // > 1 makes the network that much faster (model agreement runs)
  bool zero_latency = false;
  // No wrap-around links: each line of nodes is a chain (Blue Gene
  // partitions smaller than a midplane).
  bool mesh = false;
  // By dimension, when some wrap and others do not (empty: as `mesh` says).
  // Only the levels that route messages themselves take it.
  std::vector<bool> wraps;
  NetworkLevel level;  // flow unless asked
};

// Throws std::invalid_argument, one line, when the level cannot run on this
// machine (its parameters in the machine file are missing or wrong).
std::string platform_xml(const model::Machine& machine, const TorusShape& shape, const PlatformOptions& options);

// What a level reads besides the links' speeds: the machine file's
// network_levels.LEVEL, with the machine's packet format and topology name.
LevelParameters level_parameters(const model::Machine& machine, NetworkLevel level);
// The level's own check of `parameters` (NetworkLevel::check), its one-line
// error naming the machine and the level.
void check_level_parameters(const model::Machine& machine, NetworkLevel level, const LevelParameters& parameters);
std::string hostfile(const TorusShape& shape, unsigned ranks_per_node);

}  // namespace gups::topology
