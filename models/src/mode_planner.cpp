#include "models/src/mode_planner.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "kernel/core/mapping_mode.hpp"

namespace gups::model {
namespace {

std::string what_binds(const Prediction& p) { return p.network_binds ? "network" : p.node_binds; }

ModeOption option_of(unsigned mode, const ModelOptions& options, const Prediction& p) {
  ModeOption option{mode, options, "", true, "", p.gups, what_binds(p)};
  if (p.role_plan) {
    option.placement = "role plan " + p.role_plan->to_string();
  } else {
    option.placement = fmt::format("{} process(es) a node", options.processes_per_node);
  }
  return option;
}

}  // namespace

const std::vector<unsigned>& permitted_mapping_modes() {
  static const std::vector<unsigned> modes{1, 6, 8};
  return modes;
}

ModeOption best_of_mode(const Machine& machine, const TorusShape& shape, const ModelOptions& options, unsigned mode) {
  ModeOption best{mode, options, "", false, "", 0, ""};
  auto consider = [&](const ModelOptions& tried) {
    try {
      const auto p = predict(machine, shape, tried);
      if (!best.fits || p.gups > best.gups * (1 + 1e-9)) best = option_of(mode, tried, p);
    } catch (const std::invalid_argument& error) {
      if (!best.fits) best.why_not = error.what();
    }
  };
  ModelOptions tried = options;
  tried.mapping_mode = mode;
  if (mapping_mode(mode).generation_per_node) {
    tried.algorithm = Algorithm::multicore;
    if (tried.role_plan.empty() || tried.role_plan == "paper") tried.role_plan = "best";
    consider(tried);
    return best;
  }
  // One process on a thread of every core, then two, up to every thread.
  tried.algorithm = Algorithm::direct;
  const unsigned cores = options.cores_per_node ? options.cores_per_node : machine.cores_per_node;
  for (unsigned threads = 1; threads <= machine.node.threads_per_core; ++threads) {
    tried.processes_per_node = cores * threads;
    consider(tried);
  }
  return best;
}

ModeChoice choose_mapping_mode(const Machine& machine, const TorusShape& shape, const ModelOptions& options) {
  ModeChoice choice;
  choice.nodes = shape.nodes();
  for (const auto mode : permitted_mapping_modes()) {
    choice.modes.push_back(best_of_mode(machine, shape, options, mode));
    const auto& option = choice.modes.back();
    if (option.fits && (!choice.chosen.fits || option.gups > choice.chosen.gups * (1 + 1e-9))) choice.chosen = option;
  }
  if (!choice.chosen.fits) {
    throw std::invalid_argument(fmt::format("no mapping mode HPCC permits fits a {} torus under a look-ahead of {}",
                                            shape.to_string(), options.lookahead));
  }
  return choice;
}

}  // namespace gups::model

namespace gups::model {

std::string format_mode_choices(const std::vector<ModeChoice>& choices) {
  std::string text = "Mapping modes HPCC permits (the paper's Table 1), each with its best placement; * the chosen\n";
  text += fmt::format("{:>8}  {:>4}  {:<40}  {:>10}  {}\n", "nodes", "mode", "placement", "GUPS", "binds");
  for (const auto& choice : choices) {
    for (const auto& option : choice.modes) {
      const bool chosen = option.mode == choice.chosen.mode;
      const auto nodes = fmt::format("{}", choice.nodes);
      if (!option.fits) {
        text += fmt::format("{:>8}  {:>4}  {}\n", nodes, option.mode, "does not fit: " + option.why_not);
        continue;
      }
      text += fmt::format("{:>8}  {:>3}{}  {:<40}  {:>10.4g}  {}\n", nodes, option.mode, chosen ? "*" : " ",
                          option.placement, option.gups, option.binds);
    }
  }
  return text;
}

nlohmann::ordered_json mode_choices_to_json(const std::vector<ModeChoice>& choices) {
  auto rows = nlohmann::ordered_json::array();
  for (const auto& choice : choices) {
    auto modes = nlohmann::ordered_json::array();
    for (const auto& option : choice.modes) {
      nlohmann::ordered_json row{{"mode", option.mode}, {"fits", option.fits}};
      if (option.fits) {
        row["algorithm"] = std::string(to_string(option.options.algorithm));
        row["placement"] = option.placement;
        row["gups"] = option.gups;
        row["binds"] = option.binds;
      } else {
        row["why_not"] = option.why_not;
      }
      modes.push_back(row);
    }
    rows.push_back({{"nodes", choice.nodes}, {"chosen", choice.chosen.mode}, {"modes", modes}});
  }
  return rows;
}

}  // namespace gups::model
