# The kernel's sources, shared by the real-MPI build and the SMPI build
# (sim/smpi), so both compile exactly the same files. Paths from the root.
set(GUPS_CORE_SOURCES
  kernel/core/algorithm.cpp
  kernel/core/algorithm_setup.cpp
  kernel/core/destination_buckets.cpp
  kernel/core/exchange_pattern.cpp
  kernel/core/host_memory.cpp
  kernel/core/hpcc_stream.cpp
  kernel/core/hypercube_stages.cpp
  kernel/core/local_table.cpp
  kernel/core/mapping_mode.cpp
  kernel/core/operation_charges.cpp
  kernel/core/option_scopes.cpp
  kernel/core/renamed_options.cpp
  kernel/core/packet_format.cpp
  kernel/core/plan_spec.cpp
  kernel/core/program_variants.cpp
  kernel/core/run_config.cpp
  kernel/core/result_output.cpp
  kernel/core/role_plan.cpp
  kernel/core/route_step.cpp
  kernel/core/run_report.cpp
  kernel/core/shared_cores.cpp
  kernel/core/host_load.cpp
  kernel/core/launcher_world.cpp
  kernel/core/shared_table.cpp
  kernel/core/steady_watch.cpp
  kernel/core/stream_stretches.cpp
  kernel/core/table_distribution.cpp
  kernel/core/table_layout.cpp
  kernel/core/torus_shape.cpp
  kernel/core/update_timeline.cpp
  # Apex-Map, MPI-free: its access stream, run parameters and charges.
  kernel/apex_map/access.cpp
  kernel/apex_map/charges.cpp
  kernel/apex_map/run.cpp
  # The global-exchange probes, MPI-free: pairings, payloads, command line, report.
  kernel/exchange/run.cpp)
set(GUPS_MPI_SOURCES
  kernel/mpi/direct.cpp
  kernel/mpi/hypercube.cpp
  kernel/mpi/distributed_verification.cpp
  kernel/mpi/host_memory_check.cpp
  kernel/mpi/host_sharing.cpp
  kernel/mpi/idle_wait.cpp
  kernel/mpi/mpi_message_slots.cpp
  kernel/mpi/node_group.cpp
  kernel/mpi/node_handoffs.cpp
  kernel/mpi/node_pending.cpp
  kernel/mpi/patient_collectives.cpp
  # routed and multicore: the routing engine and its parts, one file per role.
  kernel/mpi/routing/generator.cpp
  kernel/mpi/routing/receive_buffers.cpp
  kernel/mpi/routing/router.cpp
  kernel/mpi/routing/routing_engine.cpp
  kernel/mpi/routing/termination.cpp
  kernel/mpi/routing/updater.cpp
  kernel/mpi/run_statistics.cpp
  kernel/mpi/shared_handoff_slots.cpp
  kernel/mpi/shared_node_table.cpp
  kernel/mpi/update_algorithms.cpp
  # Apex-Map over MPI: the driver and one file per implementation.
  kernel/apex_map/driver.cpp
  kernel/apex_map/one_sided.cpp
  kernel/apex_map/two_sided.cpp
  # The global-exchange probes over MPI: the driver and one file per probe.
  kernel/exchange/all_to_all.cpp
  kernel/exchange/bisection.cpp
  kernel/exchange/driver.cpp
  kernel/exchange/pair_exchange.cpp)
# gups's main: every program variant behind one --algo (kernel/programs/).
set(GUPS_MAIN_SOURCE kernel/programs/gups_main.cpp)
# The real-MPI build's answers to what a simulation would answer
# (kernel/mpi/simulation.hpp); the SMPI build takes sim/smpi's instead.
set(GUPS_REAL_MPI_SOURCES kernel/mpi/without_simulator.cpp)
