#include "kernel/exchange/run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "kernel/core/cli_checks.hpp"  // CLI11, with SimGrid's exit() macro out of its way
#include "kernel/core/exchange_pattern.hpp"
#include "kernel/core/program_variants.hpp"

namespace gups::exchange {

bool is_probe(std::string_view name) { return is_variant_of(name, VariantFamily::exchange_probe); }

std::vector<std::uint64_t> default_sizes(std::string_view probe) {
  if (probe == "bisection") return {std::uint64_t{1} << 20};
  if (probe == "all-to-all") return {8, 64, 512, 4096};
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t bytes = 8; bytes <= (std::uint64_t{1} << 20); bytes *= 8) sizes.push_back(bytes);
  sizes.push_back(std::uint64_t{1} << 20);
  return sizes;
}

std::vector<std::uint64_t> parse_sizes(const std::string& text) {
  std::vector<std::uint64_t> sizes;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = std::min(text.find(',', start), text.size());
    const std::string entry = text.substr(start, end - start);
    std::string digits = entry;
    std::uint64_t unit = 1;
    if (!digits.empty() && (digits.back() == 'K' || digits.back() == 'k')) unit = 1024;
    if (!digits.empty() && (digits.back() == 'M' || digits.back() == 'm')) unit = 1024 * 1024;
    if (unit > 1) digits.pop_back();
    const bool numeric = !digits.empty() && digits.size() <= 12 &&
                         std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    const std::uint64_t bytes = numeric ? std::stoull(digits) * unit : 0;
    if (!numeric || bytes == 0 || bytes % 8 != 0 || bytes > kMaxMessageBytes) {
      throw std::invalid_argument(fmt::format(
          "--sizes: '{}' is not a message size (bytes, a positive multiple of 8 up to 64M, with K or M for 1024 "
          "or 1024^2)",
          entry));
    }
    sizes.push_back(bytes);
    start = end + 1;
  }
  return sizes;
}

std::size_t receive_buffers(std::string_view probe) {
  const auto* variant = variant_named(probe);
  return variant ? variant->receive_buffers : 1;
}

std::uint64_t steps_per_repetition(std::string_view probe, std::uint64_t ranks) {
  return probe == "all-to-all" ? ranks - 1 : 1;
}

std::uint64_t automatic_repeats(std::string_view probe, std::uint64_t bytes, std::uint64_t processes) {
  if (probe == "all-to-all") {
    return std::clamp<std::uint64_t>((std::uint64_t{256} << 10) / (bytes * (processes - 1)), 1, 4);
  }
  return std::clamp<std::uint64_t>((std::uint64_t{4} << 20) / bytes, 1, 64);
}

// Who sends to whom is exchange_pattern's (the one definition gups-network's
// simulated traffic takes too); a step adds who receives from whom.
Step step_of(std::string_view probe, std::uint64_t rank, std::uint64_t ranks, std::uint64_t step) {
  const std::uint64_t half = ranks / 2;
  if (probe == "bisection") {
    return rank < half ? Step{exchange_destination(ExchangePattern::bisection, rank, step, ranks), std::nullopt}
                       : Step{std::nullopt, rank - half};
  }
  if (probe == "exchange") {
    const std::uint64_t partner = (rank + half) % ranks;
    return {partner, partner};
  }
  const std::uint64_t to = exchange_destination(ExchangePattern::all_to_all, rank, step, ranks);
  return {to, (2 * rank + ranks - to) % ranks};  // the one whose step s is rank - (to - rank)
}

std::uint64_t pairs(std::string_view probe, std::uint64_t ranks) {
  return probe == "all-to-all" ? ranks : ranks / 2;
}

std::uint64_t bytes_per_repetition(std::string_view probe, std::uint64_t ranks, std::uint64_t bytes) {
  if (probe == "bisection") return ranks / 2 * bytes;
  if (probe == "exchange") return ranks * bytes;
  return ranks * (ranks - 1) * bytes;
}

std::optional<std::string> problem(std::string_view probe, std::uint64_t ranks) {
  if (ranks < 2) return fmt::format("the {} probe needs 2 processes or more", probe);
  if (probe != "all-to-all" && ranks % 2 != 0) {
    return fmt::format("the {} probe pairs process i with i + n/2: it needs an even number of processes, not {}",
                       probe, ranks);
  }
  return std::nullopt;
}

