// gups-shared-table: k threads apply the HPCC stream to one table they share,
// each its own stretch of the stream (the paper's Table 2: a node's cores
// updating a node's table), protected by nothing, an atomic XOR or striped
// locks. Then the stream is applied again (XOR undoes XOR) and every word not
// back to its index is an error: an update one core lost to another's.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sched.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <latch>
#include <optional>
#include <thread>
#include <vector>

#include "kernel/core/cli_checks.hpp"
#include "kernel/core/host_memory.hpp"
#include "kernel/core/local_table.hpp"
#include "kernel/core/shared_table.hpp"

namespace {

constexpr int kExitBadInput = 2;

unsigned cores_of_this_process() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  return static_cast<unsigned>(CPU_COUNT(&set));
}

struct Options {
  unsigned log2_table = 24;
  std::uint64_t updates = 0;  // 0: four per word
  unsigned threads = 0;       // 0: the cores this process may use
  gups::Protection protection = gups::Protection::none;
  unsigned locks = 1;
  unsigned repeats = 1;
  std::string json_path;
};

struct RunOutcome {
  double seconds = 0;
  std::uint64_t errors = 0;
};

// Splits steps 0..updates among `threads` threads, started together; returns
// the wall time from the start to the last thread's end.
double apply_in_threads(gups::LocalTable& table, std::uint64_t updates, unsigned threads,
                        gups::Protection protection, gups::StripedLocks* locks) {
  std::latch ready(threads + 1);
  std::vector<std::jthread> workers;
  for (unsigned t = 0; t < threads; ++t) {
    const std::uint64_t first = updates * t / threads;
    const std::uint64_t last = updates * (t + 1) / threads;
    workers.emplace_back([&, first, last] {
      ready.arrive_and_wait();
      gups::apply_shared_segment(table.words(), first, last - first, protection, locks);
    });
  }
  ready.arrive_and_wait();
  const auto start = std::chrono::steady_clock::now();
  workers.clear();  // joins
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

RunOutcome run_once(const Options& options, std::uint64_t updates, gups::StripedLocks* locks) {
  gups::LocalTable table(0, std::uint64_t{1} << options.log2_table);
  table.initialise();
  RunOutcome outcome;
  outcome.seconds = apply_in_threads(table, updates, options.threads, options.protection, locks);
  // Undone with atomic XORs: exact, whatever the threads.
  apply_in_threads(table, updates, options.threads, gups::Protection::atomic, nullptr);
  outcome.errors = table.count_errors();
  return outcome;
}

}  // namespace

