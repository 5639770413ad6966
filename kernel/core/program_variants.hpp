// The one table of what gups runs (--algo NAME): every update algorithm,
// Apex-Map implementation and global-exchange probe, read from variants.def.
// MPI-free, so the command lines, the model, the plan and (through
// gups-topology --variants) the analysis ask it; each family's runner reads
// the same rows for its functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gups {

enum class VariantFamily { update_algorithm, apex_map, exchange_probe };

struct ProgramVariant {
  VariantFamily family;
  std::string_view name;
  std::string_view help;
  bool routes_over_torus = false;   // update algorithms (variants.def says what each field means)
  bool specialised_cores = false;   // update algorithms
  bool in_stages = false;           // update algorithms
  std::size_t receive_buffers = 0;  // exchange probes
};

// Every variant, in variants.def's order (the order they are listed to users).
const std::vector<ProgramVariant>& program_variants();
// The variant of that name, or nullptr.
const ProgramVariant* variant_named(std::string_view name);
bool is_variant_of(std::string_view name, VariantFamily family);
std::vector<std::string> variant_names(VariantFamily family);
// "update algorithm", "Apex-Map implementation", "global-exchange probe".
std::string_view family_label(VariantFamily family);
// The value of --algo (--algo NAME or --algo=NAME) on a command line, or empty.
std::string_view algo_argument(int argc, const char* const* argv);

}  // namespace gups
