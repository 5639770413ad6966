#include "kernel/core/run_config.hpp"

// SimGrid's smpicxx defines exit(x) as a macro in every file; CLI11 has a
// member function of that name, and this file calls no exit().
#ifdef exit
#undef exit
#endif
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <bit>
#include <filesystem>
#include <map>

#include "kernel/core/cli_checks.hpp"
#include "kernel/core/hpcc_stream.hpp"
#include "kernel/core/mapping_mode.hpp"
#include "kernel/core/option_scopes.hpp"

namespace gups {
namespace {

std::string join(const std::vector<std::string>& names) {
  std::string result;
  for (const auto& name : names) {
    result += (result.empty() ? "" : "|") + name;
  }
  return result;
}

// CLI11 messages can span lines; an error here is one line.
std::string one_line(std::string text) {
  for (auto& c : text) {
    if (c == '\n') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

const std::map<std::string, Verification>& verification_names() {
  static const std::map<std::string, Verification> names{
      {"full", Verification::full}, {"checksum", Verification::checksum}, {"none", Verification::none}};
  return names;
}

const std::map<std::string, Handoffs>& handoff_names() {
  static const std::map<std::string, Handoffs> names{{"shared-memory", Handoffs::shared_memory},
                                                     {"mpi", Handoffs::mpi}};
  return names;
}

const std::map<std::string, TorusSends>& sends_names() {
  static const std::map<std::string, TorusSends> names{{"synchronous", TorusSends::synchronous},
                                                       {"standard", TorusSends::standard}};
  return names;
}

// Sizes that the options allow one by one but not together; throws
// CLI::ValidationError naming the reason.
void check_combined_sizes(const RunConfig& config) {
  const std::uint64_t most_per_word = kMaxTotalUpdates >> config.log2_table;
  if (config.updates_per_word > most_per_word) {
    throw CLI::ValidationError(fmt::format(
        "{} updates per word on 2^{} words is about 2^{} updates, more than the 2^63 a run can count",
        config.updates_per_word, config.log2_table,
        config.log2_table + std::bit_width(config.updates_per_word) - 1));
  }
  if (config.stream_offset >= kPeriod) {
    throw CLI::ValidationError(fmt::format(
        "--stream-offset {} is not below the stream's period ({}): the stream repeats, give the offset "
        "modulo the period",
        config.stream_offset, kPeriod));
  }
  const std::uint64_t table_words = std::uint64_t{1} << config.log2_table;
  if (config.inject_errors > table_words) {
    throw CLI::ValidationError(fmt::format("--inject-errors {} is more than the table's {} words",
                                           config.inject_errors, table_words));
  }
}

// The mapping mode against the algorithm, and the protection options
// against the mode; throws CLI::ValidationError.
void check_mapping(RunConfig& config, bool protection_given, bool locks_given, const std::string& protection,
                   bool simulated) {
  if (config.mapping_mode == 0) config.mapping_mode = default_mapping_mode(config.algorithm);
  MappingMode mode;
  try {
    check_mapping_mode(config.mapping_mode, config.algorithm);
    mode = mapping_mode(config.mapping_mode);
  } catch (const std::invalid_argument& error) {
    throw CLI::ValidationError(error.what());
  }
  if (mode.cores_share_table() && simulated) {
    throw CLI::ValidationError(fmt::format(
        "mapping mode {} shares a node's table between its cores: real runs only (gups)", mode.number));
  }
  if ((protection_given || locks_given) && !mode.cores_share_table()) {
    throw CLI::ValidationError(fmt::format(
        "--protection and --locks apply to mapping modes 5 and 6, where a node's cores share its table (mode {} "
        "gives each table one updating core)",
        mode.number));
  }
  config.protection = protection_named(protection);
  if (locks_given && config.protection != Protection::locks) {
    throw CLI::ValidationError("--locks needs --protection locks");
  }
}

// The mechanisms a simulated run models need the machine's charges and s4u's messages.
void check_mechanisms(const RunConfig& config) {
  if ((config.mechanisms.wire_packets || config.mechanisms.receive_batches) && config.charges_path.empty()) {
    throw CLI::ValidationError("--wire-packets and --receive-batches model a machine: they need --charges");
  }
  if (config.mechanisms.wire_packets && config.message_layer == "mpi") {
    throw CLI::ValidationError("--wire-packets needs --message-layer s4u (MPI sends payloads only)");
  }
  if (config.mechanisms.reception_fifo_messages > 0 && !config.mechanisms.dma_injection) {
    throw CLI::ValidationError("--reception-fifo bounds what DMA injection sends: it needs --dma-injection");
  }
  if (config.mechanisms.dma_injection && config.message_layer == "mpi") {
    throw CLI::ValidationError("--dma-injection needs --message-layer s4u (SMPI's sends are rendezvous here)");
  }
}

// The options of option_scopes() this program has, given to an algorithm without their trait.
void refuse_options_out_of_scope(const CLI::App& app, Algorithm algorithm) {
  for (const auto& scope : option_scopes()) {
    const CLI::Option* option = app.get_option_no_throw(std::string(scope.option));
    if (option && option->count() > 0 && !has(traits(algorithm), scope.needs)) {
      throw CLI::ValidationError(refusal(scope.option));
    }
  }
}

template <typename Enum>
std::string name_in(const std::map<std::string, Enum>& names, Enum wanted) {
  for (const auto& [name, value] : names) {
    if (value == wanted) return name;
  }
  return "?";
}

}  // namespace

std::string to_string(Verification verification) { return name_in(verification_names(), verification); }

std::string to_string(Handoffs handoffs) { return name_in(handoff_names(), handoffs); }

std::string to_string(TorusSends sends) { return name_in(sends_names(), sends); }

GupsOptionText::GupsOptionText(const RunConfig& config)
    : algorithm(to_string(config.algorithm)),
      owner(to_string(config.owner)),
      protection(to_string(config.protection)),
      handoffs(to_string(config.handoffs)),
      sends(to_string(config.sends)) {}

namespace {

// What every run takes, real or simulated.
void declare_run_options(CLI::App& app, RunConfig& config, GupsOptionText& text,
                         const std::vector<std::string>& algorithms) {
  app.add_option("--algo", text.algorithm,
                 "update algorithm (also apex-map-mpi and apex-map-rma: the Apex-Map probe, gups --algo "
                 "apex-map-mpi --help; bisection, exchange and all-to-all: the global-exchange probes, gups --algo "
                 "exchange --help)")
      ->check(CLI::IsMember(algorithms))
      ->option_text("{" + join(algorithms) + "} [" + text.algorithm + "]");
  app.add_option("--log2-table", config.log2_table, "table size: 2^N 64-bit words in total")
      ->check(CLI::Range(1u, 62u))
      ->capture_default_str();
  app.add_option("--updates-per-word", config.updates_per_word,
                 "updates per table word (HPCC: 4)")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  app.add_option("--owner", text.owner,
                 "owner of an index: HPCC division, or Theorem 4.1 prediction")
      ->check(CLI::IsMember({to_string(OwnerMode::division), to_string(OwnerMode::predict)}))
      ->capture_default_str();
  app.add_option("--lookahead", config.lookahead,
                 "updates generated but not yet applied, at most, per process or node")
      ->check(CLI::Range(std::uint64_t{1}, kMaxLookahead))
      ->capture_default_str();
  app.add_option("--shape", config.shape,
                 scope_help("--shape") + "virtual torus of the nodes, e.g. 8x8x8; default: balanced")
      ->check(cli::kNotEmpty);
  app.add_option("--cores-per-node", config.cores_per_node,
                 algorithms_with(AlgorithmTrait::specialised_cores, ", ") + ": ranks per node, rank = node * k + core [4]")
      ->check(CLI::Range(1u, 256u));
  app.add_option("--role-plan", config.role_plan,
                 scope_help("--role-plan") + "what each core of a node does, 'paper' (min(d, k-1) routing cores, the rest "
                 "updating) or a plan such as 2xX/YZ+3 (2 pipelines routing X then YZ, 3 updaters; "
                 "gups-model --role-plan best prints the planner's)")
      ->capture_default_str();
  app.add_option("--mapping-mode", config.mapping_mode,
                 "the paper's Table 1: table, generation and look-ahead limit per core or per node; direct runs "
                 "1, 5, 6, routed 1, multicore 7, 8 [1; multicore 8]")
      ->check(CLI::Range(1u, 8u));
  app.add_option("--protection", text.protection,
                     "mapping modes 5, 6 (cores sharing a node's table): none (racy XOR), atomic (XOR), locks "
                     "(striped spin locks)")
          ->check(CLI::IsMember(protection_names()))
          ->capture_default_str();
  app.add_option("--locks", config.locks, "with --protection locks: how many")
                           ->check(CLI::Range(1u, 1u << 20))
                           ->capture_default_str();
  app.add_option("--bucket-size", config.bucket_size,
                 scope_help("--bucket-size") + "updates per bucket instead of look-ahead / buckets per node")
      ->check(CLI::Range(1u, 1u << 24));
  app.add_flag("--explain", config.explain, "print what each core does and the bucket sizes");
  app.add_option("--json", config.json_path, "also write the result as JSON to this file")
      ->check(cli::kOutputFile);
  app.add_option("--stream-offset", config.stream_offset,
                 "skip this many steps of the stream first (0: HPCC, whose start is sparse and skews "
                 "short runs toward node 0)")
      ->check(CLI::NonNegativeNumber)  // else CLI11 wraps "-1" to 2^64 - 1
      ->capture_default_str();
  app.add_option("--inject-errors", config.inject_errors,
                 "testing aid: corrupt this many table words before verification")
      ->check(CLI::NonNegativeNumber);
}

// What only a real run takes: how the node's cores meet on a host.
void declare_real_options(CLI::App& app, RunConfig& config, GupsOptionText& text) {
  app.add_option("--handoffs", text.handoffs,
                 scope_help("--handoffs") + "what carries updates between the cores of a node: shared-memory (slots in an "
                 "MPI-3 shared window; MPI messages where a node's ranks are on several hosts) or mpi")
      ->check(CLI::IsMember({to_string(Handoffs::shared_memory), to_string(Handoffs::mpi)}))
      ->capture_default_str();
  app.add_option("--sends", text.sends,
                 scope_help("--sends") + "how a bucket goes over the torus: synchronous (in flight, and in the "
                 "look-ahead, until the receiver takes it, as simulated sends) or standard (MPI may complete it "
                 "at once and hold the updates itself, uncounted, as HPCC's reference and direct count)")
      ->check(CLI::IsMember({to_string(TorusSends::synchronous), to_string(TorusSends::standard)}))
      ->capture_default_str();
  app.add_option("--slow-updates", config.slow_update_ns,
                 "testing aid (" + algorithms_with(AlgorithmTrait::routes_over_torus, ", ") +
                     "): every update applied takes NS nanoseconds longer, so "
                 "that the updating core lags on purpose")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1000000}))
      ->option_text("NS");
}

// What only a simulated run takes: the machine's charges, its mechanisms, settling.
void declare_simulation_options(CLI::App& app, RunConfig& config) {
  app.add_option("--charges", config.charges_path,
                 "per-core cycles to charge the simulated cores (gups-topology --charges writes them from a "
                 "machine file); without it SMPI times the real code")
      ->check(CLI::ExistingFile);
  app.add_option("--verify", config.verify,
                 "full: every word, by a distributed pass (costly at scale); checksum: the table's "
                 "checksums against a serial pass over the same stream in one process; none")
      ->transform(CLI::CheckedTransformer(verification_names()))
      ->option_text("{full|checksum|none} [full]");
  config.message_layer = "s4u";
  app.add_option("--message-layer", config.message_layer,
                 "what carries the algorithms' messages: s4u (at flow SimGrid communications through "
                 "mailboxes; at the levels that time messages themselves, no SimGrid communication), s4u-comms "
                 "(SimGrid communications at every level, for comparison) or mpi (SMPI calls); same sizes and "
                 "semantics")
      ->check(CLI::IsMember({"s4u", "s4u-comms", "mpi"}))
      ->capture_default_str();
  app.add_flag("--wire-packets", config.mechanisms.wire_packets,
               "with --charges: torus messages carry whole packets, headers and acks (not just payload)");
  app.add_flag("--receive-batches", config.mechanisms.receive_batches,
               "with --charges: a receive call takes the packets waiting, up to the machine's batch, for a "
               "cost per call plus one per packet (not the batched cost per packet)");
  app.add_flag("--dma-injection", config.mechanisms.dma_injection,
               scope_help("--dma-injection") + "with --message-layer s4u: a send is injected at once and travels to the "
               "receiving node without waiting for a posted receive (Blue Gene/P's DMA); otherwise sends "
               "are rendezvous");
  app.add_option("--reception-fifo", config.mechanisms.reception_fifo_messages,
                 "with --dma-injection: messages a core's channel holds that no receive has taken yet, "
                 "before sends to it wait (0: unbounded)")
      ->capture_default_str();
  app.add_flag("--link-load", config.link_load,
               scope_help("--link-load") + "report how busy each dimension's torus links were over the update phase "
               "(simulated runs)");
  app.add_option("--progress-seconds", config.progress_seconds,
                 "rank 0 reports progress every this many wall seconds (0: never)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--progress-json", config.progress_path,
                 "also append rank 0's progress to FILE, one JSON object per line (phases: phase, "
                 "wall_seconds; figures: clock, seconds, rank0_generated_percent, wall_seconds)")
      ->check(cli::kOutputFile);
  app.add_flag("--run-ahead,!--no-run-ahead", config.run_ahead,
               algorithms_with(AlgorithmTrait::routes_over_torus, ", ") +
                   ", at the levels that time messages themselves: a core's sends and posts take "
               "effect at the end of its work, as events, and it waits only to look at its messages (default); "
               "--no-run-ahead waits out the work before each, for comparison")
      ->capture_default_str();
  app.add_flag("--early-looks,!--no-early-looks", config.early_looks,
               "with --run-ahead: a look at the messages whose answer nothing before the core's time can change "
               "is answered without waiting for that time (default; not while settling the steady state); "
               "--no-early-looks waits, for comparison: the same results")
      ->capture_default_str();
  app.add_option("--settle-to", config.settle_tolerance,
                 scope_help("--settle-to") + "stop generating once the steady state is settled within this share "
                 "(0.005: 0.5%), every generator at the same count, and check the table against the updates "
                 "generated; 0: the whole stream, as HPCC")
      ->check(CLI::Range(0.0, 0.5))
      ->capture_default_str();
  app.add_option("--settle-least", config.settle_least,
                 "with --settle-to: not before the leading generator has generated its share of this many "
                 "updates a node")
      ->capture_default_str();
}

}  // namespace

