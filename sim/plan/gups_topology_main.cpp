// gups-topology: the plan of a run on a machine's torus (shape, ranks, table,
// verification, the kernel's arguments), printed as one line of JSON, and on
// request the SimGrid platform and hostfile of that torus and the per-core
// charges the simulated kernel pays. The one place where launchers (gups-sim,
// the analysis) learn what a machine file and the kernel's rules make of a run.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <fstream>
#include <iostream>

#include "kernel/apex_map/run.hpp"
#include "kernel/core/algorithm.hpp"
#include "kernel/core/cli_checks.hpp"
#include "kernel/core/option_scopes.hpp"
#include "kernel/core/renamed_options.hpp"
#include "sim/plan/program_options.hpp"
#include "kernel/core/program_variants.hpp"
#include "kernel/exchange/run.hpp"
#include "sim/plan/exchange_plan.hpp"
#include "sim/plan/platform.hpp"
#include "sim/plan/probe_plan.hpp"
#include "sim/plan/run_plan.hpp"

namespace {

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::invalid_argument("cannot write " + path);
}

nlohmann::ordered_json variants_json() {
  auto list = nlohmann::ordered_json::array();
  for (const auto& variant : gups::program_variants()) {
    nlohmann::ordered_json row{{"name", variant.name}, {"family", gups::family_label(variant.family)},
                               {"help", variant.help}};
    if (variant.family == gups::VariantFamily::update_algorithm) {
      row["routes_over_torus"] = variant.routes_over_torus;
      row["specialised_cores"] = variant.specialised_cores;
      row["in_stages"] = variant.in_stages;
      row["model"] = to_string(gups::model_of(*gups::algorithm_named(variant.name)));
    }
    if (variant.family == gups::VariantFamily::exchange_probe) row["receive_buffers"] = variant.receive_buffers;
    list.push_back(row);
  }
  return list;
}

}  // namespace

namespace {

// The options that apply only to some algorithms (kernel/core/option_scopes.cpp), for gups-sim's refusals.
nlohmann::ordered_json option_scopes_json() {
  auto rows = nlohmann::ordered_json::array();
  for (const auto& scope : gups::option_scopes()) {
    rows.push_back({{"option", scope.option},
                    {"needs", gups::to_string(scope.needs)},
                    {"refusal", gups::refusal_template(scope)},
                    {"help", gups::scope_help(scope.option)}});
  }
  return rows;
}

// gups-sim --mechanisms: each mechanism and the option that switches it on.
nlohmann::ordered_json mechanisms_json() {
  auto rows = nlohmann::ordered_json::array();
  for (const auto& row : gups::mechanism_rows()) {
    rows.push_back({{"name", row.name}, {"help", row.help}, {"program", row.program}, {"option", row.option}});
  }
  return rows;
}

// The old spellings a program refuses (kernel/core/renamed_options.cpp), for gups-sim's.
nlohmann::ordered_json renamed_options_json() {
  auto rows = nlohmann::ordered_json::array();
  for (const auto& row : gups::renamed_options()) {
    rows.push_back({{"old_name", row.old_name},
                    {"new_name", row.new_name},
                    {"old_value", row.old_value},
                    {"new_value", row.new_value},
                    {"message", gups::renamed_message(row)}});
  }
  return rows;
}

}  // namespace

