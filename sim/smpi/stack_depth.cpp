// How deep a simulated rank's stack went: SimGrid allocates each stack
// zeroed (contexts/guard-size:0), so the deepest byte ever written is the
// lowest one that is not zero.
#include <simgrid/s4u/Engine.hpp>
#include <xbt/config.hpp>

#include "kernel/mpi/simulation.hpp"

namespace gups::simulation {

namespace {
// The frames SimGrid and SMPI put above a rank's main() take less than this:
// the scan starts this far inside the stack's lowest byte.
constexpr std::size_t kAboveFirstFrame = 2048;
}  // namespace

std::size_t stack_size() {
  return static_cast<std::size_t>(simgrid::config::get_value<int>("contexts/stack-size")) * 1024;
}

std::size_t stack_depth(const void* top) {
  const std::size_t size = stack_size();
  if (size <= kAboveFirstFrame) return 0;
  const auto* high = static_cast<const unsigned char*>(top);
  const auto* byte = high - (size - kAboveFirstFrame);
  while (byte < high && *byte == 0) ++byte;
  return static_cast<std::size_t>(high - byte);
}

}  // namespace gups::simulation
