// The network level a simulated platform asks for, put into SimGrid.
//
// gups-topology writes a platform per level. At `flow` it is a TORUS cluster
// and SimGrid shares every link between the messages crossing it, solving
// the sharing of a whole torus line whenever a message starts or ends. At
// the other levels it is a flat cluster whose route between two hosts is
// their own two private links (fast, so a message never waits on them),
// with the network (a torus, fat-tree or dragonfly) described in the cluster's
// properties. SimGrid's latency
// factor callback then sets each message's latency to what the level says
// its crossing of the torus takes (LinkQueues), so that the message ends on
// SimGrid's event heap at that time, with no sharing to solve. The kernel
// asks for it through kernel/mpi/simulation.hpp (install_network_level).
#pragma once

#include <memory>
#include <optional>

#include "kernel/core/torus_shape.hpp"
#include "sim/levels/network_level.hpp"
#include "topologies/physical_links.hpp"

namespace gups {

// The physical links the platform describes in its properties: at the
// levels other than flow, the network's (a torus, fat-tree or dragonfly); at
// flow, a fat-tree's or dragonfly's (numbered as SimGrid numbers its links),
// and nothing for a torus, whose links SimGrid names by their ends; nothing
// outside SimGrid. Throws std::invalid_argument for properties that cannot be read.
std::shared_ptr<const PhysicalLinks> platform_physical_links();
NetworkLevel platform_network_level();
// The torus of the platform's hosts where it says one (a torus or mesh at
// any level); none on a fat-tree or dragonfly.
std::optional<TorusShape> platform_torus_shape();
// Each torus link's bandwidth, each way, at those levels (bytes per second).
double platform_link_bandwidth();

// The installed level's timing of messages between nodes, shared by
// SimGrid's latency factor (SMPI's own messages) and the timed message slots;
// null at flow, where SimGrid's links carry every message, and before
// install_network_level().
std::shared_ptr<MessageTiming> installed_message_timing();

}  // namespace gups
