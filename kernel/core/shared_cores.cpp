#include "kernel/core/shared_cores.hpp"

#include <fmt/format.h>

namespace gups {

std::string shared_cores_line(const std::optional<SharedCores>& shared) {
  if (!shared) return "";
  return fmt::format("Cores shared: {} ranks took turns on a host's {} cores; the rates here are not what the cores "
                     "can do (give each rank a core of its own)\n",
                     shared->ranks, shared->cores);
}

nlohmann::json shared_cores_json(const std::optional<SharedCores>& shared) {
  if (!shared) return nullptr;
  return {{"ranks", shared->ranks}, {"cores", shared->cores}};
}

}  // namespace gups
