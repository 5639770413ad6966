#include "kernel/apex_map/run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "kernel/core/cli_checks.hpp"  // CLI11, with SimGrid's exit() macro out of its way
#include "kernel/core/program_variants.hpp"

namespace gups::apex_map {

bool is_implementation(std::string_view name) { return is_variant_of(name, VariantFamily::apex_map); }

void declare_probe_options(CLI::App& app, ProbeConfig& config, std::uint64_t& memory_words,
                           const std::vector<std::string>& names) {
  auto& p = config.parameters;
  std::string names_text;
  for (const auto& name : names) names_text += (names_text.empty() ? "" : "|") + name;
  app.add_option("--algo", config.algorithm, "the probe's implementation")
      ->required()
      ->check(CLI::IsMember(names))
      ->option_text("{" + names_text + "}");
  app.add_option("--memory-words", memory_words,
                 fmt::format("M: the global array in 64-bit words, a multiple of the processes "
                             "[{} per process]",
                             kDefaultShareWords));
  app.add_option("--alpha", p.alpha, "temporal locality, above 0 and at most 1 (1: uniform random) [1]");
  app.add_option("--block-words", p.block_words, "L: words read per access, contiguous [1]");
  app.add_option("--indices", p.indices, "I: accesses per process and repetition [1024]");
  app.add_option("--repeats", p.repeats, "N: repetitions, each with new indices [1]");
  app.add_option("--receive-buffers", p.receive_buffers,
                 "B (apex-map-mpi): outstanding remote requests per process, at most 16384 [32]");
  app.add_option("--send-handles", p.send_handles, "SMSG (apex-map-mpi): outstanding sends per process [64]");
  app.add_option("--serve-per-turn", p.serve_per_turn,
                 "NSER (apex-map-mpi): requests served at most between two of a process's own accesses [16]");
  app.add_option("--seed", p.seed, "the indices' random streams [1]");
  app.add_option("--json", config.json_path, "also write the result as JSON to this file");
  app.add_option("--charges", config.charges_path,
                 "simulated runs: cycles to charge per operation (gups-topology --charges writes them from a machine "
                 "file); real runs charge nothing");
  app.add_option("--message-layer", config.message_layer,
                 "apex-map-mpi: what carries its messages: mpi, or in the SimGrid build s4u (at the levels that "
                 "time messages themselves, no SimGrid communication) or s4u-comms [this build's: mpi on MPI, s4u "
                 "under SimGrid]")
      ->check(CLI::IsMember({"s4u", "s4u-comms", "mpi"}));
  app.add_option("--inject-errors", config.inject_errors,
                 "testing aid: change this many words of each process's share before the run, so that the sums "
                 "that read them are wrong");
}

ParsedProbe parse_probe_command_line(int argc, const char* const* argv, const std::vector<std::string>& names,
                                     std::uint64_t processes) {
  ParsedProbe parsed;
  auto& config = parsed.config;
  auto& p = config.parameters;
  CLI::App app{"Apex-Map (Strohmaier and Shan): global data access with temporal locality alpha and spatial "
               "locality L, over MPI. Each process reads I blocks of L words whose starts follow a power "
               "distribution shifted toward its own memory, and sums them.",
               "gups"};
  std::uint64_t memory_words = 0;
  declare_probe_options(app, config, memory_words, names);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    parsed.outcome = ParsedProbe::Outcome::help;
    parsed.message = app.help();
    return parsed;
  } catch (const CLI::ParseError& error) {
    parsed.outcome = ParsedProbe::Outcome::error;
    parsed.message = error.what();
    return parsed;
  }
  p.memory_words = memory_words ? memory_words : kDefaultShareWords * processes;
  if (auto why = problem(p, processes)) {
    parsed.outcome = ParsedProbe::Outcome::error;
    parsed.message = *why;
  }
  return parsed;
}

double ProbeResult::aggregate_mb_per_second() const {
  const double bytes = 8.0 * static_cast<double>(processes * accesses_per_process() * config.parameters.block_words);
  return seconds > 0 ? bytes / seconds / 1e6 : 0.0;
}

double ProbeResult::remote_fraction() const {
  return static_cast<double>(remote_accesses) / static_cast<double>(processes * accesses_per_process());
}

std::string format_lines(const ProbeResult& r) {
  const auto& p = r.config.parameters;
  std::string text = fmt::format("Apex-Map {} ({}) on {} processes ({})\n", r.config.algorithm, r.summary,
                                 r.processes, r.mpi_library);
  text += fmt::format("M = {} words ({} per process), alpha = {:g}, L = {} word(s), I = {}, N = {}", p.memory_words,
                      share_words(p, r.processes), p.alpha, p.block_words, p.indices, p.repeats);
  text += r.config.algorithm == "apex-map-mpi"
              ? fmt::format(", B = {}, SMSG = {}, NSER = {}\n", p.receive_buffers, p.send_handles, p.serve_per_turn)
              : "\n";
  text += fmt::format("Remote accesses: {:.2f}% (the distribution: {:.2f}%)\n", 100.0 * r.remote_fraction(),
                      100.0 * expected_remote_fraction(p.alpha, r.processes));
  text += fmt::format("Time: {:.6g} s; {:.6g} ns per access per process; aggregate {:.6g} MB/s ({:.6g} MB/s per "
                      "process)\n",
                      r.seconds, r.ns_per_access(), r.aggregate_mb_per_second(),
                      r.aggregate_mb_per_second() / static_cast<double>(r.processes));
  text += shared_cores_line(r.shared_cores);
  text += r.passed() ? "Verification: every sum equals its serial recomputation (passed).\n"
                     : fmt::format("Verification: {} sum(s) differ from their serial recomputation (failed).\n",
                                   r.wrong_sums);
  return text;
}

nlohmann::json to_json(const ProbeResult& r) {
  const auto& p = r.config.parameters;
  return {{"probe", "apex-map"},
          {"algorithm", r.config.algorithm},
          {"summary", r.summary},
          {"processes", r.processes},
          {"memory_words", p.memory_words},
          {"share_words", share_words(p, r.processes)},
          {"alpha", p.alpha},
          {"block_words", p.block_words},
          {"indices", p.indices},
          {"repeats", p.repeats},
          {"receive_buffers", p.receive_buffers},
          {"send_handles", p.send_handles},
          {"serve_per_turn", p.serve_per_turn},
          {"seed", p.seed},
          {"seconds", r.seconds},
          {"ns_per_access", r.ns_per_access()},
          {"aggregate_mb_per_second", r.aggregate_mb_per_second()},
          {"mb_per_second_per_process", r.aggregate_mb_per_second() / static_cast<double>(r.processes)},
          {"remote_fraction", r.remote_fraction()},
          {"expected_remote_fraction", expected_remote_fraction(p.alpha, r.processes)},
          {"wrong_sums", r.wrong_sums},
          {"passed", r.passed()},
          {"cores_shared", shared_cores_json(r.shared_cores)},
          {"mpi_library", r.mpi_library}};
}

}  // namespace gups::apex_map
