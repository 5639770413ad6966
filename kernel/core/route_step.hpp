// Where an update goes next from one core of one node: into a bucket for a
// line neighbour along a dimension this core routes, into a bucket for
// another core of the node, or into this core's own table. The routing step
// of `routed` and `multicore`, free of MPI, so that calibration times the
// very code a run executes.
#pragma once

#include <cstdint>
#include <vector>

#include "kernel/core/role_plan.hpp"
#include "kernel/core/table_distribution.hpp"
#include "kernel/core/table_layout.hpp"
#include "kernel/core/torus_shape.hpp"

namespace gups {

// A routing core takes its stream this many updates at a time, computed
// ahead so that the words it will apply are already on their way.
inline constexpr std::uint64_t kRoutingGenerateBatch = 64;

class RouteStep {
 public:
  static constexpr int kApplyHere = -1;

  RouteStep(const TableLayout& layout, const OwnerFinder& owner_of, const TorusShape& shape, const RolePlan& plan,
            const TableDistribution& distribution, std::uint64_t node, unsigned core);

  // Buckets are the caller's, numbered by the caller; -1 where there is none.
  void set_network_bucket(unsigned dimension, std::uint64_t neighbour, int bucket);
  void set_local_bucket(unsigned receiver_core, int bucket);
  // This core hands nothing to another core of the node.
  bool hands_nothing_on() const noexcept;
  // Every update that arrives along `dimension` is this core's to apply:
  // dimension-order routing has set the coordinates up to `dimension`, no
  // later dimension has a second node, and this core applies all of the
  // node's updates. Its arrivals then need no routing step.
  bool arrivals_apply_here(unsigned dimension) const noexcept;
  // Once every bucket is set: builds the lookup by the slice of the table
  // an index falls in (a node's, or an updater's of a node), if the table
  // allows one.
  void look_up_by_slice();
  // Whether next_buckets() looks places up by slice.
  bool looks_up_by_slice() const noexcept { return !by_slice_.empty(); }
  // Most slices looked up so: a table of 8 KiB a core, which SMPI keeps for
  // each of its ranks.
  static constexpr std::uint64_t kMostSlicesLookedUp = 4096;

  // The bucket `update` goes to next, or kApplyHere. Without a branch on
  // where it goes (that cannot be predicted) where the shape's sides are
  // powers of two and this core is its node's only updater: one lookup by
  // the dimension of the next hop and the destination's coordinate in it.
  int next_bucket(std::uint64_t update) const noexcept {
    const std::uint64_t index = layout_.index_of(update);
    const std::uint64_t destination = owner_of_(index);
    if (!sole_updater_ && destination == node_) return place_of_updater_[updater_of(index)];
    return next_by_destination(destination);
  }

  // next_bucket() of each of `count` updates, into `buckets`. Where the
  // next place is looked up by slice, one mask, shift and load an update;
  // else an only updater's loop has no call in it, so that the fields it
  // reads stay in registers.
  void next_buckets(const std::uint64_t* updates, std::size_t count, int* buckets) const noexcept {
    if (!by_slice_.empty()) {
      const std::uint64_t mask = index_mask_;
      const unsigned shift = slice_bits_;
      const std::int16_t* place = by_slice_.data();
      for (std::size_t i = 0; i < count; ++i) buckets[i] = place[(updates[i] & mask) >> shift];
      return;
    }
    if (!sole_updater_) {
      for (std::size_t i = 0; i < count; ++i) buckets[i] = next_bucket(updates[i]);
      return;
    }
    for (std::size_t i = 0; i < count; ++i) buckets[i] = next_by_destination(owner_of_(layout_.index_of(updates[i])));
  }

 private:
  // Which of the node's updaters holds global index `index` of this node:
  // a shift where the node's words split into equal power-of-two slices.
  unsigned updater_of(std::uint64_t index) const noexcept {
    if (slice_shift_ >= 0) return static_cast<unsigned>((index - node_start_) >> slice_shift_);
    return distribution_.updater_of(node_, index);
  }
  int next_by_destination(std::uint64_t destination) const noexcept {
    const unsigned d = shape_.first_difference(node_, destination);
    return next_[first_of_dimension_[d] + shape_.coordinate(destination, d)];
  }

  const TableLayout& layout_;
  const OwnerFinder& owner_of_;
  const TorusShape& shape_;
  const RolePlan& plan_;
  const TableDistribution& distribution_;
  const std::uint64_t node_;
  const unsigned core_;
  const CoreRole& role_;
  // The node's only updater (routed: every core): the node's updates are all its own.
  const bool sole_updater_;
  // The next place by the first dimension d in which the destination
  // differs and its coordinate c in d: next_[first_of_dimension_[d] + c];
  // d = dimensions() (the destination is this node) has one entry.
  std::vector<std::size_t> first_of_dimension_;
  std::vector<int> next_;
  // By updater index: kApplyHere for this core's slice, else the bucket to its updater.
  std::vector<int> place_of_updater_;
  std::uint64_t node_start_ = 0;
  int slice_shift_ = -1;
  // Where every index of a slice goes next, when the whole table splits
  // into at most kMostSlicesLookedUp equal power-of-two slices, each in one
  // node and of one updater: the slice of an update is
  // (update & index_mask_) >> slice_bits_. Empty otherwise.
  std::vector<std::int16_t> by_slice_;
  std::uint64_t index_mask_ = 0;
  unsigned slice_bits_ = 0;
};

}  // namespace gups