namespace {

// gups-topology's command line: the plan's request and what becomes of it.
struct CommandLine {
  gups::topology::PlanRequest request;
  std::string algorithm = "multicore", owner = "division", wrap = "torus", nodes_per_host = "1", level = "flow";
  std::string shape_rule = "machine";
  std::string platform_path, hostfile_path, charges_path, json_path;
  unsigned log2_table = 0, updates_per_word = 0;
  std::uint64_t updates_per_node = 0;
  bool paper_buckets = false;
  gups::topology::PlatformOptions options;
  gups::topology::ProbeRequest probe;
  std::string sizes;
  bool list_levels = false, list_variants = false, list_both = false;
};

// The run: what is run, on which torus, how long, on which network level.
void declare_run_options(CLI::App& app, CommandLine& c) {
  app.add_option("--machine,-m", c.request.machine, "machine name or path")->capture_default_str();
  app.add_option("--algo", c.algorithm, "update algorithm, an Apex-Map implementation or a global-exchange probe")
      ->check(CLI::IsMember([] {
        std::vector<std::string> names;
        for (const auto& variant : gups::program_variants()) names.emplace_back(variant.name);
        return names;
      }()))
      ->capture_default_str();
  app.add_option("--shape", c.request.shape, "torus shape such as 8x8x8 (1 to 6 dimensions)")
      ->check(gups::cli::kNotEmpty);
  app.add_option("--nodes,-n", c.request.nodes, "node count, mapped by the machine's shape rule")
      ->check(CLI::Range(std::uint64_t{1}, gups::kMaxNodes));
  app.add_option("--shape-rule", c.shape_rule,
                 "with --nodes: machine (its listed partitions, torus.partitions, else the balanced shape) or "
                 "balanced (the most balanced shape always)")
      ->check(CLI::IsMember({"machine", "balanced"}))
      ->capture_default_str();
  app.add_option("--cores-per-node", c.request.cores_per_node,
                 gups::scope_help("--role-plan") + "cores per node (0: the machine's); direct: processes per node; "
                     "routed: 1")
      ->check(CLI::Range(0u, 1024u));
  app.add_option("--processes-per-node", c.request.processes_per_node,
                 "HPCC's mode 1: processes a node, each with its own look-ahead; routed and multicore (groups of "
                 "whole cores, each its own role plan) route over a torus of processes, the node's processes one "
                 "more dimension (default: 1; direct, hypercube: --cores-per-node's)")
      ->check(CLI::Range(1u, 1024u));
  app.add_option("--role-plan", c.request.role_plan,
                 gups::scope_help("--role-plan") +
                     "paper, best (the planner's) or a plan such as 2xX/YZ+3 (default: the machine's)");
  app.add_option("--log2-table", c.log2_table, "table of 2^N words (default: --words-per-node)")
      ->check(CLI::Range(1u, 62u));
  app.add_option("--words-per-node", c.request.words_per_node, "table words per node, at least")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40))
      ->capture_default_str();
  auto* per_node = app.add_option("--updates-per-node", c.updates_per_node, "updates each node generates, about")
                       ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 50));
  app.add_option("--updates-per-word", c.updates_per_word, "updates per table word instead")
      ->check(CLI::Range(1u, 1024u))
      ->excludes(per_node);
  app.add_option("--min-updates-per-node", c.request.min_updates_per_node,
                 "with the default run length: at least this many updates per node")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--lookahead", c.request.lookahead, "updates in flight per node or process")
      ->check(CLI::Range(std::uint64_t{1}, gups::kMaxLookahead))
      ->capture_default_str();
  app.add_option("--owner", c.owner, "division or predict")
      ->check(CLI::IsMember({"division", "predict"}))
      ->capture_default_str();
  app.add_option("--verify", c.request.verify,
                 "auto (full up to 1,024 ranks, checksum above), full, checksum or none")
      ->check(CLI::IsMember({"auto", "full", "checksum", "none"}))
      ->capture_default_str();
  app.add_flag("--paper-buckets", c.paper_buckets, "the machine file's reference bucket sizes");
  app.add_option("--inputs", c.request.inputs,
                 "the machine's inputs: file (its values), or the input set of the model's low or high end of the "
                 "interval at this size (each ranged input at the end that lowers or raises the bound)")
      ->check(CLI::IsMember({"file", "low", "high"}))
      ->capture_default_str();
  app.add_option("--bandwidth-scale", c.options.bandwidth_scale, "multiply the link bandwidth (a faster network)")
      ->check(gups::cli::kFinitePositive);
  app.add_flag("--zero-latency", c.options.zero_latency, "links without latency");
  app.add_option("--wrap", c.wrap,
                 "torus: every line wraps around; mesh: no line does; machine: a mesh below the machine's "
                 "torus.mesh_below_nodes, a torus from there; or one letter per dimension, t where it wraps and m "
                 "where not, such as ttm (update algorithms, at the levels that route messages themselves)")
      ->capture_default_str();
  std::string level_help = "network level of the platform:";
  for (const auto& each : gups::NetworkLevel::all()) level_help += std::string(" ") + each.name() + " (" + each.help() + ");";
  app.add_option("--network", c.level,
                 level_help + " auto (flow up to " + std::to_string(gups::topology::kFlowMaxNodes) + " nodes, queue above)")
      ->check(CLI::IsMember([] {
        auto names = gups::network_level_names();
        names.push_back("auto");
        return names;
      }()))
      ->capture_default_str();
}

