#include "kernel/core/launcher_world.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gups {
namespace {

std::optional<int> count_in(const char* text) {
  if (text == nullptr) return std::nullopt;
  int value = 0;
  const auto* end = text + std::strlen(text);
  const auto [stop, error] = std::from_chars(text, end, value);
  if (error != std::errc() || stop != end || value < 0) return std::nullopt;
  return value;
}

}  // namespace

std::optional<AnnouncedWorld> announced_world(const EnvironmentLookup& environment) {
  struct Announcer {
    const char* size;
    const char* rank;
    const char* launcher;
    const char* inside;  // set only where this announcer launched the process (nullptr: always)
  };
  static const Announcer announcers[] = {
      {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "Open MPI's launcher", nullptr},
      {"PMI_SIZE", "PMI_RANK", "a PMI launcher (MPICH's Hydra, srun --mpi=pmi2)", nullptr},
      {"SLURM_STEP_NUM_TASKS", "SLURM_PROCID", "srun", "SLURM_STEP_ID"},
  };
  for (const auto& announcer : announcers) {
    if (announcer.inside != nullptr && environment(announcer.inside) == nullptr) continue;
    const auto size = count_in(environment(announcer.size));
    if (!size || *size < 1) continue;
    return AnnouncedWorld{*size, count_in(environment(announcer.rank)).value_or(0), announcer.launcher,
                          announcer.size};
  }
  return std::nullopt;
}

std::string launcher_mismatch(const std::optional<AnnouncedWorld>& announced, int world_size,
                              const std::string& library) {
  if (!announced || announced->size == world_size) return "";
  return fmt::format(
      "{} started {} processes ({}={}) but MPI_COMM_WORLD has {}: the launcher is not the one of this build's MPI "
      "({}), so each process would run alone; start it with the build's kernel/gups-mpirun, or srun with the "
      "plugin of that MPI",
      announced->launcher, announced->size, announced->variable, announced->size, world_size, library);
}

bool refuse_another_mpis_launcher(const char* program, int world_size, const std::string& library) {
  const auto announced = announced_world([](const char* name) { return std::getenv(name); });
  const auto mismatch = launcher_mismatch(announced, world_size, library);
  if (mismatch.empty()) return false;
  if (announced->rank == 0) std::fprintf(stderr, "%s: error: %s\n", program, mismatch.c_str());
  return true;
}

}  // namespace gups
