// gups-serial: the HPCC update loop on one whole table in one process, with
// no communication and no bucket: the ceiling any algorithm here is held to.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>

#include "kernel/core/host_memory.hpp"
#include "kernel/core/hpcc_stream.hpp"
#include "kernel/core/local_table.hpp"
#include "kernel/core/run_report.hpp"

int main(int argc, char** argv) {
  unsigned log2_table = 22;
  unsigned updates_per_word = 4;
  std::string json_path;
  CLI::App app{"Serial HPCC RandomAccess update loop (one process, whole table).", "gups-serial"};
  app.add_option("--log2-table", log2_table, "table size: 2^N words")
      ->check(CLI::Range(1u, 62u))
      ->capture_default_str();
  app.add_option("--updates-per-word", updates_per_word, "updates per word")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  app.add_option("--json", json_path, "also write the result as JSON to this file");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    fmt::print("{}", app.help());
    return 0;
  } catch (const CLI::ParseError& error) {
    fmt::print(stderr, "gups-serial: error: {}\n", error.what());
    return 2;
  }

  const std::uint64_t words = std::uint64_t{1} << log2_table;
  const auto available = gups::available_host_memory_bytes();
  if (available) {
    if (auto shortfall = gups::memory_shortfall(8.0 * static_cast<double>(words), *available, "the table")) {
      fmt::print(stderr, "gups-serial: error: {}\n", *shortfall);
      return 2;
    }
  }
  gups::LocalTable table(0, words);
  table.initialise();
  auto* data = table.words().data();
  const std::uint64_t mask = words - 1;
  const std::uint64_t updates = std::uint64_t{updates_per_word} * words;

  const auto start = std::chrono::steady_clock::now();
  std::uint64_t random = gups::starts(0);
  for (std::uint64_t i = 0; i < updates; ++i) {
    random = gups::next_random(random);
    data[random & mask] ^= random;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const auto sums = table.checksums();
  const double gups_rate = 1e-9 * static_cast<double>(updates) / seconds;
  fmt::print("Total Main table size = 2^{} = {} words\n", log2_table, words);
  fmt::print("Number of updates EXECUTED = {}\n", updates);
  fmt::print("Real time used = {:.6f} seconds\n", seconds);
  fmt::print("{:.9f} Billion(10^9) Updates    per second [GUP/s]\n", gups_rate);
  fmt::print("Table checksums: sum = {}, xor = {}\n", gups::hex64(sums.sum),
             gups::hex64(sums.xor_all));
  if (!json_path.empty()) {
    std::ofstream json(json_path);
    json << nlohmann::json{{"schema", "torus-gups/serial/1"},
                           {"log2_table", log2_table},
                           {"updates", updates},
                           {"seconds", seconds},
                           {"gups", gups_rate},
                           {"checksums", {{"sum", gups::hex64(sums.sum)}, {"xor", gups::hex64(sums.xor_all)}}}}
                .dump(2)
         << '\n';
  }
  return 0;
}