// The lists a launcher asks for, the probes' memory, and the files to write.
void declare_output_options(CLI::App& app, CommandLine& c) {
  app.add_flag("--network-levels", c.list_levels,
               "print the network levels (name, help, whether SimGrid's own links carry them) as one line of JSON, "
               "and stop");
  app.add_flag("--variants", c.list_variants,
               "print what --algo takes (kernel/core/variants.def: name, family, help, what each needs) as one line "
               "of JSON, and stop");
  app.add_flag("--catalogue", c.list_both,
               "print both lists as one line of JSON ({\"network_levels\": ..., \"variants\": ...}), and stop: what "
               "a launcher asks once");
  app.add_option("--nodes-per-host", c.nodes_per_host, gups::model::kNodesPerHostHelp)
      ->check(CLI::IsMember({"fill"}) | CLI::Range(1u, 1024u))
      ->capture_default_str();
  app.add_option("--memory-words", c.probe.memory_words,
                 "Apex-Map: M, the global array in words (default: " +
                     std::to_string(gups::topology::kSimulatedShareWords) + " per process)")
      ->check(CLI::PositiveNumber);
  app.add_option("--block-words", c.probe.block_words, "Apex-Map: L, for the receive buffers' memory")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--receive-buffers", c.probe.receive_buffers, "Apex-Map: B, for the receive buffers' memory")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--sizes", c.sizes, "global-exchange probes: message sizes in bytes (gups --sizes), for the buffers' memory");
  app.add_option("--platform", c.platform_path, "write the SimGrid platform XML here")->check(gups::cli::kOutputFile);
  app.add_option("--hostfile", c.hostfile_path, "write the hostfile here")->check(gups::cli::kOutputFile);
  app.add_option("--charges", c.charges_path, "write the per-core charges (gups-smpi --charges) here")
      ->check(gups::cli::kOutputFile);
  app.add_option("--json", c.json_path, "also write the plan (the line printed) as JSON to this file")
      ->check(gups::cli::kOutputFile);
}

// The lists asked for, printed; false when none was asked for.
bool print_lists(const CommandLine& c) {
  if (c.list_levels) {
    std::cout << gups::network_levels_json() << "\n";
    return true;
  }
  if (c.list_variants) {
    std::cout << variants_json().dump() << "\n";
    return true;
  }
  if (c.list_both) {
    const nlohmann::ordered_json both{{"network_levels", nlohmann::ordered_json::parse(gups::network_levels_json())},
                                      {"variants", variants_json()},
                                      {"default_updates_per_node", gups::topology::default_updates_per_node_help()},
                                      {"option_scopes", option_scopes_json()},
                                      {"renamed_options", renamed_options_json()},
                                      {"program_options", gups::topology::program_options_json()},
                                      {"mechanisms", mechanisms_json()}};
    std::cout << both.dump() << "\n";
    return true;
  }
  return false;
}

