// What the hypercube algorithm's stages put on a machine's network, stage by
// stage: the share of a process's updates that leaves it, the longest route
// a pair of partners takes, and the busiest link. Its stages are synchronous
// (every process waits for its partner's updates before the next stage), so
// a stage's longest route and busiest link each cost the whole run their
// time, once a chunk, and the stages' times add up.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topologies/physical_links.hpp"

namespace gups::model {

struct HypercubeStageLoad {
  // Of the updates a process holds at this stage, the share owned across
  // the split (half for a power of two), averaged over the processes.
  double moved_share = 0;
  // Of a process's updates, the share it holds at this stage (1 for a power
  // of two; non-powers leave some processes a stage short).
  double active_share = 0;
  std::uint32_t longest_route = 0;  // links, of any pair on different nodes (0: all within nodes)
  double busiest_link_load = 0;     // updates over the busiest link per update made on a node, over its bandwidth factor
  std::string busiest_class;
};

struct HypercubeTraffic {
  std::vector<HypercubeStageLoad> stages;
  double network_crossings = 0;  // per update: the stages in which it crosses to another node
  double link_crossings = 0;     // per update: links crossed, summed over those stages
  // Every stage's traffic on the links at once: a pair goes on to its next
  // stage once its own exchange is done, so the stages of different pairs
  // overlap, and no run can beat the busiest link of their sum (a bound,
  // where the stages' busiest links added are the run in lockstep).
  double overlapped_busiest_link_load = 0;
  std::string overlapped_busiest_class;
};

// `processes_per_node` processes on each of the network's nodes, process p on
// node p / processes_per_node (MPI's placement by slot). Exact up to 2^16
// processes; beyond, every stride-th process stands for the stride after it.
HypercubeTraffic hypercube_traffic(const PhysicalLinks& links, unsigned processes_per_node);

}  // namespace gups::model
