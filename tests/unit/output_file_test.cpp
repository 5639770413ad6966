#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "kernel/core/cli_checks.hpp"

namespace gups {
namespace {

class OutputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::temp_directory_path() /
              ("output-file-test-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }
  std::filesystem::path folder_;
};

TEST_F(OutputFile, AFileInAWritableFolderIsFineWhetherOrNotItExists) {
  EXPECT_EQ(cli::output_file_problem((folder_ / "result.json").string()), "");
  std::ofstream((folder_ / "there.json").string()) << "{}";
  EXPECT_EQ(cli::output_file_problem((folder_ / "there.json").string()), "");
}

TEST_F(OutputFile, AFolderIsRefusedBeforeTheRunNotAfter) {
  const auto problem = cli::output_file_problem(folder_.string());
  EXPECT_NE(problem.find("is a folder: name a file in it"), std::string::npos) << problem;
  EXPECT_NE(cli::output_file_problem(folder_.string() + "/").find("is a folder"), std::string::npos);
}

TEST_F(OutputFile, AMissingFolderIsRefused) {
  const auto problem = cli::output_file_problem((folder_ / "nowhere" / "result.json").string());
  EXPECT_NE(problem.find("no such directory"), std::string::npos) << problem;
}

}  // namespace
}  // namespace gups
