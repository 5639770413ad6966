// The generator's work: this core's stretch of the node's stream, placed a
// batch at a time, computed ahead so that the table words it will apply
// here are already on their way from memory.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernel/mpi/routing/core_shared.hpp"
#include "kernel/mpi/routing/router.hpp"

namespace gups::routing {

class Generator {
 public:
  explicit Generator(CoreShared& core);

  std::uint64_t remaining() const noexcept { return remaining_; }
  // Places up to a turn's batches; true if it placed any.
  bool generate(Router& router);

 private:
  void keep_to_settling_limit() noexcept;
  void compute_batch_ahead();

  CoreShared& core_;
  std::uint64_t remaining_ = 0;
  std::uint64_t random_ = 0;  // the stream's value last placed
  std::vector<std::uint64_t> generated_ahead_;  // the values after random_, not yet placed
  std::size_t next_generated_ = 0;
  // Batches of the stream a turn places. Simulated: one (a turn's work is
  // what the models charge between looks). Real: about two buckets' worth,
  // so that a core still looks once for every two buckets its senders can
  // fill, and pays its turn's polls and counts less often than with one
  // batch a turn; at most 16 (--bucket-size).
  const std::uint64_t batches_per_turn_;
};

}  // namespace gups::routing
