// gups-model: the analytic bounds for a machine file, algorithms and sizes.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <map>
#include <iostream>

#include "kernel/core/cli_checks.hpp"
#include "kernel/core/option_scopes.hpp"
#include "kernel/core/run_config.hpp"
#include "models/src/bounds.hpp"
#include "models/src/host_placement.hpp"
#include "models/src/machine.hpp"
#include "models/src/machine_schema.hpp"
#include "models/src/model_explain.hpp"
#include "models/src/model_intervals.hpp"
#include "models/src/model_report.hpp"
#include "models/src/mode_planner.hpp"
#include "kernel/core/mapping_mode.hpp"

namespace {

using namespace gups::model;
using gups::OwnerMode;
using gups::to_string;

struct Request {
  std::string machine = "bgp";
  std::vector<std::string> algorithms{"multicore"};
  std::vector<std::uint64_t> nodes;
  std::vector<std::string> shapes;
  std::string sweep;
  std::string json_path;
  std::string buckets = "sizing";
  std::string owner = "division";
  std::string nodes_per_host = "1";
  std::string shape_rule = "machine";
  bool explain = false;
  bool all_cores = false;
  bool schema = false;
  unsigned samples = 400;
  std::vector<std::string> measured;  // NODES:GUPS
  std::string bisection_path;
  std::string mapping_mode;  // empty: the machine file's
  bool algorithms_given = false;
  ModelOptions options;
};

std::vector<std::uint64_t> sweep_counts(const std::string& text) {
  const auto colon = text.find(':');
  std::uint64_t from = 0, to = 0;
  try {
    if (colon == std::string::npos) throw std::invalid_argument(text);
    std::size_t used_from = 0, used_to = 0;
    from = std::stoull(text.substr(0, colon), &used_from);
    to = std::stoull(text.substr(colon + 1), &used_to);
    if (used_from != colon || used_to != text.size() - colon - 1) throw std::invalid_argument(text);
  } catch (const std::exception&) {
    throw std::invalid_argument(fmt::format("--sweep '{}' is not FROM:TO (such as 64:32768)", text));
  }
  if (from == 0 || to < from) throw std::invalid_argument(fmt::format("--sweep '{}' needs 1 <= FROM <= TO", text));
  std::vector<std::uint64_t> counts;
  for (auto n = from; n <= to; n *= 2) counts.push_back(n);
  return counts;
}

std::vector<gups::TorusShape> shapes_of(const Machine& machine, const Request& request) {
  std::vector<gups::TorusShape> shapes;
  for (const auto& text : request.shapes) {
    auto shape = gups::TorusShape::parse(text);
    if (shape.dimensions() != machine.torus.dimensions) {
      throw std::invalid_argument(fmt::format("--shape {} has {} dimensions; machine '{}' has a {}-D torus", text,
                                              shape.dimensions(), machine.name, machine.torus.dimensions));
    }
    shapes.push_back(shape);
  }
  auto counts = request.nodes;
  if (!request.sweep.empty()) {
    const auto swept = sweep_counts(request.sweep);
    counts.insert(counts.end(), swept.begin(), swept.end());
  }
  if (counts.empty() && shapes.empty()) counts = sweep_counts("64:32768");
  for (const auto n : counts) shapes.push_back(machine.shape_for(n));
  return shapes;
}

// --measured NODES:GUPS pairs, each judged against its row's interval.
std::map<std::uint64_t, double> measured_figures(const std::vector<std::string>& pairs) {
  std::map<std::uint64_t, double> figures;
  for (const auto& pair : pairs) {
    const auto colon = pair.find(':');
    try {
      if (colon == std::string::npos) throw std::invalid_argument(pair);
      std::size_t used_nodes = 0, used_gups = 0;
      const auto nodes = std::stoull(pair.substr(0, colon), &used_nodes);
      const auto gups = std::stod(pair.substr(colon + 1), &used_gups);
      if (used_nodes != colon || used_gups != pair.size() - colon - 1 || nodes == 0 || !(gups > 0)) {
        throw std::invalid_argument(pair);
      }
      figures[nodes] = gups;
    } catch (const std::exception&) {
      throw std::invalid_argument(fmt::format("--measured '{}' is not NODES:GUPS (such as 64:0.38)", pair));
    }
  }
  return figures;
}

// The mode an algorithm's series runs: a fixed one asked on the command line
// must suit it; the machine file's applies where it does (its published
// figures' mode), else the algorithm's own. 0: the algorithm's own.
unsigned fixed_mapping_mode(const std::string& mode, gups::Algorithm algorithm, bool asked) {
  if (mode.empty() || mode == "best") return 0;
  const auto number = static_cast<unsigned>(std::stoul(mode));
  try {
    gups::check_mapping_mode(number, algorithm);
  } catch (const std::invalid_argument& error) {
    if (asked) throw std::invalid_argument(fmt::format("--mapping-mode {}: {}", mode, error.what()));
    return 0;
  }
  return number;
}

int run(const Request& request) {
  auto machine = load_machine(request.machine, default_machine_directories());
  if (request.schema) {
    std::cout << schema_document(machine).dump(2) << "\n";
    return 0;
  }
  machine.balanced_shapes = request.shape_rule == "balanced";
  auto options = request.options;
  options.buckets = request.buckets == "reference" ? BucketRule::reference : BucketRule::sizing;
  options.owner = request.owner == to_string(OwnerMode::predict) ? OwnerMode::predict : OwnerMode::division;
  options.nodes_per_host = nodes_per_host_named(request.nodes_per_host);
  // One cache for the whole run: the modes compared, the rows and their intervals ask for the same routes and
  // message sizes (a 48-core node's direct fill at 158,976 nodes replays millions of buckets).
  options.routes_cache = std::make_shared<RoutesCache>();
  auto sized = request;
  if (!request.bisection_path.empty()) {
    const auto measured = read_measured_bisection(request.bisection_path);
    if (!machine.topology->is_virtual_torus) {
      throw std::invalid_argument(fmt::format("--bisection: machine '{}' is no torus; its network bound rests on its "
                                              "routes, not on 4B/b", machine.name));
    }
    if (measured.machine && *measured.machine != machine.name && *measured.machine != request.machine) {
      throw std::invalid_argument(fmt::format("--bisection {}: it was measured on machine '{}', not '{}'",
                                              measured.source, *measured.machine, machine.name));
    }
    // Without sizes, the probe's own.
    if (sized.nodes.empty() && sized.shapes.empty() && sized.sweep.empty()) {
      if (measured.shape) {
        sized.shapes.push_back(*measured.shape);
      } else {
        sized.nodes.push_back(measured.nodes);
      }
    }
    options.measured_bisection = measured;
  }
  const auto shapes = shapes_of(machine, sized);
  if (options.measured_bisection &&
      std::none_of(shapes.begin(), shapes.end(),
                   [&](const auto& shape) { return shape.nodes() == options.measured_bisection->nodes; })) {
    throw std::invalid_argument(fmt::format("--bisection {}: it measured {} nodes, and no size asked has as many",
                                            options.measured_bisection->source, options.measured_bisection->nodes));
  }
  // Opened before the intervals are worked out, so that a path that cannot be written is refused at once.
  std::ofstream out;
  if (!request.json_path.empty()) {
    out.open(request.json_path);
    if (!out) throw std::invalid_argument(fmt::format("cannot write --json {}", request.json_path));
  }
  const auto measured = measured_figures(request.measured);
  for (const auto& [nodes, gups] : measured) {
    if (std::none_of(shapes.begin(), shapes.end(), [nodes = nodes](const auto& s) { return s.nodes() == nodes; })) {
      throw std::invalid_argument(fmt::format("--measured {}:{}: no size asked has {} nodes", nodes, gups, nodes));
    }
  }
  nlohmann::json results = nlohmann::json::array();
  std::string text;
  const auto mode = request.mapping_mode.empty() ? machine.mapping_mode : request.mapping_mode;
  nlohmann::ordered_json modes_json;
  if (mode == "best") {
    std::vector<ModeChoice> choices;
    for (const auto& shape : shapes) {
      choices.push_back(choose_mapping_mode(machine, shape, options));
      interval_of_choice(machine, shape, choices.back(), request.samples);
    }
    text += format_mode_choices(choices) + chosen_intervals(choices) +
            (request.explain ? explain_mode_choices(choices) : "") +
            fmt::format("Below, {} as --algorithm and --processes-per-node ask ({} a node), whichever placement was "
                        "chosen above.\n\n",
                        fmt::join(request.algorithms, ", "), options.processes_per_node);
    modes_json = mode_choices_to_json(choices);
  }
  for (const auto& algorithm : request.algorithms) {
    ModelSeries series;
    series.all_cores = request.all_cores;
    series.options = options;
    series.options.algorithm = *gups::algorithm_named(algorithm);
    series.options.mapping_mode = fixed_mapping_mode(mode, series.options.algorithm, !request.mapping_mode.empty());
    for (const auto& shape : shapes) series.rows.push_back(predict(machine, shape, series.options));
    series.crossover = crossover_nodes(machine, series.options);
    std::vector<PredictionInterval> intervals;
    for (const auto& row : series.rows) {
      intervals.push_back(prediction_interval(machine, row.shape, series.options, request.samples));
    }
    text += format_series(machine, series) + format_intervals(series.rows, intervals) + "\n";
    for (std::size_t i = 0; request.explain && i < series.rows.size(); ++i) {
      text += explain_prediction(machine, series.rows[i], series.options) + explain_interval(series.rows[i], intervals[i]) + "\n";
    }
    auto json_series = series_to_json(machine, series);
    for (std::size_t i = 0; i < intervals.size(); ++i) {
      json_series["rows"][i]["interval"] = interval_to_json(intervals[i]);
      const auto figure = measured.find(series.rows[i].nodes);
      if (figure == measured.end()) continue;
      const auto verdict = judge_measured(machine, series.rows[i].shape, series.options, intervals[i], figure->second);
      text += format_verdict(series.rows[i], intervals[i], verdict);
      json_series["rows"][i]["measured"] = verdict_to_json(verdict);
    }
    results.push_back(json_series);
  }
  text = inputs_summary(machine) + "\n" + text;
  if (!request.json_path.empty()) {
    auto summary = machine_summary(machine);
    summary["inputs"] = ranges_to_json(machine);
    nlohmann::json document{{"schema", kModelSchema}, {"machine", summary}, {"results", results}};
    if (!modes_json.is_null()) document["mapping_modes"] = nlohmann::json::parse(modes_json.dump());
    out << document.dump(2)
        << "\n";
    if (!out) throw std::invalid_argument(fmt::format("cannot write --json {}", request.json_path));
  }
  std::cout << text;
  return 0;
}

// What is modelled: the machine, the algorithms, the sizes, the plan.
void declare_case_options(CLI::App& app, Request& request) {
  app.add_option("--machine,-m", request.machine, "machine name (models/machines/NAME.json) or path")
      ->capture_default_str();
  app.add_option("--algorithm,--algo,-a", request.algorithms, fmt::format("{} (comma list)", fmt::join(gups::algorithm_names(), ", ")))
      ->delimiter(',')
      ->check(CLI::IsMember(gups::algorithm_names()))
      ->capture_default_str();
  app.add_option("--nodes,-n", request.nodes, "node counts (comma list), mapped to shapes by the machine's rule")
      ->delimiter(',')
      ->check(CLI::Range(std::uint64_t{1}, gups::kMaxNodes));
  app.add_option("--shape", request.shapes, "torus shapes such as 8x8x8 (comma list)")
      ->delimiter(',')
      ->check(gups::cli::kNotEmpty);
  app.add_option("--shape-rule", request.shape_rule,
                 "node counts to shapes: machine (its listed partitions, torus.partitions, else the balanced "
                 "shape) or balanced (the most balanced shape always)")
      ->check(CLI::IsMember({"machine", "balanced"}))
      ->capture_default_str();
  app.add_option("--sweep", request.sweep, "node counts FROM:TO, doubling (default 64:32768 if no sizes given)")
      ->check(gups::cli::kNotEmpty);
  app.add_option("--lookahead", request.options.lookahead, "updates in flight per node")
      ->check(CLI::Range(std::uint64_t{1}, gups::kMaxLookahead))
      ->capture_default_str();
  app.add_option("--cores-per-node", request.options.cores_per_node, gups::scope_help("--role-plan") + "cores per node (default: machine's)")
      ->check(CLI::Range(1u, 256u));
  app.add_option("--role-plan", request.options.role_plan,
                 gups::scope_help("--role-plan") + "what each core does: paper (min(d, k-1) routing cores, the rest updating), best "
                 "(the planner's: pipelines, routers and updaters balanced by their costs), or a plan such as "
                 "2xX/YZ+3 (default: the machine file's role_plan, else paper, as gups runs)");
  app.add_option("--processes-per-node", request.options.processes_per_node,
                 "direct, hypercube, routed: processes per node (4 on Blue Gene/P is virtual-node mode); multicore: groups "
                 "of whole cores a node, each its own node")
      ->check(CLI::Range(1u, 256u))
      ->capture_default_str();
  app.add_option("--mapping-mode", request.mapping_mode,
                 "best (the mode planner's table: modes 1, 6 and 8, each with its best placement) or a mode of the "
                 "paper's Table 1 for the algorithms' series (default: the machine file's mapping_mode)")
      ->check(CLI::IsMember({"best", "1", "5", "6", "7", "8"}));
}

// How it is modelled and reported.
void declare_report_options(CLI::App& app, Request& request) {
  app.add_option("--buckets", request.buckets,
                 "bucket sizes: sizing (floor(look-ahead / buckets), what gups uses) or reference (the "
                 "machine file's published sizes where listed)")
      ->check(CLI::IsMember({"sizing", "reference"}))
      ->capture_default_str();
  app.add_option("--owner", request.owner,
                 "how owners are found when the node count is not a power of two: division (HPCC) or predict "
                 "(the paper's 4.2); charged at the machine's costs_cycles.owner_division or owner_prediction")
      ->check(CLI::IsMember({to_string(OwnerMode::division), to_string(OwnerMode::predict)}))
      ->capture_default_str();
  app.add_option("--nodes-per-host", request.nodes_per_host, kNodesPerHostHelp)
      ->check(CLI::IsMember({"fill"}) | CLI::Range(1u, 1024u))
      ->capture_default_str();
  app.add_option("--json", request.json_path, "also write the figures as JSON to this file")
      ->check(gups::cli::kOutputFile);
  app.add_option("--bisection", request.bisection_path,
                 "a bisection probe's JSON (gups or gups-sim --algo bisection --json): at its node count the "
                 "network bound 4B/b takes its measured B (without sizes: its own shape or node count)");
  app.add_flag("--all-cores", request.all_cores,
               "a column for every core's cycles per update (by default, past 6 cores, the three busiest and a count)");
  app.add_flag("--explain", request.explain,
               "after each table, how each prediction came about: the role plan, the virtual torus on the physical "
               "network, each core's load, the network bound's derivation");
  app.add_option("--samples", request.samples,
                 "draws for each prediction's 90% central interval (0: only the exact interval over the ranges)")
      ->check(CLI::Range(0u, 1000000u))
      ->capture_default_str();
  app.add_option("--measured", request.measured,
                 "measured figures NODES:GUPS (comma list), each judged against its size's interval: inside, or "
                 "outside with the value each leading input alone would need")
      ->delimiter(',');
  app.add_flag("--schema", request.schema,
               "print the machine file's inputs (field, unit, meaning, default, whether it carries a range) as JSON "
               "and stop");
}

}  // namespace

int main(int argc, char** argv) {
  Request request;
  CLI::App app{
      "gups-model: the CPU bounds (Eq. 1, Eq. 6/7) and the network bound 4B/b of RandomAccess on a "
      "machine file's torus"};
  declare_case_options(app, request);
  declare_report_options(app, request);
  if (const auto status = gups::cli::parse_or_exit(app, argc, argv, "gups-model")) return *status;
  try {
    return run(request);
  } catch (const std::invalid_argument& e) {
    std::cerr << "gups-model: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "gups-model: internal error: " << e.what() << "\n";
    return 3;
  }
}
