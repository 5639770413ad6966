// The one table of program variants (kernel/core/variants.def): each name
// once, each family's rows where its readers look for them.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>

#include "kernel/core/algorithm.hpp"
#include "kernel/core/program_variants.hpp"

namespace gups {
namespace {

TEST(ProgramVariants, EachNameOnceAndEachAlgorithmRowIsItsTraits) {
  std::set<std::string_view> names;
  for (const auto& variant : program_variants()) {
    EXPECT_TRUE(names.insert(variant.name).second) << variant.name;
    EXPECT_EQ(variant_named(variant.name), &variant);
    EXPECT_FALSE(variant.help.empty()) << variant.name;
    if (variant.family == VariantFamily::exchange_probe) {
      EXPECT_GE(variant.receive_buffers, 1u) << variant.name;
    }
  }
  EXPECT_EQ(variant_named("scatter"), nullptr);
  // The update algorithms' table is the same rows, in the same order.
  const auto algorithms = variant_names(VariantFamily::update_algorithm);
  EXPECT_EQ(algorithms, algorithm_names());
  for (const auto& row : algorithm_table()) {
    const auto* variant = variant_named(row.name);
    ASSERT_NE(variant, nullptr);
    EXPECT_EQ(variant->routes_over_torus, row.routes_over_torus);
    EXPECT_EQ(variant->specialised_cores, row.specialised_cores);
  }
  EXPECT_TRUE(is_variant_of("bisection", VariantFamily::exchange_probe));
  EXPECT_FALSE(is_variant_of("bisection", VariantFamily::apex_map));
}

// An algorithm takes the model of its traits, whatever its name.
TEST(ProgramVariants, AnAlgorithmTakesTheModelOfItsTraits) {
  EXPECT_EQ(model_of(Algorithm::direct), AlgorithmModel::direct);
  EXPECT_EQ(model_of(Algorithm::routed), AlgorithmModel::routed);
  EXPECT_EQ(model_of(Algorithm::multicore), AlgorithmModel::multicore);
  EXPECT_EQ(model_of(Algorithm::hypercube), AlgorithmModel::hypercube);
  for (const auto& row : algorithm_table()) {
    const auto model = model_of(row.algorithm);
    EXPECT_EQ(model == AlgorithmModel::hypercube, row.in_stages) << row.name;
    EXPECT_EQ(model == AlgorithmModel::direct, !row.routes_over_torus && !row.in_stages) << row.name;
    EXPECT_EQ(model == AlgorithmModel::multicore, row.specialised_cores) << row.name;
  }
  EXPECT_EQ(to_string(AlgorithmModel::routed), "routed");
}

TEST(ProgramVariants, TheAlgoArgumentIsReadInEitherSpelling) {
  const std::array<const char*, 3> spaced{"gups", "--algo", "apex-map-rma"};
  EXPECT_EQ(algo_argument(3, spaced.data()), "apex-map-rma");
  const std::array<const char*, 2> joined{"gups", "--algo=exchange"};
  EXPECT_EQ(algo_argument(2, joined.data()), "exchange");
  const std::array<const char*, 2> none{"gups", "--algo"};
  EXPECT_EQ(algo_argument(2, none.data()), "");
}

}  // namespace
}  // namespace gups
