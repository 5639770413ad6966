#include "kernel/mpi/routing/termination.hpp"

#include <algorithm>

namespace gups::routing {

Termination::Termination(CoreShared& core, const RouteStep& route) : core_(core) {
  dimension_closed_.assign(core.shape.dimensions(), false);
  dimension_flushing_.assign(core.shape.dimensions(), false);
  for (unsigned d = 0; d < core.shape.dimensions(); ++d) {
    if (!core.role.routes_along(d)) dimension_closed_[d] = true;
  }
  local_closed_ = route.hands_nothing_on();
}

void Termination::send_done(int destination_rank, int channel) {
  core_.start_after_work();
  core_.messages->send_done(destination_rank, channel);
}

bool Termination::close_what_can_close(const Generator& generator, const ReceiveBuffers& inputs, Router& router) {
  bool progressed = false;
  const bool local_passes_on = !inputs.local_arrivals_apply_here();
  for (unsigned d = core_.role.first_dimension; d < core_.role.end_dimension; ++d) {
    if (dimension_closed_[d]) continue;
    if (!dimension_flushing_[d]) {
      if (generator.remaining() > 0 || !inputs.drained(static_cast<int>(d), local_passes_on)) break;
      dimension_flushing_[d] = true;
    }
    if (!router.flush(static_cast<int>(d))) break;
    for (const auto neighbour : core_.shape.line_neighbours(core_.node, d)) {
      send_done(core_.rank_of(neighbour, core_.plan.network_receiver(core_.core, d)), static_cast<int>(d));
    }
    dimension_closed_[d] = true;
    progressed = true;
  }
  if (!local_closed_ && generator.remaining() == 0 && all_dimensions_closed() &&
      inputs.drained(kChannels, local_passes_on) && router.flush(kLocalChannel)) {
    for (const auto receiver : core_.plan.local_receivers(core_.core)) {
      send_done(core_.rank_of(core_.node, receiver), kLocalChannel);
    }
    local_closed_ = true;
    progressed = true;
  }
  return progressed;
}

bool Termination::all_dimensions_closed() const noexcept {
  return std::all_of(dimension_closed_.begin(), dimension_closed_.end(), [](bool c) { return c; });
}

bool Termination::finished(const Generator& generator, const ReceiveBuffers& inputs,
                           const Router& router) const noexcept {
  if (generator.remaining() > 0 || !local_closed_ || !all_dimensions_closed()) return false;
  return inputs.drained(kChannels, true) && router.in_flight() == 0;
}

}  // namespace gups::routing
