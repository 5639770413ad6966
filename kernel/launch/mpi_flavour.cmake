# Which MPI the real-MPI programs are built with, and how that MPI starts
# them on one host: the one place where Open MPI and MPICH differ.
#
#   -DTORUS_GUPS_MPI=auto      the MPI FindMPI finds first (mpicxx on PATH)
#   -DTORUS_GUPS_MPI=openmpi   Debian's Open MPI (mpicxx.openmpi, mpiexec.openmpi)
#   -DTORUS_GUPS_MPI=mpich     Debian's MPICH (mpicxx.mpich, mpiexec.mpich)
#
# Any other MPI (Cray MPICH, Intel MPI, MVAPICH) is FindMPI's usual hints:
# -DMPI_CXX_COMPILER=... -DMPIEXEC_EXECUTABLE=.... The build then writes
# kernel/gups-mpirun: that MPI's mpiexec with what it needs to put more
# ranks than cores on one host (Open MPI: --oversubscribe; MPICH's Hydra
# does so unasked), and a --quiet of its own (Open MPI: --quiet; Hydra adds
# nothing to a rank's error exit). Tests and the analysis start every MPI run through it,
# so a program is never started by another MPI's launcher.
set(TORUS_GUPS_MPI auto CACHE STRING "MPI to build with: auto, openmpi or mpich")
set_property(CACHE TORUS_GUPS_MPI PROPERTY STRINGS auto openmpi mpich)
if(NOT TORUS_GUPS_MPI MATCHES "^(auto|openmpi|mpich)$")
  message(FATAL_ERROR "TORUS_GUPS_MPI is '${TORUS_GUPS_MPI}': give auto, openmpi or mpich")
endif()
if(NOT TORUS_GUPS_MPI STREQUAL "auto")
  find_program(TORUS_GUPS_MPICXX mpicxx.${TORUS_GUPS_MPI} NO_CACHE)
  find_program(TORUS_GUPS_MPIEXEC mpiexec.${TORUS_GUPS_MPI} NO_CACHE)
  if(NOT TORUS_GUPS_MPICXX OR NOT TORUS_GUPS_MPIEXEC)
    set(package_openmpi "libopenmpi-dev openmpi-bin")
    set(package_mpich "libmpich-dev mpich")
    message(FATAL_ERROR "TORUS_GUPS_MPI=${TORUS_GUPS_MPI}: mpicxx.${TORUS_GUPS_MPI} or mpiexec.${TORUS_GUPS_MPI} "
                        "not found (Debian: apt install ${package_${TORUS_GUPS_MPI}})")
  endif()
  set(MPI_CXX_COMPILER ${TORUS_GUPS_MPICXX} CACHE FILEPATH "MPI C++ compiler wrapper" FORCE)
  set(MPIEXEC_EXECUTABLE ${TORUS_GUPS_MPIEXEC} CACHE FILEPATH "MPI launcher" FORCE)
endif()
find_package(MPI REQUIRED COMPONENTS CXX)

# The library's own name for itself, from mpiexec --version: Open MPI says
# "Open MPI" (or "OpenRTE"), MPICH's Hydra "HYDRA".
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE launcher_version
                ERROR_VARIABLE launcher_version RESULT_VARIABLE launcher_status)
if(launcher_version MATCHES "Open MPI|OpenRTE")
  set(TORUS_GUPS_MPI_FLAVOUR "Open MPI")
  set(TORUS_GUPS_MPIEXEC_OVERSUBSCRIBE "--oversubscribe")
  set(TORUS_GUPS_MPIEXEC_QUIET "--quiet")
elseif(launcher_version MATCHES "HYDRA")
  set(TORUS_GUPS_MPI_FLAVOUR "MPICH")
  set(TORUS_GUPS_MPIEXEC_OVERSUBSCRIBE "")
else()
  set(TORUS_GUPS_MPI_FLAVOUR "unknown MPI")
  set(TORUS_GUPS_MPIEXEC_OVERSUBSCRIBE "")
  set(TORUS_GUPS_MPIEXEC_QUIET "")
endif()
# The launcher itself, not Debian's alternatives link to whichever MPI is
# the system's default today.
file(REAL_PATH ${MPIEXEC_EXECUTABLE} TORUS_GUPS_MPIEXEC)
message(STATUS "MPI: ${TORUS_GUPS_MPI_FLAVOUR} (${MPI_CXX_COMPILER}, ${TORUS_GUPS_MPIEXEC})")
