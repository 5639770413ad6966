// The links of SimGrid's FAT_TREE cluster and its routes, built as SimGrid
// 3.32's FatTreeZone builds them (kernel/routing/FatTreeZone.cpp): the same
// switches, labels and cables in the same order, so link i here is the
// cable SimGrid created i-th (its name ends in _i_UP, child to parent, or
// _i_DOWN), and a route is SimGrid's d-mod-k route, word for word.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topologies/physical_links.hpp"

namespace gups {

struct FatTreeParameters {
  std::vector<unsigned> down;         // children per switch of level l + 1 (level 0: the nodes)
  std::vector<unsigned> up;           // parents per element of level l
  std::vector<unsigned> link_counts;  // parallel cables between an element of level l and each parent

  unsigned levels() const noexcept { return static_cast<unsigned>(down.size()); }
  std::uint64_t nodes() const noexcept;
  // SimGrid's topo_parameters: "levels;down,..;up,..;counts,..".
  std::string to_simgrid() const;
  // Reads SimGrid's form; throws std::invalid_argument naming the fault.
  static FatTreeParameters parse(const std::string& text);
  // Throws std::invalid_argument: lists of one length, no zero.
  void check() const;
};

class FatTreeLinks final : public PhysicalLinks {
 public:
  explicit FatTreeLinks(FatTreeParameters parameters);

  std::uint64_t nodes() const noexcept override { return parameters_.nodes(); }
  std::uint32_t count() const noexcept override { return static_cast<std::uint32_t>(cables_.size() * 2); }
  bool exists(std::uint32_t link) const noexcept override { return link < count(); }
  // Class 2l: up from level l to l + 1; 2l + 1: down from l + 1 to l.
  unsigned link_class(std::uint32_t link) const noexcept override;
  std::vector<std::string> class_names() const override;
  void route(std::uint64_t from, std::uint64_t to, std::vector<std::uint32_t>& links) const override;

  // Switches at each level 1 .. levels (index 0: the nodes).
  const std::vector<std::uint64_t>& elements_by_level() const noexcept { return by_level_; }

 private:
  struct Element {
    unsigned level = 0;
    std::uint64_t position = 0;
    std::vector<unsigned> label;
    std::vector<std::int64_t> parents;   // cable index per parent port, -1: none
    std::vector<std::int64_t> children;  // cable index per child port
  };
  struct Cable {
    std::uint64_t child = 0;   // element index
    std::uint64_t parent = 0;
  };

  bool in_sub_tree(const Element& root, const Element& node) const;
  std::uint64_t first_of_level(unsigned level) const;

  FatTreeParameters parameters_;
  std::vector<std::uint64_t> by_level_;
  std::vector<Element> elements_;  // by level, then position, as SimGrid orders them
  std::vector<Cable> cables_;      // in SimGrid's creation order
};

}  // namespace gups