// The plan as JSON on stdout, and the files asked for; the exit status.
int plan_and_write(CommandLine& c) {
  // The plan as JSON on stdout, and the files asked for.
  auto emit = [&](const auto& plan, const nlohmann::json& charges) {
    c.options.ranks_per_node = plan.ranks_per_node;
    c.options.mesh = plan.mesh;
    if constexpr (requires { plan.wraps; }) c.options.wraps = plan.wraps;
    c.options.level = plan.network_level;
    if (!c.platform_path.empty()) write_file(c.platform_path, gups::topology::platform_xml(plan.machine, plan.shape, c.options));
    if (!c.hostfile_path.empty()) write_file(c.hostfile_path, gups::topology::hostfile(plan.shape, plan.ranks_per_node));
    if (!c.charges_path.empty()) write_file(c.charges_path, charges.dump(2));
    const auto line = gups::topology::to_json(plan).dump();
    if (!c.json_path.empty()) write_file(c.json_path, line + "\n");
    std::cout << line << "\n";
    return 0;
  };
  try {
    if (gups::apex_map::is_implementation(c.algorithm)) {
      c.probe.machine = c.request.machine;
      c.probe.algorithm = c.algorithm;
      c.probe.shape = c.request.shape;
      c.probe.nodes = c.request.nodes;
      c.probe.balanced_shapes = c.shape_rule == "balanced";
      c.probe.ranks_per_node = c.request.cores_per_node ? c.request.cores_per_node : 1;
      if (c.level != "auto") c.probe.network_level = gups::network_level_named(c.level);
      if (c.wrap != "torus" && c.wrap != "mesh") throw std::invalid_argument("--wrap " + c.wrap + " applies to the update algorithms");
      c.probe.mesh = c.wrap == "mesh";
      const auto plan = gups::topology::plan_probe_run(c.probe);
      return emit(plan, gups::access_charges_document(plan.machine.name, plan.charges));
    }
    if (gups::exchange::is_probe(c.algorithm)) {
      gups::topology::ExchangeRequest exchange;
      exchange.machine = c.request.machine;
      exchange.probe = c.algorithm;
      exchange.shape = c.request.shape;
      exchange.nodes = c.request.nodes;
      exchange.balanced_shapes = c.shape_rule == "balanced";
      exchange.ranks_per_node = c.request.cores_per_node ? c.request.cores_per_node : 1;
      if (!c.sizes.empty()) exchange.sizes = gups::exchange::parse_sizes(c.sizes);
      if (c.level != "auto") exchange.network_level = gups::network_level_named(c.level);
      if (c.wrap != "torus" && c.wrap != "mesh") throw std::invalid_argument("--wrap " + c.wrap + " applies to the update algorithms");
      exchange.mesh = c.wrap == "mesh";
      // Network alone: the probes charge no CPU cost, so their charges are empty.
      return emit(gups::topology::plan_exchange_run(exchange), nlohmann::json::object());
    }
    if (!c.sizes.empty()) throw std::invalid_argument("--sizes applies to the global-exchange probes");
    using gups::topology::Wrap;
    c.request.algorithm = *gups::algorithm_named(c.algorithm);
    c.request.owner = c.owner == "predict" ? gups::OwnerMode::predict : gups::OwnerMode::division;
    c.request.wrap = c.wrap == "mesh" ? Wrap::mesh : c.wrap == "machine" ? Wrap::machine : Wrap::torus;
    if (c.wrap != "torus" && c.wrap != "mesh" && c.wrap != "machine") c.request.wrap_pattern = c.wrap;
    c.request.paper_buckets = c.paper_buckets;
    c.request.balanced_shapes = c.shape_rule == "balanced";
    if (c.level != "auto") c.request.network_level = gups::network_level_named(c.level);
    c.request.nodes_per_host = gups::model::nodes_per_host_named(c.nodes_per_host);
    if (c.log2_table) c.request.log2_table = c.log2_table;
    if (c.updates_per_word) c.request.updates_per_word = c.updates_per_word;
    if (c.updates_per_node) c.request.updates_per_node = c.updates_per_node;
    const auto plan = gups::topology::plan_run(c.request);
    return emit(plan, gups::charges_document(plan.machine.name, plan.charges));
  } catch (const std::invalid_argument& e) {
    std::cerr << "gups-topology: error: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CommandLine c;
  CLI::App app{"gups-topology: the plan of a run on a machine's torus as JSON; with --platform, --hostfile and "
               "--charges, the SimGrid platform, hostfile and per-core charges of the simulation"};
  declare_run_options(app, c);
  declare_output_options(app, c);
  if (const auto status = gups::cli::parse_or_exit(app, argc, argv, "gups-topology")) return *status;
  if (print_lists(c)) return 0;
  return plan_and_write(c);
}
