// Whether ranks take turns on cores: the host whose ranks outnumber the
// cores they may run on by the most. A rate measured there is the rate of
// ranks time-sharing cores, not what the cores can do, and the report says
// so beside it.
#pragma once

#include <optional>

#include "kernel/core/shared_cores.hpp"

namespace gups {

// Collective over MPI_COMM_WORLD. Nothing where every rank has a core of its
// own, and where ranks are simulated (their hosts are the model's).
std::optional<SharedCores> most_shared_host();

// How busy others kept the busiest host over a stretch of the run (the
// update phase): begun and ended by every rank; end() is collective over
// MPI_COMM_WORLD and gives the share (kernel/core/host_load.hpp) on every
// rank. Nothing under simulation, nor where a host cannot say.
class HostLoadWatch {
 public:
  HostLoadWatch();
  std::optional<double> end(double wall_seconds);

 private:
  std::optional<double> host_start_;
  double own_start_ = 0;
};

}  // namespace gups
