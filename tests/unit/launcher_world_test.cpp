#include "kernel/core/launcher_world.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace gups {
namespace {

EnvironmentLookup environment_of(const std::map<std::string, std::string>& variables) {
  return [variables](const char* name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  };
}

TEST(LauncherWorld, EachLauncherAnnouncesItsWorldAndThisRank) {
  const auto open_mpi = announced_world(environment_of({{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "3"}}));
  ASSERT_TRUE(open_mpi);
  EXPECT_EQ(open_mpi->size, 4);
  EXPECT_EQ(open_mpi->rank, 3);
  EXPECT_EQ(open_mpi->variable, "OMPI_COMM_WORLD_SIZE");
  const auto hydra = announced_world(environment_of({{"PMI_SIZE", "2"}, {"PMI_RANK", "1"}}));
  ASSERT_TRUE(hydra);
  EXPECT_EQ(hydra->size, 2);
  EXPECT_EQ(hydra->rank, 1);
  const auto step = announced_world(
      environment_of({{"SLURM_STEP_ID", "0"}, {"SLURM_STEP_NUM_TASKS", "8"}, {"SLURM_PROCID", "5"}}));
  ASSERT_TRUE(step);
  EXPECT_EQ(step->size, 8);
  EXPECT_EQ(step->launcher, "srun");
}

TEST(LauncherWorld, OpenMpiFirstThenPmiThenASlurmStep) {
  // mpirun inside a Slurm step: Open MPI's count is the ranks', the step's the launchers'.
  const auto nested = announced_world(environment_of(
      {{"SLURM_STEP_ID", "0"}, {"SLURM_STEP_NUM_TASKS", "1"}, {"OMPI_COMM_WORLD_SIZE", "4"}, {"PMI_SIZE", "2"}}));
  ASSERT_TRUE(nested);
  EXPECT_EQ(nested->size, 4);
  const auto pmi_in_step =
      announced_world(environment_of({{"SLURM_STEP_ID", "0"}, {"SLURM_STEP_NUM_TASKS", "1"}, {"PMI_SIZE", "2"}}));
  ASSERT_TRUE(pmi_in_step);
  EXPECT_EQ(pmi_in_step->variable, "PMI_SIZE");
}

TEST(LauncherWorld, NoLaunchNoAnnouncementAndABatchScriptIsNoLaunch) {
  EXPECT_FALSE(announced_world(environment_of({})));
  // sbatch's own script has the job's task count but is no step: a program run there alone is a singleton.
  EXPECT_FALSE(announced_world(environment_of({{"SLURM_NTASKS", "2"}, {"SLURM_PROCID", "0"}})));
  EXPECT_FALSE(announced_world(environment_of({{"SLURM_STEP_NUM_TASKS", "2"}})));
  // Values that are no count are not read as one.
  EXPECT_FALSE(announced_world(environment_of({{"PMI_SIZE", "two"}})));
  EXPECT_FALSE(announced_world(environment_of({{"PMI_SIZE", "0"}})));
  EXPECT_FALSE(announced_world(environment_of({{"OMPI_COMM_WORLD_SIZE", "2x"}})));
}

TEST(LauncherWorld, AMismatchIsNamedWithTheLauncherAndBothCounts) {
  const auto hydra = announced_world(environment_of({{"PMI_SIZE", "2"}, {"PMI_RANK", "0"}}));
  EXPECT_EQ(launcher_mismatch(hydra, 2, "Open MPI v4.1.4"), "");
  EXPECT_EQ(launcher_mismatch(std::nullopt, 1, "Open MPI v4.1.4"), "");
  const auto message = launcher_mismatch(hydra, 1, "Open MPI v4.1.4");
  EXPECT_NE(message.find("started 2 processes (PMI_SIZE=2) but MPI_COMM_WORLD has 1"), std::string::npos) << message;
  EXPECT_NE(message.find("Open MPI v4.1.4"), std::string::npos) << message;
  EXPECT_NE(message.find("gups-mpirun"), std::string::npos) << message;
}

}  // namespace
}  // namespace gups
