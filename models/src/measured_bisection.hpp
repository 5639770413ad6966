// A bisection bandwidth measured by the bisection probe (gups --algo
// bisection on MPI, gups-sim --algo bisection in a simulated machine), read
// from its JSON so that the model's network bound 4B/b can rest on it instead
// of on the links' count.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gups::model {

struct MeasuredBisection {
  double bytes_per_s = 0;  // one way across the halves, at the probe's largest size
  std::uint64_t nodes = 0;  // a simulation's nodes; a real run's processes (one a node)
  std::optional<std::string> machine;  // the machine simulated, if it was
  std::optional<std::string> shape;    // its torus, if simulated
  std::optional<std::string> network;  // "torus" or "mesh", if simulated
  std::uint64_t message_bytes = 0;
  std::string source;  // the file
};

// Throws std::invalid_argument naming the file and what it lacks.
MeasuredBisection read_measured_bisection(const std::string& path);

}  // namespace gups::model
