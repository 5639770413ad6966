// The Apex-Map probe's command line and report: pure (no MPI, no printing),
// so the checks and the figures it prints are tested without mpirun.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernel/apex_map/access.hpp"
#include "kernel/core/shared_cores.hpp"

namespace CLI {
class App;
}

namespace gups::apex_map {

// Whether gups --algo NAME is one of the probe's implementations (variants.def).
bool is_implementation(std::string_view name);

// A process's share when --memory-words is not given: 2^20 words (8 MiB).
inline constexpr std::uint64_t kDefaultShareWords = 1ULL << 20;

struct ProbeConfig {
  std::string algorithm;
  Parameters parameters;
  std::string json_path;
  std::string charges_path;         // simulated runs: the machine's cycles per operation (gups-topology --charges)
  std::uint64_t inject_errors = 0;  // testing aid: words of each share changed before the run
  std::string message_layer;        // two-sided: make_message_slots' layer; empty: this build's own
};

struct ParsedProbe {
  enum class Outcome { run, help, error };
  Outcome outcome = Outcome::run;
  std::string message;  // the help text, or a one-line error
  ProbeConfig config;
};


// The probe's options, declared on `app` (the probe's parser; gups-topology
// --catalogue exports them for gups-sim). --memory-words goes to `memory_words`.
void declare_probe_options(CLI::App& app, ProbeConfig& config, std::uint64_t& memory_words,
                           const std::vector<std::string>& names);
ParsedProbe parse_probe_command_line(int argc, const char* const* argv, const std::vector<std::string>& names,
                                     std::uint64_t processes);

struct ProbeResult {
  ProbeConfig config;
  std::string summary;  // what the implementation is
  std::uint64_t processes = 0;
  double seconds = 0;  // the slowest process's time over every repetition, waiting for the others included
  std::uint64_t remote_accesses = 0;  // of every process and repetition
  std::uint64_t wrong_sums = 0;       // processes and repetitions whose sum is not the serial one
  std::string mpi_library;
  std::optional<SharedCores> shared_cores;  // real runs: the host whose ranks outnumber their cores most

  std::uint64_t accesses_per_process() const {
    return config.parameters.indices * config.parameters.repeats;
  }
  double ns_per_access() const { return 1e9 * seconds / static_cast<double>(accesses_per_process()); }
  // Aggregate: the words every process read (local and remote) over the time.
  double aggregate_mb_per_second() const;
  double remote_fraction() const;
  bool passed() const { return wrong_sums == 0; }
};

std::string format_lines(const ProbeResult& result);
nlohmann::json to_json(const ProbeResult& result);

}  // namespace gups::apex_map
