// Machine files for the unit tests: a worked machine's document, and a
// document loaded as users give it, through a file.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "models/src/machine.hpp"

namespace gups::model::testing {

inline nlohmann::json machine_document(const std::string& name) {
  std::ifstream in(load_machine(name, default_machine_directories()).path);
  return nlohmann::json::parse(in);
}

// The machine a document describes, read through a file named after the test.
inline Machine load_document(const nlohmann::json& document) {
  const auto* test = ::testing::UnitTest::GetInstance();
  const auto path = std::filesystem::temp_directory_path() /
                    ("torus-gups-machine-" + std::to_string(test->random_seed()) +
                     test->current_test_info()->test_suite_name() + test->current_test_info()->name() + ".json");
  std::ofstream(path) << document.dump();
  try {
    auto machine = load_machine(path.string(), {});
    std::filesystem::remove(path);
    return machine;
  } catch (...) {
    std::filesystem::remove(path);
    throw;
  }
}

// Loads `document` from a file and returns the error, or "" if it loaded.
inline std::string load_error(const nlohmann::json& document) {
  try {
    load_document(document);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return {};
}

}  // namespace gups::model::testing
