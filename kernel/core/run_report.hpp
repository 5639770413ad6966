// The result of a run, as HPCC-style lines for a person and JSON for a script.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "local_table.hpp"
#include "run_config.hpp"
#include "update_stats.hpp"

namespace gups {

struct BuildInfo {
  std::string version;
  std::string git_commit;
  std::string compiler;
  std::string build_type;
  std::string mpi_library;
};

struct RunResult {
  RunConfig config;
  int ranks = 0;
  OwnerMode owner_effective = OwnerMode::division;
  std::uint64_t total_words = 0;
  std::uint64_t max_local_words = 0;
  std::uint64_t updates = 0;
  double seconds = 0.0;
  TableChecksums checksums;
  std::uint64_t errors = 0;
  bool passed = false;
  double verification_seconds = 0.0;
  UpdateStats stats;
  BuildInfo build;

  double gups() const noexcept { return seconds > 0.0 ? 1e-9 * static_cast<double>(updates) / seconds : 0.0; }
};

std::string format_hpcc_lines(const RunResult& result);
nlohmann::json to_json(const RunResult& result);
std::string hex64(std::uint64_t value);

}  // namespace gups