void declare_gups_options(CLI::App& app, RunConfig& config, GupsOptionText& text,
                          const std::vector<std::string>& algorithms, bool simulated) {
  declare_run_options(app, config, text, algorithms);
  if (simulated) {
    config.handoffs = Handoffs::mpi;
    declare_simulation_options(app, config);
  } else {
    declare_real_options(app, config, text);
  }
}

ParsedCommandLine parse_command_line(int argc, const char* const* argv,
                                     const std::vector<std::string>& algorithms,
                                     bool simulated) {
  ParsedCommandLine parsed;
  RunConfig& config = parsed.config;
  CLI::App app{"HPCC RandomAccess (GUPS) with aggregation and software routing over a "
               "virtual torus.",
               "gups"};
  GupsOptionText text(config);
  declare_gups_options(app, config, text, algorithms, simulated);
  try {
    cli::refuse_old_spellings(app, argc, argv);
    app.parse(argc, argv);
    config.algorithm = *algorithm_named(text.algorithm);
    check_combined_sizes(config);
    refuse_options_out_of_scope(app, config.algorithm);
    if (app.get_option_no_throw("--handoffs")) config.handoffs = handoff_names().at(text.handoffs);
    if (app.get_option_no_throw("--sends")) config.sends = sends_names().at(text.sends);
    check_mapping(config, app.get_option("--protection")->count() > 0, app.get_option("--locks")->count() > 0,
                  text.protection, simulated);
    check_mechanisms(config);
    config.owner = text.owner == to_string(OwnerMode::predict) ? OwnerMode::predict : OwnerMode::division;
  } catch (const CLI::CallForHelp&) {
    parsed.outcome = ParsedCommandLine::Outcome::help;
    parsed.message = app.help();
  } catch (const CLI::ParseError& error) {
    parsed.outcome = ParsedCommandLine::Outcome::error;
    parsed.message = one_line(error.what());
  }
  return parsed;
}

}  // namespace gups
