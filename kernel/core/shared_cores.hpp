// Ranks taking turns on a host's cores: a rate measured so is the rate of
// ranks time-sharing cores, not what the cores can do, and every report of
// a real run says so beside its rates.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gups {

struct SharedCores {
  int ranks = 0;  // on the host
  int cores = 0;  // the cores those ranks may run on (the union of their CPU affinity masks)
};

// The report's line ("" where no host's ranks shared cores), and the JSON
// value (null there).
std::string shared_cores_line(const std::optional<SharedCores>& shared);
nlohmann::json shared_cores_json(const std::optional<SharedCores>& shared);

}  // namespace gups
