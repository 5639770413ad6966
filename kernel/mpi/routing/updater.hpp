// The updater's work: applying updates to this core's slice of the table.
// A core that only updates applies every update handed to it; a routing
// core applies those whose route ends here.
#pragma once

#include <cstdint>

#include "kernel/mpi/routing/core_shared.hpp"

namespace gups::routing {

class Updater {
 public:
  explicit Updater(CoreShared& core) : core_(core) {}

  // One at a time, --slow-updates' wait before each.
  void apply_here(std::uint64_t update) noexcept;
  // A core that only updates: every update handed to it is its own (the
  // sender chose it by the table's distribution), so it applies a whole
  // buffer in a loop of nothing else, as the model's update_streamed has it.
  void apply_all_here(const std::uint64_t* updates, std::size_t count) noexcept;
  // A routing core's arrivals along a dimension after which nothing is left
  // to route (RouteStep::arrivals_apply_here): the same loop, charged as
  // Router::place_span() charges each of them, so that a simulated run costs
  // the same.
  void apply_arrivals_here(const std::uint64_t* updates, std::size_t count) noexcept;

  // Most updates an updating core takes are its own, and an update's word
  // is one cache miss: asking for it early lets several misses overlap.
  // Without a branch (a word in cache where the update is not this core's):
  // whose an update is cannot be predicted.
  void prefetch_if_applied_here(std::uint64_t update) const noexcept {
    core_.table.view().prefetch_if_owned(core_.context.layout.index_of(update));
  }

 private:
  void apply_words(const std::uint64_t* updates, std::size_t count) noexcept;

  CoreShared& core_;
};

}  // namespace gups::routing
