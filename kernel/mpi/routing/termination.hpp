// Termination is staged: a core closes dimension f (flushes its buckets and
// sends "done" to its line neighbours) once nothing can feed f any more: its
// generator is exhausted and its inputs from earlier dimensions and earlier
// cores are closed and drained. Then it closes its hand-offs to the other
// cores. What is handed to a core that updates is its own slice's, which it
// applies and never passes on: it closes without waiting for those inputs
// (in a plan of one-core pipelines the cores hand to each other).
#pragma once

#include <vector>

#include "kernel/mpi/routing/core_shared.hpp"
#include "kernel/mpi/routing/generator.hpp"
#include "kernel/mpi/routing/receive_buffers.hpp"
#include "kernel/mpi/routing/router.hpp"

namespace gups::routing {

class Termination {
 public:
  Termination(CoreShared& core, const RouteStep& route);

  // Closes every channel that can close now; true if one did.
  bool close_what_can_close(const Generator& generator, const ReceiveBuffers& inputs, Router& router);
  bool finished(const Generator& generator, const ReceiveBuffers& inputs, const Router& router) const noexcept;

 private:
  bool all_dimensions_closed() const noexcept;
  void send_done(int destination_rank, int channel);

  CoreShared& core_;
  std::vector<bool> dimension_closed_;
  std::vector<bool> dimension_flushing_;
  bool local_closed_ = false;
};

}  // namespace gups::routing
