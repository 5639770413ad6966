// A machine file's network section (`torus`, `fat_tree` or `dragonfly`),
// read and written, and the physical network of a partition of N nodes:
// the links a simulation and the model route messages over.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>

#include "kernel/core/torus_shape.hpp"
#include "models/src/machine.hpp"
#include "topologies/physical_links.hpp"

namespace gups::model {

class ObjectReader;

// Reads the one network section present into `machine` (topology, limits,
// link bandwidth and latency); throws std::invalid_argument naming the field.
void read_network_section(const nlohmann::json& document, Machine& machine);
// The network section under its name, for to_json.
void write_network_section(const Machine& machine, nlohmann::ordered_json& document);
// SimGrid's topo_parameters of the partition of `nodes` nodes of a machine
// whose partitions are not shapes (a fat-tree, a dragonfly: what its
// platform, plan and explanation name). Throws std::invalid_argument when
// the nodes fill no whole unit or exceed the machine.
std::string simgrid_parameters(const Machine& machine, std::uint64_t nodes);

// One-way bandwidth across the cut that halves the partition's nodes, for a
// machine whose partitions are not shapes.
double partition_bisection(const Machine& machine, std::uint64_t nodes);

// The physical links of a run on `shape` (the virtual torus): the torus
// itself on a torus machine, else the partition of its node count.
std::shared_ptr<const PhysicalLinks> physical_links(const Machine& machine, const TorusShape& shape, bool mesh);

// "tttmtm": one letter per dimension, t where it wraps around and m where it
// is a mesh; none when the text is not that for `dimensions`.
std::optional<std::vector<bool>> wraps_from_letters(const std::string& text, unsigned dimensions);
std::string wraps_letters(const std::vector<bool>& wraps);
// The same with each dimension's wrap-around (Machine::wraps_of).
std::shared_ptr<const PhysicalLinks> physical_links(const Machine& machine, const TorusShape& shape,
                                                    const std::vector<bool>& wraps);

}  // namespace gups::model
