// Apex-Map over MPI: each implementation behind one signature, so that one
// driver (apex_map_driver.cpp) runs them all on the same indices and checks
// every sum against its serial recomputation.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/apex_map/access.hpp"
#include "kernel/apex_map/access_costs.hpp"

namespace gups::apex_map {

struct Totals {
  std::uint64_t sum = 0;     // the running sum of every word read
  std::uint64_t remote = 0;  // accesses fetched from another process
};

// Set up once over the process's share of the array (outside the timing);
// then one call per repetition, which returns when every process has read
// all its blocks (the "wait for finish" is part of it: a process may still
// have to serve the others).
class Accessor {
 public:
  virtual ~Accessor() = default;
  virtual Totals run(const std::vector<std::uint64_t>& starts) = 0;
};

struct Implementation {
  std::string_view name;
  std::string_view summary;
  std::unique_ptr<Accessor> (*make)(MPI_Comm comm, const Parameters& parameters, std::vector<std::uint64_t>& memory,
                                    AccessCosts& costs, const std::string& message_layer);
};

const std::vector<Implementation>& implementations();

// Two-sided: a request and a reply per remote block, B outstanding, replies
// taken out of order, NSER requests served per turn; messages through the
// layer named (make_message_slots).
std::unique_ptr<Accessor> make_two_sided(MPI_Comm comm, const Parameters& parameters,
                                         std::vector<std::uint64_t>& memory, AccessCosts& costs,
                                         const std::string& message_layer);
// One-sided MPI-3: MPI_Get of each remote block, completed before the next
// access (SHMEM's blocking get); MPI whatever the layer.
std::unique_ptr<Accessor> make_one_sided(MPI_Comm comm, const Parameters& parameters,
                                         std::vector<std::uint64_t>& memory, AccessCosts& costs,
                                         const std::string& message_layer);

// The probe's program, inside gups (--algo NAME): exit status 0, 1 when a
// sum is wrong, 2 on bad input.
int probe_main(int argc, char** argv, int rank, int ranks, const std::string& mpi_library);

}  // namespace gups::apex_map
