// apex-map-model: the first-order model of the Apex-Map probe on a machine
// (apex_map_bound.hpp) over an (alpha, L) plane, as a table and JSON.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>

#include "kernel/apex_map/run.hpp"
#include "kernel/core/cli_checks.hpp"
#include "kernel/core/program_variants.hpp"
#include "models/src/apex_map_bound.hpp"
#include "models/src/simulation_charges.hpp"

namespace {

struct CommandLine {
  std::string machine_name = "bgp", shape, json_path;
  std::uint64_t nodes = 0, memory_words = 0;
  std::vector<double> alphas{0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0};
  std::vector<std::uint64_t> blocks{1, 4, 16, 64, 256, 1024, 4096, 16384};
  gups::model::ApexMapModelRequest request;
};

void declare_options(CLI::App& app, CommandLine& c) {
  app.add_option("--machine,-m", c.machine_name, "machine name or path")->capture_default_str();
  app.add_option("--algo", c.request.algorithm, "the probe's implementation")
      ->check(CLI::IsMember(gups::variant_names(gups::VariantFamily::apex_map)))
      ->capture_default_str();
  auto* by_nodes = app.add_option("--nodes,-n", c.nodes, "node count, mapped by the machine's shape rule")
                       ->check(CLI::Range(std::uint64_t{1}, gups::kMaxNodes));
  app.add_option("--shape", c.shape, "torus shape such as 8x8x8")->check(gups::cli::kNotEmpty)->excludes(by_nodes);
  app.add_option("--cores-per-node", c.request.ranks_per_node, "processes per node, one a core")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  app.add_option("--memory-words", c.memory_words, "M, the global array (default: 65536 words per process)")
      ->check(CLI::PositiveNumber);
  app.add_option("--receive-buffers", c.request.receive_buffers, "B (apex-map-mpi)")
      ->check(CLI::Range(1u, gups::apex_map::kMaxReceiveBuffers))
      ->capture_default_str();
  app.add_option("--alphas", c.alphas, "alpha values")->delimiter(',')->check(CLI::Range(1e-9, 1.0));
  app.add_option("--blocks", c.blocks, "L values (words)")->delimiter(',')->check(CLI::PositiveNumber);
  app.add_option("--indices", c.request.indices,
                 "I of the run modelled: the process with the most remote accesses sets the time (0: the mean "
                 "process)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 24))
      ->capture_default_str();
  app.add_option("--samples", c.request.samples_per_process, "start indices drawn per process for the link loads")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20))
      ->capture_default_str();
  app.add_option("--json", c.json_path, "also write the points as JSON here")->check(gups::cli::kOutputFile);
}

// The table on stdout and, if asked, the points as JSON; throws std::invalid_argument.
int model(CommandLine& c) {
  using namespace gups::model;
  if (c.nodes == 0 && c.shape.empty()) throw std::invalid_argument("give --nodes or --shape");
  const auto machine = load_machine(c.machine_name, default_machine_directories());
  c.request.shape = c.shape.empty() ? machine.shape_for(c.nodes) : gups::TorusShape::parse(c.shape);
  const auto processes = c.request.shape.nodes() * c.request.ranks_per_node;
  c.request.share_words = c.memory_words ? c.memory_words / processes : std::uint64_t{1} << 16;
  if (c.memory_words && c.memory_words % processes) {
    throw std::invalid_argument(fmt::format("--memory-words {} is not a multiple of the {} processes", c.memory_words,
                                            processes));
  }
  const auto charges = access_charges_of(machine);
  nlohmann::json points = nlohmann::json::array();
  std::cout << fmt::format("Apex-Map model: {} on {} ({} torus, {} processes), {} words per process\n",
                           c.request.algorithm, machine.name, c.request.shape.to_string(), processes,
                           c.request.share_words);
  std::cout << fmt::format("{:>8} {:>6} {:>8} {:>6} {:>11} {:>11} {:>11} {:>11} {:>12}  {}\n", "alpha", "L",
                           "remote", "hops", "core ns", "latency ns", "links ns", "ns/access", "MB/s/proc",
                           "binds");
  for (const double alpha : c.alphas) {
    for (const auto block : c.blocks) {
      const auto point = apex_map_point(machine, charges, c.request, alpha, block);
      std::cout << fmt::format("{:>8g} {:>6} {:>7.2f}% {:>6.2f} {:>11.1f} {:>11.1f} {:>11.1f} {:>11.1f} {:>12.2f}  {}\n",
                               alpha, block, 100 * point.remote_fraction, point.mean_hops,
                               1e9 * point.core_seconds, 1e9 * point.latency_seconds, 1e9 * point.link_seconds,
                               1e9 * point.seconds, point.mb_per_second_per_process(), point.binds);
      points.push_back(to_json(point));
    }
  }
  if (!c.json_path.empty()) {
    std::ofstream out(c.json_path);
    out << nlohmann::json{{"schema", "torus-gups/apex-map-model/1"},
                          {"machine", machine.name},
                          {"algorithm", c.request.algorithm},
                          {"shape", c.request.shape.to_string()},
                          {"processes", processes},
                          {"share_words", c.request.share_words},
                          {"receive_buffers", c.request.receive_buffers},
                          {"points", points}}
               .dump(1)
        << "\n";
    if (!out) throw std::invalid_argument("cannot write " + c.json_path);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CommandLine c;
  CLI::App app{"apex-map-model: the first-order model of the Apex-Map probe on a machine, per (alpha, L): the "
               "time per access of one process as the largest of what its core, its round trips and the busiest "
               "torus link need (docs/apexmap.md)"};
  declare_options(app, c);
  if (const auto status = gups::cli::parse_or_exit(app, argc, argv, "apex-map-model")) return *status;
  try {
    return model(c);
  } catch (const std::invalid_argument& e) {
    std::cerr << "apex-map-model: error: " << e.what() << "\n";
    return 2;
  }
}
