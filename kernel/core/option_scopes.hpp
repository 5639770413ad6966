// Which options apply only to the algorithms with a trait of variants.def,
// declared once: gups refuses such an option given to another algorithm,
// gups-topology --catalogue exports the rows, and gups-sim refuses its own
// options that become them, in the same words.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kernel/core/algorithm.hpp"

namespace gups {

struct OptionScope {
  std::string_view option;  // as gups spells it
  AlgorithmTrait needs;
  std::string_view why;  // what an algorithm without the trait lacks; may be empty
};

const std::vector<OptionScope>& option_scopes();
// Throws std::out_of_range for an option with no row.
const OptionScope& option_scope(std::string_view option);
// "{option} applies to routed and multicore (why)": the refusal, with
// {option} where the program puts the option as its user gave it.
std::string refusal_template(const OptionScope& scope);
std::string refusal(std::string_view option, std::string_view as_given = {});
// "routed, multicore: " before an option's help.
std::string scope_help(std::string_view option);

}  // namespace gups
