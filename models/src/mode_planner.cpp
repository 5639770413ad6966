#include "models/src/mode_planner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "kernel/core/mapping_mode.hpp"
#include "models/src/model_intervals.hpp"

namespace gups::model {
namespace {

std::string what_binds(const Prediction& p) { return p.network_binds ? "network" : p.node_binds; }

ModeOption option_of(unsigned mode, const ModelOptions& options, const Prediction& p) {
  ModeOption option;
  option.mode = mode;
  option.processes_per_node = options.processes_per_node;
  option.options = options;
  option.fits = true;
  option.gups = p.gups;
  option.binds = what_binds(p);
  const bool groups = model_of(options.algorithm) == AlgorithmModel::multicore;
  const auto processes = fmt::format("{} {} a node", options.processes_per_node,
                                     groups ? (options.processes_per_node == 1 ? "group" : "groups")
                                            : (options.processes_per_node == 1 ? "process" : "processes"));
  if (p.role_plan) option.role_plan = p.role_plan->to_string();
  option.placement = p.role_plan ? processes + ", role plan " + option.role_plan : processes;
  option.updates_per_message = p.mean_fill;
  option.cycles = p.cpu_cycles_per_update;
  return option;
}

// A placement the model cannot take (a look-ahead too small for its
// buckets, more ranks than threads) does not fit, and says why.
ModeOption weigh(const Machine& machine, const TorusShape& shape, const ModelOptions& tried, unsigned mode) {
  try {
    const auto p = predict(machine, shape, tried);
    auto option = option_of(mode, tried, p);
    option.threads = node_cores(machine, tried);
    const unsigned per_process = p.role_plan ? p.role_plan->cores() : 1;  // a plan's busy ranks (threads)
    option.busy_threads = std::min(option.threads, tried.processes_per_node * per_process);
    return option;
  } catch (const std::invalid_argument& error) {
    ModeOption option;
    option.mode = mode;
    option.processes_per_node = tried.processes_per_node;
    option.options = tried;
    option.why_not = error.what();
    option.placement = fmt::format("{} a node", tried.processes_per_node);
    return option;
  }
}

bool runs_in(Algorithm algorithm, unsigned mode) {
  try {
    check_mapping_mode(mode, algorithm);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

}  // namespace

const std::vector<unsigned>& permitted_mapping_modes() {
  static const std::vector<unsigned> modes{1, 6, 8};
  return modes;
}

std::vector<unsigned> process_counts(const Machine& machine, const ModelOptions& options) {
  const unsigned threads = node_cores(machine, options);
  const unsigned cores = threads / machine.node.threads_per_core;
  std::vector<unsigned> counts;
  for (unsigned n = 1; n <= threads; n *= 2) counts.push_back(n);
  for (const unsigned n : {cores, threads}) {
    if (std::find(counts.begin(), counts.end(), n) == counts.end()) counts.push_back(n);
  }
  std::sort(counts.begin(), counts.end());
  return counts;
}

std::vector<ModeOption> placements_of_mode(const Machine& machine, const TorusShape& shape,
                                           const ModelOptions& options, unsigned mode) {
  std::vector<ModeOption> placements;
  const unsigned cores = node_cores(machine, options) / machine.node.threads_per_core;
  for (const auto& row : algorithm_table()) {
    if (!runs_in(row.algorithm, mode)) continue;
    ModelOptions tried = options;
    tried.algorithm = row.algorithm;
    tried.mapping_mode = mode;
    const bool groups = model_of(row.algorithm) == AlgorithmModel::multicore;
    if (groups && (tried.role_plan.empty() || tried.role_plan == "paper")) tried.role_plan = "best";
    for (const unsigned count : process_counts(machine, options)) {
      if (groups && (count > cores || cores % count != 0)) continue;  // groups of whole cores
      tried.processes_per_node = count;
      placements.push_back(weigh(machine, shape, tried, mode));
    }
  }
  return placements;
}

ModeChoice choose_mapping_mode(const Machine& machine, const TorusShape& shape, const ModelOptions& options) {
  ModeChoice choice;
  choice.nodes = shape.nodes();
  bool found = false;
  for (const auto mode : permitted_mapping_modes()) {
    for (auto& option : placements_of_mode(machine, shape, options, mode)) {
      if (option.fits && (!found || option.gups > choice.chosen().gups * (1 + 1e-9))) {
        choice.chosen_index = choice.modes.size();
        found = true;
      }
      choice.modes.push_back(std::move(option));
    }
  }
  if (!found) {
    throw std::invalid_argument(fmt::format("no placement HPCC permits fits a {} torus under a look-ahead of {}",
                                            shape.to_string(), options.lookahead));
  }
  return choice;
}

}  // namespace gups::model

namespace gups::model {

void interval_of_choice(const Machine& machine, const TorusShape& shape, ModeChoice& choice, unsigned samples) {
  choice.chosen_interval = prediction_interval(machine, shape, choice.chosen().options, samples);
}

namespace {

// "core_overhead 81% (assumed), ..." : the inputs with a tenth of the spread or more, at most three.
std::string leading_inputs(const PredictionInterval& interval) {
  std::string text;
  int named = 0;
  for (const auto& input : interval.inputs) {
    if (input.share < 0.1 || named == 3) continue;
    ++named;
    text += fmt::format("{}{} {:.0f}% ({})", text.empty() ? "" : ", ", input.range.field, 100 * input.share,
                        to_string(input.range.kind));
  }
  return text.empty() ? "none above a tenth" : text;
}

}  // namespace

std::string chosen_intervals(const std::vector<ModeChoice>& choices) {
  std::string text;
  for (const auto& choice : choices) {
    if (!choice.chosen_interval) continue;
    const auto& interval = *choice.chosen_interval;
    text += fmt::format("{:>8} nodes: the chosen, mode {} {} {}: {:.4g} GUPS, {:.4g} .. {:.4g} over the ranges",
                        choice.nodes, choice.chosen().mode, to_string(choice.chosen().options.algorithm),
                        choice.chosen().placement, interval.gups, interval.low.prediction.gups,
                        interval.high.prediction.gups);
    if (interval.samples > 0) {
      text += fmt::format(", {:.4g} .. {:.4g} central", interval.central_low, interval.central_high);
    }
    text += "; leading inputs: " + leading_inputs(interval) + "\n";
  }
  return text;
}

std::string explain_mode_choices(const std::vector<ModeChoice>& choices) {
  std::string text;
  for (const auto& choice : choices) {
    std::vector<const ModeOption*> best;  // of each (mode, algorithm)
    for (const auto& option : choice.modes) {
      if (!option.fits) continue;
      auto same = std::find_if(best.begin(), best.end(), [&](const ModeOption* b) {
        return b->mode == option.mode && b->options.algorithm == option.options.algorithm;
      });
      if (same == best.end()) {
        best.push_back(&option);
      } else if (option.gups > (*same)->gups) {
        *same = &option;
      }
    }
    std::sort(best.begin(), best.end(), [](const ModeOption* a, const ModeOption* b) { return a->gups > b->gups; });
    text += fmt::format("\nWhy {} nodes run mode {} {}, {} (the best of each mode and algorithm, best first):\n",
                        choice.nodes, choice.chosen().mode, to_string(choice.chosen().options.algorithm),
                        choice.chosen().placement);
    for (const auto* option : best) {
      text += fmt::format("  mode {} {:<10} {:<42} {:>10.4g} GUPS, {:<14} {:>8.1f} cycles an update (slowest core or "
                          "thread), {:>6.1f} updates a message, {}/{} threads busy\n",
                          option->mode, to_string(option->options.algorithm), option->placement, option->gups,
                          option->binds + " binds:", option->cycles, option->updates_per_message, option->busy_threads,
                          option->threads);
    }
    if (best.size() > 1) {
      text += fmt::format("  The chosen is {:.1f}% above the next (mode {} {}, {})", 100 * (best[0]->gups / best[1]->gups - 1),
                          best[1]->mode, to_string(best[1]->options.algorithm), best[1]->placement);
      const auto other = std::find_if(best.begin() + 1, best.end(), [&](const ModeOption* b) {
        return b->options.algorithm != best[0]->options.algorithm;
      });
      if (other != best.begin() + 1 && other != best.end()) {
        text += fmt::format(", {:.1f}% above the best of another algorithm (mode {} {}, {})",
                            100 * (best[0]->gups / (*other)->gups - 1), (*other)->mode,
                            to_string((*other)->options.algorithm), (*other)->placement);
      }
      text += ".\n";
    }
  }
  return text;
}

std::string format_mode_choices(const std::vector<ModeChoice>& choices) {
  std::string text =
      "Placements HPCC permits (the paper's Table 1 modes 1, 6, 8; every algorithm a mode runs, every processes a "
      "node); * the chosen\n";
  text += fmt::format("{:>8}  {:>4}  {:<10} {:<44}  {:>10}  {}\n", "nodes", "mode", "algorithm", "placement", "GUPS",
                      "binds");
  for (const auto& choice : choices) {
    for (std::size_t i = 0; i < choice.modes.size(); ++i) {
      const auto& option = choice.modes[i];
      const auto nodes = fmt::format("{}", choice.nodes);
      const auto algorithm = std::string(to_string(option.options.algorithm));
      if (!option.fits) {
        text += fmt::format("{:>8}  {:>4}  {:<10} {:<44}  {:>10}  does not fit: {}\n", nodes, option.mode, algorithm,
                            option.placement, "-", option.why_not);
        continue;
      }
      text += fmt::format("{:>8}  {:>3}{}  {:<10} {:<44}  {:>10.4g}  {}\n", nodes, option.mode, i == choice.chosen_index ? "*" : " ",
                          algorithm, option.placement, option.gups, option.binds);
    }
  }
  return text;
}

nlohmann::ordered_json mode_choices_to_json(const std::vector<ModeChoice>& choices) {
  auto rows = nlohmann::ordered_json::array();
  for (const auto& choice : choices) {
    auto modes = nlohmann::ordered_json::array();
    for (const auto& option : choice.modes) {
      nlohmann::ordered_json row{{"mode", option.mode},
                                 {"algorithm", std::string(to_string(option.options.algorithm))},
                                 {"processes_per_node", option.processes_per_node},
                                 {"fits", option.fits}};
      if (option.fits) {
        row["placement"] = option.placement;
        if (!option.role_plan.empty()) row["role_plan"] = option.role_plan;
        row["gups"] = option.gups;
        row["binds"] = option.binds;
      } else {
        row["why_not"] = option.why_not;
      }
      modes.push_back(row);
    }
    nlohmann::ordered_json interval;
    if (choice.chosen_interval) interval = nlohmann::ordered_json::parse(interval_to_json(*choice.chosen_interval).dump());
    rows.push_back({{"nodes", choice.nodes},
                    {"chosen_interval", interval},
                    {"chosen", choice.chosen().mode},
                    {"chosen_algorithm", std::string(to_string(choice.chosen().options.algorithm))},
                    {"chosen_processes_per_node", choice.chosen().processes_per_node},
                    {"chosen_role_plan", choice.chosen().role_plan.empty() ? nlohmann::ordered_json()
                                                                            : nlohmann::ordered_json(choice.chosen().role_plan)},
                    {"chosen_index", choice.chosen_index},
                    {"modes", modes}});
  }
  return rows;
}

}  // namespace gups::model
