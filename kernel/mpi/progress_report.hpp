// Rank 0's progress: a line for the person on stderr and, with
// --progress-json FILE, the same as one JSON object per line for programs
// (gups-sim keeps the phases and the last figures of a stopped run).
#pragma once

#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "kernel/mpi/operation_costs.hpp"
#include "kernel/mpi/simulation.hpp"

namespace gups {

// Opened and closed each time: a note comes every few seconds at most, and a
// run killed in between leaves every finished line.
inline void append_json_line(const std::string& path, const std::string& line) {
  if (path.empty()) return;
  if (std::FILE* file = std::fopen(path.c_str(), "a")) {
    std::fprintf(file, "%s\n", line.c_str());
    std::fclose(file);
  }
}

// Rank 0's note of the end of each phase of a run (set-up, updates,
// statistics, verification), in wall seconds since the process started:
// simulated runs note every phase (at 131,072 simulated ranks the phases
// around the update loop take minutes of their own; gups-sim keeps the
// notes), real runs only once they have lasted longer than `seconds`.
class PhaseReport {
 public:
  using Clock = std::chrono::steady_clock;
  PhaseReport(bool active, double seconds, Clock::time_point start, bool every_phase, std::string json_path)
      : active_(active && seconds > 0), seconds_(every_phase ? 0 : seconds), start_(start),
        json_path_(std::move(json_path)) {}
  void done(const char* phase) const {
    if (!active_) return;
    const double wall = std::chrono::duration<double>(Clock::now() - start_).count();
    if (wall < seconds_) return;
    std::fprintf(stderr, "gups: progress: %s done, wall %.1f s\n", phase, wall);
    append_json_line(json_path_, fmt::format(R"({{"phase": "{}", "wall_seconds": {}}})", phase, wall));
  }

 private:
  bool active_;
  double seconds_;
  Clock::time_point start_;
  std::string json_path_;
};

// Rank 0's note of how far a long run is, every `seconds` of wall time.
class ProgressReport {
 public:
  ProgressReport(bool active, double seconds, std::uint64_t total, std::string json_path)
      : active_(active && seconds > 0), seconds_(seconds), total_(total), last_(Clock::now()),
        start_(last_), json_path_(std::move(json_path)) {}

  void note(std::uint64_t done) {
    if (!active_ || ++calls_ % 16 != 0) return;
    const auto now = Clock::now();
    if (std::chrono::duration<double>(now - last_).count() < seconds_) return;
    last_ = now;
    const char* clock_name = simulation::active() ? "simulated" : "MPI time";
    const double clock = run_clock();
    const double percent =
        total_ ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 100.0;
    const double wall = std::chrono::duration<double>(now - start_).count();
    std::fprintf(stderr, "gups: progress: %s %.6f s, rank 0 generated %.1f%%, wall %.0f s\n", clock_name, clock,
                 percent, wall);
    append_json_line(json_path_, fmt::format(R"({{"clock": "{}", "seconds": {}, "rank0_generated_percent": {}, )"
                                             R"("wall_seconds": {}}})",
                                             clock_name, clock, percent, wall));
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool active_;
  double seconds_;
  std::uint64_t total_;
  Clock::time_point last_, start_;
  std::string json_path_;
  std::uint64_t calls_ = 0;
};

}  // namespace gups
