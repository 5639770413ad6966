// The physical links of a simulated torus (or mesh) and the network levels
// cheaper than SimGrid's flow model: what a message costs without solving
// the sharing of every link at every message's start and end.
//
// Links are numbered as SimGrid numbers a TORUS cluster's: node n owns, in
// each dimension d, the link joining it to its + neighbour; the link's UP
// direction carries n -> n+1, its DOWN direction n+1 -> n. Routes follow
// SimGrid's TorusZone rule (dimension 0 first, each dimension the shorter
// way round), so each level puts a message on the very links flow does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "physical_links.hpp"
#include "torus_shape.hpp"

namespace gups {

enum class NetworkLevel {
  flow,     // SimGrid's torus: every link a sharing constraint (fair shares, re-solved per message)
  queue,    // every directed link serves messages one at a time as their heads reach it (virtual cut-through, unbounded buffers)
  latency,  // no contention: latency per hop and the message's time on one link
};

// "flow", "queue", "latency"; throws std::invalid_argument naming them.
NetworkLevel network_level_named(const std::string& name);
std::string to_string(NetworkLevel level);
// Every level's name, for help texts and errors.
const std::vector<std::string>& network_level_names();

class TorusLinks final : public PhysicalLinks {
 public:
  // `wraps[d]`: dimension d has wrap-around links (a torus), else a mesh.
  // Throws std::invalid_argument when wraps does not give one per dimension.
  TorusLinks(TorusShape shape, std::vector<bool> wraps);

  // Directed links, UP and DOWN of each node's link in each dimension; some
  // exist only in numbering (a mesh's last node, a side of 1).
  std::uint64_t nodes() const noexcept override { return shape_.nodes(); }
  std::uint32_t count() const noexcept override {
    return static_cast<std::uint32_t>(shape_.nodes() * shape_.dimensions() * 2);
  }
  unsigned dimension(std::uint32_t link) const noexcept { return (link / 2) % shape_.dimensions(); }
  bool exists(std::uint32_t link) const noexcept override;
  unsigned link_class(std::uint32_t link) const noexcept override { return dimension(link); }
  std::vector<std::string> class_names() const override;
  const TorusShape& shape() const noexcept { return shape_; }
  bool wraps(unsigned dimension) const noexcept { return wraps_[dimension]; }

  void route(std::uint64_t from, std::uint64_t to, std::vector<std::uint32_t>& links) const override;

 private:
  std::uint32_t link_of(std::uint64_t node, unsigned dimension, bool up) const noexcept {
    return static_cast<std::uint32_t>((node * shape_.dimensions() + dimension) * 2 + (up ? 0 : 1));
  }

  TorusShape shape_;
  std::vector<bool> wraps_;
};

// A message's arrival at the queue and latency levels, on any topology.
class LinkQueues {
 public:
  // `bandwidth_bytes_per_s`: the machine's link bandwidth, which each
  // link's bandwidth_factor scales.
  LinkQueues(std::shared_ptr<const PhysicalLinks> links, NetworkLevel level, double bandwidth_bytes_per_s,
             double latency_s);
  LinkQueues(TorusLinks links, NetworkLevel level, double bandwidth_bytes_per_s, double latency_s)
      : LinkQueues(std::make_shared<TorusLinks>(std::move(links)), level, bandwidth_bytes_per_s, latency_s) {}

  // When a message of `bytes` from node `from`, injected at `now`, has
  // arrived whole at node `to`. Queue level: its head reaches each link of
  // its route in turn, waits until the link is free, holds it for
  // bytes/bandwidth and moves on one link latency later (so, uncontended,
  // hops x latency + bytes/bandwidth, as flow gives). Latency level: the
  // same with every link always free. Calls come in the order of `now`.
  //
  // A message's whole crossing is worked out when it is injected, so a link
  // far along its route is booked for a time to come. A link keeps those
  // bookings, and a message whose head gets there earlier takes the first
  // free stretch long enough for it (were the link simply busy until its
  // last booking, a message injected next to it would wait for one that is
  // still hops away: on a 32x8x8 torus that cut the rate by 40%).
  double arrival(std::uint64_t from, std::uint64_t to, double bytes, double now);

 private:
  std::shared_ptr<const PhysicalLinks> links_;
  NetworkLevel level_;
  double bandwidth_;
  double latency_;
  struct Booking {
    double start;
    double end;
  };
  // Per directed link, the stretches it is booked for from now on, in time order.
  std::vector<std::vector<Booking>> bookings_;
  std::vector<std::uint32_t> route_;  // reused: a route per message, no allocation
};

}  // namespace gups
