#include "sim/plan/program_options.hpp"

#include "kernel/apex_map/run.hpp"
#include "kernel/core/algorithm.hpp"
#include "kernel/core/cli_checks.hpp"  // CLI11
#include "kernel/core/program_variants.hpp"
#include "kernel/core/run_config.hpp"
#include "kernel/exchange/run.hpp"

namespace gups::topology {
namespace {

nlohmann::ordered_json options_of(const CLI::App& app) {
  auto rows = nlohmann::ordered_json::array();
  for (const CLI::Option* option : app.get_options()) {
    const std::string name = option->get_name();
    if (name == "--help" || option->get_group().empty()) continue;
    rows.push_back({{"name", name},
                    {"help", option->get_description()},
                    {"default", option->get_default_str()},
                    {"flag", option->get_expected_min() == 0}});
  }
  return rows;
}

}  // namespace

nlohmann::ordered_json program_options_json() {
  CLI::App gups_app;
  RunConfig run;
  GupsOptionText text(run);
  declare_gups_options(gups_app, run, text, algorithm_names(), /*simulated=*/true);

  CLI::App apex_app;
  apex_map::ProbeConfig apex;
  std::uint64_t memory_words = 0;
  apex_map::declare_probe_options(apex_app, apex, memory_words, variant_names(VariantFamily::apex_map));

  CLI::App exchange_app;
  exchange::ProbeConfig exchange;
  std::string sizes;
  exchange::declare_probe_options(exchange_app, exchange, sizes);

  return {{"gups", options_of(gups_app)}, {"apex-map", options_of(apex_app)}, {"exchange", options_of(exchange_app)}};
}

}  // namespace gups::topology
