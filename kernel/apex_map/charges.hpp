// What one simulated process of the Apex-Map probe is charged, in cycles,
// for the operations of a global data access: reading a block of its own
// memory, sending and taking a request or a reply, and looking at the
// network between two accesses. The run plan (gups-topology --charges)
// works them out from a machine file; the simulated probe reads that file.
// Real runs charge nothing.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace gups {

struct AccessCharges {
  double clock_hz = 0;
  double block_start = 0;   // the first word of a block: a random access to memory
  double word = 0;          // each word of a block read and added to the sum
  double send_call = 0;     // a request or a reply sent, or a one-sided get issued
  double receive_call = 0;  // a request or a reply taken off the network
  double poll = 0;          // one look at the network that finds nothing to take

  double block_cycles(std::uint64_t words) const noexcept {
    return block_start + word * static_cast<double>(words);
  }
};

inline constexpr const char* kAccessChargesSchema = "torus-gups/access-charges/1";

// {"schema", "machine", "process": {...}}
nlohmann::json access_charges_document(const std::string& machine, const AccessCharges& charges);
// Reads such a file; throws std::invalid_argument naming the file and what
// is wrong with it.
AccessCharges read_access_charges(const std::string& path);

}  // namespace gups
