# The kernel's sources, shared by the real-MPI build and the SMPI build
# (sim/smpi), so both compile exactly the same files. Paths from the root.
set(GUPS_CORE_SOURCES
  kernel/core/algorithm_setup.cpp
  kernel/core/destination_buckets.cpp
  kernel/core/host_memory.cpp
  kernel/core/hpcc_stream.cpp
  kernel/core/local_table.cpp
  kernel/core/run_config.cpp
  kernel/core/role_plan.cpp
  kernel/core/run_report.cpp
  kernel/core/table_distribution.cpp
  kernel/core/table_layout.cpp
  kernel/core/torus_shape.cpp
  kernel/core/update_timeline.cpp)
set(GUPS_MPI_SOURCES
  kernel/mpi/direct.cpp
  kernel/mpi/distributed_verification.cpp
  kernel/mpi/gups_main.cpp
  kernel/mpi/mpi_message_slots.cpp
  kernel/mpi/routing_core.cpp
  kernel/mpi/s4u_message_slots.cpp
  kernel/mpi/update_algorithms.cpp)
set(GUPS_MODEL_SOURCES
  models/src/bounds.cpp
  models/src/machine.cpp
  models/src/model_report.cpp
  models/src/simulation_charges.cpp)
