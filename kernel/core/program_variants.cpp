#include "kernel/core/program_variants.hpp"

#include <algorithm>

namespace gups {

const std::vector<ProgramVariant>& program_variants() {
  static const std::vector<ProgramVariant> table{
#define GUPS_UPDATE_ALGORITHM(id, name, help, routes_over_torus, specialised_cores, in_stages, run) \
  {VariantFamily::update_algorithm, name, help, routes_over_torus, specialised_cores, in_stages, 0},
#define GUPS_APEX_MAP(id, name, help, make) {VariantFamily::apex_map, name, help, false, false, false, 0},
#define GUPS_EXCHANGE_PROBE(id, name, help, receive_buffers, run) \
  {VariantFamily::exchange_probe, name, help, false, false, false, receive_buffers},
#include "kernel/core/variants.def"
  };
  return table;
}

const ProgramVariant* variant_named(std::string_view name) {
  const auto& table = program_variants();
  const auto found = std::find_if(table.begin(), table.end(), [&](const auto& row) { return row.name == name; });
  return found == table.end() ? nullptr : &*found;
}

bool is_variant_of(std::string_view name, VariantFamily family) {
  const auto* variant = variant_named(name);
  return variant && variant->family == family;
}

std::vector<std::string> variant_names(VariantFamily family) {
  std::vector<std::string> names;
  for (const auto& row : program_variants()) {
    if (row.family == family) names.emplace_back(row.name);
  }
  return names;
}

std::string_view family_label(VariantFamily family) {
  switch (family) {
    case VariantFamily::update_algorithm:
      return "update algorithm";
    case VariantFamily::apex_map:
      return "Apex-Map implementation";
    case VariantFamily::exchange_probe:
      return "global-exchange probe";
  }
  return "";
}

std::string_view algo_argument(int argc, const char* const* argv) {
  std::string_view value;
  for (int i = 1; i < argc; ++i) {
    const std::string_view word(argv[i]);
    if (word == "--algo" && i + 1 < argc) value = argv[i + 1];
    if (word.starts_with("--algo=")) value = word.substr(7);
  }
  return value;
}

}  // namespace gups
