// The network bound of a machine's physical network, derived from its links
// and routes rather than copied: every update crosses the network once per
// software hop (routed, multicore: a move along one line of the virtual
// torus, straight to the node of the owner's coordinate; direct: once, to its owner), each crossing follows the physical
// route SimGrid takes, and the busiest link, over its bandwidth, sets the
// rate every node can keep up.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernel/core/torus_shape.hpp"
#include "models/src/machine.hpp"
#include "topologies/physical_links.hpp"

namespace gups::model {

struct NetworkBound {
  double bisection_bytes_per_s = 0;          // one way, across the cut that halves the nodes
  double software_hops = 0;                  // network crossings per update
  double physical_hops_per_software_hop = 0; // links per crossing, averaged over the traffic
  double busiest_link_load = 0;              // crossings of the busiest link per update made on a node, over its bandwidth factor
  std::string busiest_class;                 // the busiest link's class (a dimension, a level, a colour)
  double gups = 0;                           // nodes x link bandwidth / (busiest load x bytes per update)
};

// The busiest of `links` under `load` (one figure a link, in the links'
// numbering), each over its bandwidth factor: its load, and its class's name
// (empty when no link carries anything).
struct BusiestLink {
  double load = 0;
  std::string link_class;
};
BusiestLink busiest_link(const PhysicalLinks& links, const std::vector<double>& load);

// `software_routing`: updates move along the virtual torus `shape` a line at
// a time (else each goes straight to its owner, any node).
NetworkBound network_bound(const PhysicalLinks& links, const TorusShape& shape, bool software_routing,
                           double bytes_per_update, double link_bandwidth);

}  // namespace gups::model