namespace {

// gups-shared-table's options; returns --locks, which needs --protection locks.
CLI::Option* declare_options(CLI::App& app, Options& options, std::string& protection_name) {
  app.add_option("--log2-table", options.log2_table, "table size: 2^N words")
      ->check(CLI::Range(1u, 40u))
      ->capture_default_str();
  app.add_option("--updates", options.updates, "updates in all [4 per word]")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  app.add_option("--threads", options.threads, "threads updating the table [the cores this process may use]")
      ->check(CLI::Range(1u, 1024u));
  app.add_option("--protection", protection_name, "none (racy read and write), atomic (XOR), locks (striped)")
      ->check(CLI::IsMember(gups::protection_names()))
      ->capture_default_str();
  auto* locks_option = app.add_option("--locks", options.locks, "with --protection locks: how many")
                           ->check(CLI::Range(1u, 1u << 20))
                           ->capture_default_str();
  app.add_option("--repeats", options.repeats, "runs, each on a fresh table")
      ->check(CLI::Range(1u, 1000u))
      ->capture_default_str();
  app.add_option("--json", options.json_path, "also write the runs as JSON to this file")
      ->check(gups::cli::kOutputFile);
  return locks_option;
}

// The runs, their lines and, if asked, their JSON; the exit status.
int run_and_report(const Options& options, const std::string& protection_name, std::uint64_t words,
                   std::uint64_t updates, unsigned cores) {
  std::optional<gups::StripedLocks> locks;
  if (options.protection == gups::Protection::locks) locks.emplace(options.locks);
  const std::string protection_text =
      options.protection == gups::Protection::locks ? fmt::format("locks ({})", options.locks) : protection_name;
  fmt::print("Table = 2^{} words, {} updates, {} thread(s) on {} core(s), protection = {}\n", options.log2_table,
             updates, options.threads, cores, protection_text);
  nlohmann::json runs = nlohmann::json::array();
  double rate_sum = 0, error_sum = 0, error_square_sum = 0;
  for (unsigned r = 0; r < options.repeats; ++r) {
    const auto outcome = run_once(options, updates, locks ? &*locks : nullptr);
    const double rate = 1e-9 * static_cast<double>(updates) / outcome.seconds;
    fmt::print("Run {}: {:.9f} GUP/s, {} errors ({:.3e} of the words)\n", r + 1, rate, outcome.errors,
               static_cast<double>(outcome.errors) / static_cast<double>(words));
    std::fflush(stdout);
    runs.push_back({{"seconds", outcome.seconds}, {"gups", rate}, {"errors", outcome.errors}});
    rate_sum += rate;
    error_sum += static_cast<double>(outcome.errors);
    error_square_sum += static_cast<double>(outcome.errors) * static_cast<double>(outcome.errors);
  }
  const double n = options.repeats;
  const double mean_errors = error_sum / n;
  const double std_errors =
      n > 1 ? std::sqrt(std::max(0.0, (error_square_sum - n * mean_errors * mean_errors) / (n - 1))) : 0.0;
  fmt::print("Mean = {:.9f} GUP/s, {:.1f} errors (std {:.1f})\n", rate_sum / n, mean_errors, std_errors);
  if (!options.json_path.empty()) {
    std::ofstream json(options.json_path);
    json << nlohmann::json{{"schema", "torus-gups/shared-table/1"},
                           {"log2_table", options.log2_table},
                           {"words", words},
                           {"updates", updates},
                           {"threads", options.threads},
                           {"cores", cores},
                           {"protection", protection_name},
                           {"locks", options.protection == gups::Protection::locks ? options.locks : 0},
                           {"runs", runs}}
                .dump(2)
         << '\n';
    if (!json) {
      fmt::print(stderr, "gups-shared-table: error: cannot write {}\n", options.json_path);
      return kExitBadInput;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  std::string protection_name = "none";
  CLI::App app{"k threads updating one shared table (the paper's Table 2): rate and lost updates.",
               "gups-shared-table"};
  auto* locks_option = declare_options(app, options, protection_name);
  try {
    app.parse(argc, argv);
    if (locks_option->count() > 0 && protection_name != "locks") {
      throw CLI::ValidationError("--locks needs --protection locks");
    }
  } catch (const CLI::CallForHelp&) {
    fmt::print("{}", app.help());
    return 0;
  } catch (const CLI::ParseError& error) {
    fmt::print(stderr, "gups-shared-table: error: {}\n", error.what());
    return kExitBadInput;
  }
  options.protection = gups::protection_named(protection_name);
  const std::uint64_t words = std::uint64_t{1} << options.log2_table;
  const std::uint64_t updates = options.updates ? options.updates : 4 * words;
  const unsigned cores = cores_of_this_process();
  if (options.threads == 0) options.threads = cores;
  if (const auto available = gups::available_host_memory_bytes()) {
    if (auto shortfall = gups::memory_shortfall(8.0 * static_cast<double>(words), *available, "the table")) {
      fmt::print(stderr, "gups-shared-table: error: {}\n", *shortfall);
      return kExitBadInput;
    }
  }
  if (options.threads > cores) {
    fmt::print(stderr,
               "gups-shared-table: note: {} threads on {} cores: threads take turns, which changes both the "
               "rate and how often two updates meet\n",
               options.threads, cores);
  }

  return run_and_report(options, protection_name, words, updates, cores);
}
