// How busy the network's links were over the update phase, by link class
// (a torus dimension, a fat-tree level, a dragonfly colour): the bytes of
// every network message added to each link of its route (SimGrid's own
// route between the two hosts at the flow level; at the other levels, whose
// platform holds no network links, the same links from PhysicalLinks), over
// what the link could have carried. Simulated runs only, when asked: the
// SMPI build counts them (sim/smpi/link_load.cpp); the real-MPI build
// refuses (kernel/mpi/without_simulator.cpp). (Not SimGrid 3.32's link_load
// plugin: it integrates a link's current rate since its last event, so a
// message's latency is counted as if it were transferring, and the faster
// the network, the more bytes it counts that were never sent.)
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "kernel/core/run_report.hpp"
#include "kernel/core/torus_shape.hpp"

namespace simgrid::s4u {
class Link;
}

namespace gups {

class LinkLoad {
 public:
  // Throws std::invalid_argument outside SimGrid.
  LinkLoad();
  // Adds a message of `bytes` from one rank to another to the links of the
  // route between their hosts (none when they share one).
  void carry(int from_rank, int to_rank, double bytes);
  // Rank 0, once every rank is done: the load of each dimension's links over
  // `seconds`, by the platform's torus of hosts where it gives one, else by
  // `shape`'s.
  std::vector<LinkClassLoad> finish(const TorusShape& shape, double seconds) const;

 private:
  // A core sends to a few line neighbours only: their routes, found once.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::vector<simgrid::s4u::Link*>> routes_;
  // At the levels other than flow: the torus's links and the bytes on each,
  // one for all simulated ranks, as the flow level keeps them on SimGrid's
  // links; null at flow.
  struct LevelLinks;
  LevelLinks* level_ = nullptr;
  // Ranks on each host (SMPI places them in the hostfile's order, a host's
  // cores' worth each), read once on the rank's own host.
  std::uint64_t ranks_per_host_ = 1;
};

}  // namespace gups