namespace {

constexpr std::uint64_t kPatternMultiplier = 0x9e3779b97f4a7c15ULL;

std::uint64_t pattern_word(std::uint64_t sender, std::uint64_t index) {
  return (sender + 1) * kPatternMultiplier ^ (index * 0xbf58476d1ce4e5b9ULL);
}

}  // namespace

void fill_payload(std::uint64_t* words, std::uint64_t count, std::uint64_t sender) {
  if (count == 0) return;
  words[0] = sender;
  for (std::uint64_t i = 1; i < count; ++i) words[i] = pattern_word(sender, i);
}

std::optional<std::uint64_t> payload_sender(const std::uint64_t* words, std::uint64_t count) {
  if (count == 0) return std::nullopt;
  const std::uint64_t sender = words[0];
  for (std::uint64_t i = 1; i < count; ++i) {
    if (words[i] != pattern_word(sender, i)) return std::nullopt;
  }
  return sender;
}

void declare_probe_options(CLI::App& app, ProbeConfig& config, std::string& sizes) {
  const auto names = variant_names(VariantFamily::exchange_probe);
  app.add_option("--algo", config.probe, "the probe")
      ->required()
      ->check(CLI::IsMember(names))
      ->option_text("{" + fmt::format("{}", fmt::join(names, "|")) + "}");
  app.add_option("--sizes", sizes,
                 "message sizes in bytes, a comma list, K and M for 1024 and 1024^2 [bisection: 1M; exchange: "
                 "8,64,512,4K,32K,256K,1M; all-to-all: 8,64,512,4K]");
  app.add_option("--repeats", config.repeats,
                 "repetitions of each size (the all-to-all: whole exchanges) [on MPI: about 0.2 s of each size, "
                 "measured; simulated: 4 MiB per process, 1 to 64; the all-to-all 256 KiB, 1 to 4]")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20));
  app.add_option("--json", config.json_path, "also write the result as JSON to this file");
  app.add_option("--message-layer", config.message_layer,
                 "what carries the messages: mpi, or in the SimGrid build s4u (at the levels that time messages "
                 "themselves, no SimGrid communication) or s4u-comms [mpi on MPI, s4u under SimGrid]")
      ->check(CLI::IsMember({"s4u", "s4u-comms", "mpi"}));
  app.add_option("--inject-errors", config.inject_errors,
                 "testing aid: change this many words of every message process 0 sends, so that its receivers "
                 "find them wrong");
}

ParsedProbe parse_probe_command_line(int argc, const char* const* argv, std::uint64_t processes) {
  ParsedProbe parsed;
  auto& config = parsed.config;
  CLI::App app{"Global-exchange probes (after the Cray X1 evaluation's tests): bisection (the lower half of the "
               "processes sends to the upper half, i -> i + n/2), exchange (i with i + n/2, both ways) and "
               "all-to-all (n - 1 pairwise steps: i sends to i + s and receives from i - s). Bandwidth by message "
               "size, aggregate and per pair, every payload checked.",
               "gups"};
  std::string sizes;
  declare_probe_options(app, config, sizes);
  try {
    app.parse(argc, argv);
    config.sizes = sizes.empty() ? default_sizes(config.probe) : parse_sizes(sizes);
  } catch (const CLI::CallForHelp&) {
    parsed.outcome = ParsedProbe::Outcome::help;
    parsed.message = app.help();
    return parsed;
  } catch (const CLI::ParseError& error) {
    parsed.outcome = ParsedProbe::Outcome::error;
    parsed.message = error.what();
    return parsed;
  } catch (const std::invalid_argument& error) {
    parsed.outcome = ParsedProbe::Outcome::error;
    parsed.message = error.what();
    return parsed;
  }
  if (auto why = problem(config.probe, processes)) {
    parsed.outcome = ParsedProbe::Outcome::error;
    parsed.message = *why;
  }
  return parsed;
}

