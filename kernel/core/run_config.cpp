#include "run_config.hpp"

#include <CLI/CLI.hpp>
#include <map>

namespace gups {
namespace {

std::string join(const std::vector<std::string>& names) {
  std::string result;
  for (const auto& name : names) {
    result += (result.empty() ? "" : "|") + name;
  }
  return result;
}

// CLI11 messages can span lines; an error here is one line.
std::string one_line(std::string text) {
  for (auto& c : text) {
    if (c == '\n') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

}  // namespace

ParsedCommandLine parse_command_line(int argc, const char* const* argv,
                                     const std::vector<std::string>& algorithms) {
  ParsedCommandLine parsed;
  RunConfig& config = parsed.config;
  CLI::App app{"HPCC RandomAccess (GUPS) with aggregation and software routing over a "
               "virtual torus.",
               "gups"};
  app.add_option("--algo", config.algorithm, "update algorithm")
      ->check(CLI::IsMember(algorithms))
      ->option_text("{" + join(algorithms) + "} [" + config.algorithm + "]");
  app.add_option("--log2-table", config.log2_table, "table size: 2^N 64-bit words in total")
      ->check(CLI::Range(1u, 62u))
      ->capture_default_str();
  app.add_option("--updates-per-word", config.updates_per_word,
                 "updates per table word (HPCC: 4)")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  const std::map<std::string, OwnerMode> owner_modes{{"division", OwnerMode::division},
                                                     {"predict", OwnerMode::predict}};
  app.add_option("--owner", config.owner,
                 "owner of an index: HPCC division, or Theorem 4.1 prediction")
      ->transform(CLI::CheckedTransformer(owner_modes, CLI::ignore_case))
      ->option_text("{division|predict} [division]");
  app.add_option("--lookahead", config.lookahead,
                 "updates generated but not yet applied, at most, per process or node")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 24))
      ->capture_default_str();
  app.add_option("--json", config.json_path, "also write the result as JSON to this file");
  app.add_option("--inject-errors", config.inject_errors,
                 "testing aid: corrupt this many table words before verification");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    parsed.outcome = ParsedCommandLine::Outcome::help;
    parsed.message = app.help();
  } catch (const CLI::ParseError& error) {
    parsed.outcome = ParsedCommandLine::Outcome::error;
    parsed.message = one_line(error.what());
  }
  return parsed;
}

}  // namespace gups
