// Apex-Map (Strohmaier and Shan, LBNL): a probe of global data access with
// three parameters, the global memory M (words), the temporal locality
// alpha and the spatial locality L (words per block). This is its
// MPI-free core: the parameters and their checks, the start indices drawn
// from the power distribution and shifted toward each process's own
// memory, the data every word holds, and the sum a process must compute,
// so that any implementation's sums can be recomputed serially.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gups::apex_map {

// Each outstanding request's reply has a tag of its own (MPI promises tags
// up to 32767).
inline constexpr unsigned kMaxReceiveBuffers = 16384;

struct Parameters {
  std::uint64_t memory_words = 0;  // M: the global array, spread evenly over the processes
  double alpha = 1.0;              // temporal locality: 1 uniform, toward 0 ever more local
  std::uint64_t block_words = 1;   // L: contiguous words read per access
  std::uint64_t indices = 1024;    // I: accesses per process and repetition
  unsigned repeats = 1;            // N
  // The two-sided implementation's own: outstanding requests (receive
  // buffers), outstanding sends, and requests served per turn.
  unsigned receive_buffers = 32;  // B
  unsigned send_handles = 64;     // SMSG
  unsigned serve_per_turn = 16;   // NSER
  std::uint64_t seed = 1;
};

// Why these parameters cannot run on this many processes, or nothing. A
// process's share (M / processes) must be a whole number of blocks, so that
// a block lies in one process's memory.
std::optional<std::string> problem(const Parameters& p, std::uint64_t processes);

// The share of one process, in words.
std::uint64_t share_words(const Parameters& p, std::uint64_t processes);

// The fraction of accesses that are remote, by the distribution: a start
// block in the process's own memory has probability processes^-alpha.
double expected_remote_fraction(double alpha, std::uint64_t processes);

// The start word (a multiple of L) of every access of one process in one
// repetition, made before timing starts: a power-distributed block
// (r^(1/alpha) of the array, r uniform), shifted by the process's own
// offset so that its own memory is the most likely.
std::vector<std::uint64_t> start_indices(const Parameters& p, std::uint64_t processes, std::uint64_t rank,
                                         unsigned repetition);

// The word the global array holds at a global index (every implementation
// fills its memory with these and the serial check recomputes them).
std::uint64_t word_at(std::uint64_t global_index) noexcept;

// The process that holds a global index, and where in its share.
inline std::uint64_t owner_of(std::uint64_t global_index, std::uint64_t share) noexcept {
  return global_index / share;
}
inline std::uint64_t offset_in_owner(std::uint64_t global_index, std::uint64_t share) noexcept {
  return global_index % share;
}

// The "compute" of an access: its L words added into the running sum
// (modulo 2^64, so that replies taken in any order give the same sum).
std::uint64_t block_sum(const std::uint64_t* words, std::uint64_t count) noexcept;

// What a process's sum must be over its accesses, recomputed serially.
std::uint64_t serial_sum(const std::vector<std::uint64_t>& starts, std::uint64_t block_words);

}  // namespace gups::apex_map
