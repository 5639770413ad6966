// The links of SimGrid's DRAGONFLY cluster and its minimal routes, built as
// SimGrid 3.32's DragonflyZone builds them (kernel/routing/DragonflyZone.cpp):
// a router per blade; node links, then green links (all-to-all between the
// routers of a chassis), black (between the same blade of the chassis of a
// group), blue (router r of group g to group r), in SimGrid's creation
// order, so link i here is the one whose name ends in _i_UP (2i) or _i_DOWN
// (2i + 1). Routes are SimGrid's word for word, which with more than one
// chassis per group takes the green hop to end in chassis 0; with one
// chassis per group they are minimal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topologies/physical_links.hpp"

namespace gups {

struct DragonflyParameters {
  unsigned groups = 1, group_links = 1;      // blue: cables between two groups
  unsigned chassis = 1, chassis_links = 1;   // per group; black: cables between two chassis' routers
  unsigned routers = 1, router_links = 1;    // per chassis; green: cables between two routers
  unsigned nodes_per_router = 1;

  std::uint64_t nodes() const noexcept {
    return std::uint64_t{groups} * chassis * routers * nodes_per_router;
  }
  // SimGrid's topo_parameters: "groups,links;chassis,links;routers,links;nodes".
  std::string to_simgrid() const;
  static DragonflyParameters parse(const std::string& text);
  // Throws std::invalid_argument: no zero, and no more groups than routers
  // per chassis (SimGrid's route to group g leaves from blade g).
  void check() const;
};

class DragonflyLinks final : public PhysicalLinks {
 public:
  explicit DragonflyLinks(DragonflyParameters parameters);

  std::uint64_t nodes() const noexcept override { return parameters_.nodes(); }
  std::uint32_t count() const noexcept override { return static_cast<std::uint32_t>(cables_.size() * 2); }
  bool exists(std::uint32_t link) const noexcept override { return link < count(); }
  double bandwidth_factor(std::uint32_t link) const noexcept override;
  // 0: node-router (both ways), 1: green, 2: black, 3: blue.
  unsigned link_class(std::uint32_t link) const noexcept override { return cables_[link / 2]; }
  std::vector<std::string> class_names() const override;
  void route(std::uint64_t from, std::uint64_t to, std::vector<std::uint32_t>& links) const override;

 private:
  std::uint64_t router(std::uint64_t group, std::uint64_t chassis, std::uint64_t blade) const noexcept {
    return (group * parameters_.chassis + chassis) * parameters_.routers + blade;
  }

  DragonflyParameters parameters_;
  std::vector<unsigned char> cables_;  // class of each cable, in creation order
  // Per router, the directed link it sends on: to each node, to each blade
  // of its chassis, to each chassis of its group, to its group.
  std::vector<std::uint32_t> node_up_, node_down_;  // per router x node
  std::vector<std::uint32_t> green_;                // per router x blade
  std::vector<std::uint32_t> black_;                // per router x chassis
  std::vector<std::uint32_t> blue_;                 // per router
};

}  // namespace gups