SizeResult size_result(std::string_view probe, std::uint64_t processes, std::uint64_t bytes, std::uint64_t repeats,
                       double seconds) {
  SizeResult r{bytes, repeats, seconds, 0, 0, 0};
  if (seconds <= 0) return r;
  const double moved = static_cast<double>(bytes_per_repetition(probe, processes, bytes) * repeats);
  r.aggregate_bytes_per_s = moved / seconds;
  r.per_pair_bytes_per_s = r.aggregate_bytes_per_s / static_cast<double>(pairs(probe, processes));
  r.latency_us = 1e6 * seconds / static_cast<double>(repeats * steps_per_repetition(probe, processes));
  return r;
}

namespace {

std::string summary_line(std::string_view probe) {
  if (probe == "bisection") return "the lower half sends to the upper half, i -> i + n/2";
  if (probe == "exchange") return "i exchanges with i + n/2, both ways at once";
  return "n - 1 pairwise steps, i -> i + s";
}

std::string size_text(std::uint64_t bytes) {
  if (bytes % (1024 * 1024) == 0) return fmt::format("{} MiB", bytes >> 20);
  if (bytes % 1024 == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} B", bytes);
}

}  // namespace

std::string format_lines(const ProbeResult& r) {
  const auto& probe = r.config.probe;
  const char* pair_word = probe == "all-to-all" ? "process" : "pair";
  std::string text = fmt::format("Probe {} ({}) on {} processes ({})\n", probe, summary_line(probe), r.processes,
                                 r.mpi_library);
  text += fmt::format("{:>10} {:>8} {:>12} {:>16} {:>16} {:>12}\n", "size", "repeats", "seconds", "aggregate MB/s",
                      fmt::format("per {} MB/s", pair_word), "us/message");
  for (const auto& s : r.sizes) {
    text += fmt::format("{:>10} {:>8} {:>12.6g} {:>16.6g} {:>16.6g} {:>12.4g}\n", size_text(s.bytes), s.repeats,
                        s.seconds, s.aggregate_bytes_per_s / 1e6, s.per_pair_bytes_per_s / 1e6, s.latency_us);
  }
  text += shared_cores_line(r.shared_cores);
  const std::string checked =
      r.carried_bytes ? fmt::format("; simulated: the first {} bytes of each carried and checked", *r.carried_bytes)
                      : std::string();
  text += r.passed()
              ? fmt::format("Verification: every message arrived whole, from the process it should (passed{}).\n",
                            checked)
              : fmt::format("Verification: {} message(s) wrong or missing (failed{}).\n", r.wrong_messages, checked);
  return text;
}

nlohmann::json to_json(const ProbeResult& r) {
  nlohmann::json sizes = nlohmann::json::array();
  for (const auto& s : r.sizes) {
    sizes.push_back({{"bytes", s.bytes},
                     {"repeats", s.repeats},
                     {"seconds", s.seconds},
                     {"aggregate_bytes_per_s", s.aggregate_bytes_per_s},
                     {"per_pair_bytes_per_s", s.per_pair_bytes_per_s},
                     {"us_per_message", s.latency_us}});
  }
  nlohmann::json json{{"probe", "exchange"},
                      {"algorithm", r.config.probe},
                      {"summary", summary_line(r.config.probe)},
                      {"processes", r.processes},
                      {"pairs", pairs(r.config.probe, r.processes)},
                      {"sizes", sizes},
                      {"wrong_messages", r.wrong_messages},
                      {"passed", r.passed()},
                      {"checked_bytes_per_message", r.carried_bytes ? nlohmann::json(*r.carried_bytes) : nlohmann::json("all")},
                      {"cores_shared", shared_cores_json(r.shared_cores)},
                      {"mpi_library", r.mpi_library}};
  // One way across the cut between the halves at the largest size: the
  // bisection bandwidth the model's network bound takes (gups-model --bisection).
  if (r.config.probe == "bisection" && !r.sizes.empty()) {
    const auto largest = std::max_element(r.sizes.begin(), r.sizes.end(),
                                          [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
    json["bisection_bytes_per_s"] = largest->aggregate_bytes_per_s;
    json["bisection_message_bytes"] = largest->bytes;
  }
  return json;
}

}  // namespace gups::exchange
