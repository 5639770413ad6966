// The cycles a simulated core is charged per operation, from a machine
// file: the same figures the bounds use, so a simulation and a bound that
// disagree do so about dynamics, never about inputs. The run plan writes
// them (gups-topology --charges) for the simulated kernel to read.
#pragma once

#include <vector>

#include "kernel/apex_map/charges.hpp"
#include "kernel/core/algorithm.hpp"
#include "kernel/core/algorithm_setup.hpp"
#include "kernel/core/operation_charges.hpp"
#include "kernel/core/table_layout.hpp"
#include "models/src/host_placement.hpp"
#include "models/src/machine.hpp"

namespace gups::model {

// Throws std::invalid_argument when the machine has no figures for the plan
// (multicore needs one overhead per core of the node). `owners`: how many
// own a part of the table (nodes, or processes for direct), found by `owner`
// on every core except one that only applies (its updates are its own).
// The receive-call split (batch_packets ...) is filled where the machine's
// figures make one, else batch_packets is 0. `updating_cores`: how many of
// the node's cores apply updates at once (tu: Machine::update_cycles).
OperationCharges charges_for(const Machine& machine, Algorithm algorithm, const RolePlan& plan, unsigned core,
                             bool core_updates_only, OwnerMode owner, std::uint64_t owners,
                             unsigned updating_cores);

// The run's torus nodes on the machine's nodes (`nodes_per_host`: a count,
// or kFillHost), as the model places them: a simulated torus node still has
// links of its own, and what sharing a machine node changes is tu.
HostPlacement host_placement_of(const Machine& machine, Algorithm algorithm, const AlgorithmSetup& setup,
                                unsigned nodes_per_host);

// The charges of every core of a node of this run, in core order.
std::vector<OperationCharges> node_charges(const Machine& machine, Algorithm algorithm, const AlgorithmSetup& setup,
                                           const TableLayout& layout, OwnerMode owner, const HostPlacement& placement);

// A receive call's cost as overhead + per packet, from the machine's two
// figures: one packet per call, and a full batch per call (per packet).
// Throws std::invalid_argument when no such line exists.
void derive_receive_call(const Machine& machine, OperationCharges& charges);

// The charges of one process of the Apex-Map probe: the machine's
// data_access_cycles and its send and receive calls. Throws
// std::invalid_argument when the machine file has no data_access_cycles.
AccessCharges access_charges_of(const Machine& machine);

}  // namespace gups::model
