// The global-exchange probes' command line, pairings, payloads and report:
// pure (no MPI, no printing), so what they pair, send and print is tested
// without mpirun. After the Cray X1 evaluation's three tests: a bisection
// (the lower half of the processes sends to the upper half), an exchange
// (process i with i + n/2, both ways) and an all-to-all (pairwise steps).
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/core/shared_cores.hpp"

namespace CLI {
class App;
}

namespace gups::exchange {

// Whether gups --algo NAME is one of the probes (variants.def).
bool is_probe(std::string_view name);

// Message sizes swept when --sizes is not given: 8 B to 1 MiB by factors of
// 8 for the exchange, 1 MiB (the X1 test's) alone for the bisection, and
// 8 B to 4 KiB for the all-to-all (each process sends n - 1 of each: a
// simulated 512 nodes moves 1 GiB at 4 KiB).
std::vector<std::uint64_t> default_sizes(std::string_view probe);
// The most a size may be: 64 MiB (a simulated machine holds two per process).
inline constexpr std::uint64_t kMaxMessageBytes = std::uint64_t{1} << 26;

// "8,64,1024" or with a K or M suffix (powers of 1024): sizes in bytes, each
// a positive multiple of 8 (a message is of 64-bit words). Throws
// std::invalid_argument naming the entry at fault.
std::vector<std::uint64_t> parse_sizes(const std::string& text);

// Repetitions of a size in a simulation when --repeats is not given: enough
// that each process sends 4 MiB, 1 to 64; the all-to-all 256 KiB, 1 to 4
// whole exchanges. (A real run measures how many take 0.2 s.)
std::uint64_t automatic_repeats(std::string_view probe, std::uint64_t bytes, std::uint64_t processes);

// What `rank` does at `step` of one repetition of `probe` among `ranks`.
struct Step {
  std::optional<std::uint64_t> send_to;       // none: sends nothing at this step
  std::optional<std::uint64_t> receive_from;  // none: receives nothing
};
std::uint64_t steps_per_repetition(std::string_view probe, std::uint64_t ranks);
Step step_of(std::string_view probe, std::uint64_t rank, std::uint64_t ranks, std::uint64_t step);
// Processes (bisection, exchange: pairs; all-to-all: processes) the per-pair
// figure divides by, and how many bytes one repetition of a size moves in all.
std::uint64_t pairs(std::string_view probe, std::uint64_t ranks);
std::uint64_t bytes_per_repetition(std::string_view probe, std::uint64_t ranks, std::uint64_t bytes);
// Why a probe cannot run on `ranks` processes, if it cannot.
std::optional<std::string> problem(std::string_view probe, std::uint64_t ranks);

// Message slots a process holds, and the receive buffers a probe uses
// (the bisection keeps two receives posted, the others one), each of the
// largest size, beside the one payload it sends.
inline constexpr std::size_t kProbeSlots = 4;
std::size_t receive_buffers(std::string_view probe);

// A message's words: its sender first, then a pattern of sender and index,
// so that the receiver checks every word and knows who sent it.
void fill_payload(std::uint64_t* words, std::uint64_t count, std::uint64_t sender);
// The sender a message names, if every word is as fill_payload makes it.
std::optional<std::uint64_t> payload_sender(const std::uint64_t* words, std::uint64_t count);

struct ProbeConfig {
  std::string probe;
  std::vector<std::uint64_t> sizes;  // bytes
  std::uint64_t repeats = 0;         // 0: automatic_repeats per size
  std::string json_path;
  std::string message_layer;         // empty: this build's own
  std::uint64_t inject_errors = 0;   // testing aid: words of each message process 0 sends changed
};

struct ParsedProbe {
  enum class Outcome { run, help, error };
  Outcome outcome = Outcome::run;
  std::string message;  // the help text, or a one-line error
  ProbeConfig config;
};

// The probes' options, declared on `app` (the probes' parser; gups-topology
// --catalogue exports them for gups-sim). --sizes goes to `sizes`, as given.
void declare_probe_options(CLI::App& app, ProbeConfig& config, std::string& sizes);
ParsedProbe parse_probe_command_line(int argc, const char* const* argv, std::uint64_t processes);

struct SizeResult {
  std::uint64_t bytes = 0;
  std::uint64_t repeats = 0;
  double seconds = 0;  // the slowest process's, from a barrier to its last message
  double aggregate_bytes_per_s = 0;
  double per_pair_bytes_per_s = 0;
  double latency_us = 0;  // seconds per step of one repetition, the message's time on its own
};

struct ProbeResult {
  ProbeConfig config;
  std::string summary;
  std::uint64_t processes = 0;
  std::vector<SizeResult> sizes;
  std::uint64_t wrong_messages = 0;  // payloads not as sent, or not from the process paired
  std::string mpi_library;
  std::optional<SharedCores> shared_cores;  // real runs: the host whose ranks outnumber their cores most
  // Simulated layers: the first bytes of each message, carried and checked
  // (the rest only takes its simulated time); none: every byte.
  std::optional<std::uint64_t> carried_bytes;
  bool passed() const { return wrong_messages == 0; }
};

// The figures of one size from the slowest process's seconds.
SizeResult size_result(std::string_view probe, std::uint64_t processes, std::uint64_t bytes, std::uint64_t repeats,
                       double seconds);

std::string format_lines(const ProbeResult& result);
nlohmann::json to_json(const ProbeResult& result);

}  // namespace gups::exchange
