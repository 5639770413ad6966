// A first-order model of the Apex-Map probe on a machine: per (alpha, L),
// the time per access of one process as the largest of what its core, the
// latency of its outstanding requests, and the busiest torus link need.
//
// - Remote fraction f = 1 - P^-alpha (the distribution).
// - Core: every access reads its block (block_start + L word cycles); a
//   remote one also costs a send and a receive call where it is asked and,
//   two-sided, the same where it is served (a process serves as many as it
//   asks, on average); two-sided looks at the network once per access.
// - Latency: a remote access's round trip (the calls on its way, hops x
//   link latency there and back, 8L bytes on a link); two-sided hides it
//   behind B outstanding requests, one-sided waits for each get, so its
//   time is the core's and the round trip's added, and its block's
//   transfer is slowed by the other processes' blocks in flight on the
//   busiest link of its path (the expected largest Poisson count of them
//   over the path's links, from the sampled routes).
// - Links: the bytes each access puts on each directed link, from a sample
//   of the very start indices the probe draws, routed as the simulated torus
//   routes them (requests of 16 bytes, replies of 8L): the busiest link's
//   bytes per access over the link bandwidth.
//
// The probe's time is the last process's: given I (`indices`), the remote
// accesses of the process with the most of them (the expected largest of
// P binomial counts) stand for f in the core and latency terms; with I = 0,
// f itself. What it leaves out: queueing on the links below saturation,
// how blocks in flight share a link (a long block's transfer is taken at
// the link's whole bandwidth), and a server's replies waiting behind its own
// accesses.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernel/apex_map/charges.hpp"
#include "kernel/core/torus_shape.hpp"
#include "models/src/machine.hpp"

namespace gups::model {

struct ApexMapPoint {
  double alpha = 1;
  std::uint64_t block_words = 1;
  double remote_fraction = 0;
  double slowest_remote_fraction = 0;  // of the process with the most remote accesses (f when I is not given)
  double mean_hops = 0;          // per remote access, one way
  double sharing = 1;            // one-sided: blocks in flight a block shares its busiest link with, itself included
  double core_seconds = 0;       // per access, the process's core
  double latency_seconds = 0;    // per access, the round trips not hidden
  double link_seconds = 0;       // per access, the busiest link
  double seconds = 0;            // per access: the model's time
  std::string binds;             // "core", "latency", "links" or "core + latency" (one-sided)
  double mb_per_second_per_process() const { return 8.0 * static_cast<double>(block_words) / seconds / 1e6; }
};

struct ApexMapModelRequest {
  std::string algorithm = "apex-map-mpi";  // or apex-map-rma
  TorusShape shape{std::vector<std::uint32_t>{1}};
  unsigned ranks_per_node = 1;
  std::uint64_t share_words = 1ULL << 16;
  unsigned receive_buffers = 32;
  std::uint64_t indices = 0;                // I of the run modelled (0: the mean process, f)
  std::uint64_t samples_per_process = 256;  // start indices drawn per process for the link loads
  std::uint64_t seed = 1;
};

// Throws std::invalid_argument for parameters the probe refuses.
ApexMapPoint apex_map_point(const Machine& machine, const AccessCharges& charges, const ApexMapModelRequest& request,
                            double alpha, std::uint64_t block_words);

nlohmann::json to_json(const ApexMapPoint& point);

// The expected largest of `processes` independent Binomial(indices, p)
// counts.
double expected_largest_binomial(std::uint64_t indices, double p, std::uint64_t processes);

}  // namespace gups::model
