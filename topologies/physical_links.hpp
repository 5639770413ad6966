// The directed links of a simulated machine's network and the route a
// message takes over them: what the network levels cheaper than SimGrid's
// flow model (LinkQueues), the link load and the model's network bound all
// read, whatever the topology. Each topology numbers its links and routes
// its messages as SimGrid's cluster of that topology does, so every level
// puts a message on the very links flow does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernel/core/torus_shape.hpp"

namespace gups {

class PhysicalLinks {
 public:
  virtual ~PhysicalLinks() = default;

  virtual std::uint64_t nodes() const noexcept = 0;
  // Directed links, numbered 0 .. count() - 1; some may exist only in
  // numbering (a mesh's last node, a side of 1).
  virtual std::uint32_t count() const noexcept = 0;
  virtual bool exists(std::uint32_t link) const noexcept = 0;
  // A link's bandwidth over the machine's link bandwidth: a dragonfly link
  // of several cables is one link of their summed bandwidth.
  virtual double bandwidth_factor(std::uint32_t) const noexcept { return 1.0; }
  // The class a link belongs to (a torus dimension, a fat-tree level and
  // direction, a dragonfly colour), for loads and bottlenecks by class.
  virtual unsigned link_class(std::uint32_t link) const noexcept = 0;
  virtual std::vector<std::string> class_names() const = 0;

  // The link classes are the dimensions of a torus that is its own virtual torus.
  virtual bool classes_are_dimensions() const noexcept { return false; }
  // When each line of the virtual torus `shape` is a line of this network
  // whose links no other line crosses, and every line of a dimension carries
  // the same traffic (a torus mapped on itself): one such line per
  // dimension, as a network of its own, so a bound can route one line
  // instead of the whole machine. Else empty.
  virtual std::vector<std::unique_ptr<PhysicalLinks>> independent_lines(const TorusShape&) const { return {}; }

  // The directed links from node `from` to node `to` (from != to), in the
  // order a message crosses them (`links` is cleared first).
  virtual void route(std::uint64_t from, std::uint64_t to, std::vector<std::uint32_t>& links) const = 0;

  // One hop a packet may take: the link and the node it leads to.
  struct Hop {
    std::uint32_t link;
    std::uint64_t node;
  };
  // The network offers more than one shortest path (a torus or mesh): a
  // router may choose among minimal_hops, as adaptive routing does.
  virtual bool has_minimal_hops() const noexcept { return false; }
  // From `here` towards `to` (here != to), every hop that brings a packet one
  // hop nearer along some shortest path, the hop route() takes first
  // (`hops` is cleared first). Only where has_minimal_hops().
  virtual void minimal_hops(std::uint64_t /*here*/, std::uint64_t /*to*/, std::vector<Hop>& hops) const {
    hops.clear();
  }
};

}  // namespace gups
