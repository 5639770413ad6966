// gups-sleep-floor: what one sleep of a simulated core costs SimGrid alone,
// at a given number of ranks. Run by smpirun (tests/benchmarks/sleep-floor.sh):
// every rank sleeps on the clock as a core does at the timed levels
// (alarm_clock.hpp, suspended and resumed), for a random time under a
// microsecond, again and again, and does nothing else but touch a block of
// its own memory after each wake (--touch-bytes: a core's state). Rank 0
// prints the wall time per sleep: the floor under the timed levels' wall
// time per message, which pays a few sleeps per message.
#include <mpi.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <random>
#include <vector>

#include "kernel/core/cli_checks.hpp"  // CLI11, past smpicxx's exit macro
#include "kernel/mpi/phase_barrier.hpp"
#include "sim/smpi/alarm_clock.hpp"

namespace {

struct Options {
  std::uint64_t sleeps = 50;
  std::uint64_t touch_bytes = 0;
  std::string json;
};

double now() { return simgrid::s4u::Engine::get_clock(); }

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Options options;
  CLI::App app{"The wall time of one simulated core's sleep at this many ranks (run by smpirun)"};
  app.add_option("--sleeps", options.sleeps, "sleeps per rank")->check(CLI::Range(1, 1 << 20));
  app.add_option("--touch-bytes", options.touch_bytes, "bytes of its own memory a rank touches after each wake")
      ->check(CLI::Range(0, 1 << 20));
  app.add_option("--json", options.json, "rank 0 writes its figures here");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    if (rank == 0) std::cout << app.help();
    MPI_Finalize();
    return 0;
  } catch (const CLI::ParseError& error) {
    if (rank == 0) std::cerr << "gups-sleep-floor: error: " << error.what() << '\n';
    MPI_Finalize();
    return 2;
  }

  gups::WakeUpCall::suspend_sleepers();
  gups::WakeUpCall alarm;
  std::vector<std::uint64_t> state(options.touch_bytes / sizeof(std::uint64_t));
  std::mt19937_64 random(static_cast<std::uint64_t>(rank) * 0x9E3779B97F4A7C15ULL + 1);
  std::uniform_real_distribution<double> nanoseconds(1.0, 1000.0);

  gups::phase_barrier(ranks, false);
  const auto start = std::chrono::steady_clock::now();
  const double simulated_start = now();
  std::uint64_t touched = 0;
  for (std::uint64_t i = 0; i < options.sleeps; ++i) {
    alarm.sleep_until(now() + nanoseconds(random) * 1e-9);
    for (std::size_t word = 0; word < state.size(); word += 8) touched += ++state[word];  // a line each
  }
  gups::phase_barrier(ranks, false);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (rank == 0) {
    const double sleeps = static_cast<double>(options.sleeps) * ranks;
    const double simulated = now() - simulated_start;
    const double ns_per_sleep = wall / sleeps * 1e9;
    const nlohmann::json figures{{"ranks", ranks},
                                 {"sleeps_per_rank", options.sleeps},
                                 {"touch_bytes", options.touch_bytes},
                                 {"wall_seconds", wall},
                                 {"simulated_seconds", simulated},
                                 {"ns_per_sleep", ns_per_sleep},
                                 {"sleeps_per_wall_second", sleeps / wall},
                                 {"touched", touched}};
    // The clock's advance depends only on the sleeps asked for: a transcript checks it.
    std::cout << fmt::format("{} ranks, {} sleeps each: the clock advanced {:.9f} s\n", ranks, options.sleeps,
                             simulated)
              << fmt::format("{:.0f} ns of wall time per sleep ({:.2f} s)\n", ns_per_sleep, wall);
    if (!options.json.empty()) std::ofstream(options.json) << figures.dump(1) << '\n';
  }
  MPI_Finalize();
  return 0;
}
