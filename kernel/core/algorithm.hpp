// The update algorithms and what each one asks of a run: the rows of
// variants.def that are GUPS_UPDATE_ALGORITHM, read by the command lines,
// the set-up, the models, the simulation's charges and the run plan.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gups {

enum class Algorithm {
#define GUPS_UPDATE_ALGORITHM(id, name, help, routes_over_torus, specialised_cores, in_stages, run) id,
#include "kernel/core/variants.def"
};

struct AlgorithmTraits {
  Algorithm algorithm;
  std::string_view name;
  std::string_view summary;
  bool routes_over_torus;  // variants.def says what each means
  bool specialised_cores;
  bool in_stages;
};

// What the model, the mapping modes and the simulation's charges know of an
// algorithm: one of three structures, told by its traits (not its name), so
// that a new algorithm with the traits of one of them takes its model until
// it is given one of its own (a value here, which the compiler then asks
// every switch over it to handle).
enum class AlgorithmModel {
  direct,     // straight to the owner: no routing, every rank generates and updates
  routed,     // one rank per node routes every dimension (Eq. 1)
  multicore,  // the node's cores specialised by a role plan (Eq. 6/7)
  hypercube,  // every process in the same synchronous stages, halving the set each time
};
AlgorithmModel model_of(Algorithm algorithm);
std::string_view to_string(AlgorithmModel model);  // the name of the algorithm it was made for

// Every algorithm, in the order they are listed to users.
const std::vector<AlgorithmTraits>& algorithm_table();
const AlgorithmTraits& traits(Algorithm algorithm);
std::string_view to_string(Algorithm algorithm);
std::optional<Algorithm> algorithm_named(std::string_view name);
std::vector<std::string> algorithm_names();

// The traits an option or a mechanism can ask of an algorithm (variants.def).
enum class AlgorithmTrait { routes_over_torus, specialised_cores, in_stages };
bool has(const AlgorithmTraits& row, AlgorithmTrait trait) noexcept;
std::string_view to_string(AlgorithmTrait trait);
// The algorithms with the trait, as help and errors name them: "routed and
// multicore" (last_separator " and "), "routed, multicore" (", ").
std::string algorithms_with(AlgorithmTrait trait, std::string_view last_separator = " and ");

}  // namespace gups
