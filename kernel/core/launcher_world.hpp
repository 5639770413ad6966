// How many processes the launcher says it started, read from the variables
// each launcher sets in its ranks' environment, to catch a program started
// by another MPI's launcher: Open MPI's mpirun under an MPICH build, or
// MPICH's Hydra under an Open MPI build, each rank then initialises alone
// and the run is that many one-rank runs, each "verified".
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace gups {

struct AnnouncedWorld {
  int size = 0;
  int rank = 0;          // this process's rank as the launcher numbered it
  std::string launcher;  // who announced it, for the message
  std::string variable;  // the variable read
};

using EnvironmentLookup = std::function<const char*(const char*)>;

// The first launcher that announces a world: Open MPI (OMPI_COMM_WORLD_SIZE),
// a PMI launcher (PMI_SIZE: MPICH's Hydra, srun --mpi=pmi2), then a Slurm
// job step (SLURM_STEP_NUM_TASKS, only inside a step: a batch script's own
// environment is no launch). None where no launcher says.
std::optional<AnnouncedWorld> announced_world(const EnvironmentLookup& environment);

// "" when MPI_COMM_WORLD has the ranks the launcher announced, else the
// error line's text; `library` names this build's MPI.
std::string launcher_mismatch(const std::optional<AnnouncedWorld>& announced, int world_size,
                              const std::string& library);

// The check every MPI program of the build makes before it reads anything:
// with this process's environment, true when the launcher's world differs
// from MPI_COMM_WORLD's, having printed "PROGRAM: error: ..." on stderr from
// the process the launcher numbered 0 (each of the others is a run alone too).
bool refuse_another_mpis_launcher(const char* program, int world_size, const std::string& library);

}  // namespace gups
