// Ranks taking turns on a host's cores: a rate measured so is the rate of
// ranks time-sharing cores, not what the cores can do.
#pragma once

namespace gups {

struct SharedCores {
  int ranks = 0;  // on the host
  int cores = 0;  // the cores those ranks may run on (the union of their CPU affinity masks)
};

}  // namespace gups
