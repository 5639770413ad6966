// The global-exchange probes inside gups: parse, fill each process's
// payload, then for each size a barrier, the probe's repetitions timed to
// the slowest process's end, and every received payload checked.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "kernel/core/result_output.hpp"
#include "kernel/exchange/probe.hpp"
#include "kernel/exchange/run.hpp"
#include "kernel/mpi/host_memory_check.hpp"
#include "kernel/mpi/host_sharing.hpp"
#include "kernel/mpi/simulation.hpp"

namespace gups::exchange {
namespace {

constexpr int kExitBadInput = 2;
constexpr int kExitWrongMessage = 1;

// On a real machine a size runs for about kTargetSeconds, so that the
// smallest messages are timed over thousands of repetitions: repetitions are
// multiplied by 4 until one batch takes kCalibrationSeconds (these runs warm
// the buffers up, and are checked too), then scaled to the target. A
// simulation's clock does not drift: it takes automatic_repeats.
constexpr double kCalibrationSeconds = 0.02;
constexpr double kTargetSeconds = 0.2;
constexpr std::uint64_t kMostRepeats = std::uint64_t{1} << 22;

// A simulated layer puts a message's whole size on the simulated network
// but carries (copies and checks) only its first kCarriedWords words: the
// time depends on the size alone, and the full payloads of thousands of
// ranks would fill the simulation's memory. The MPI layer carries every word.
constexpr std::uint64_t kCarriedWords = 512;

double slowest_seconds(const Probe& probe, ProbeContext& context, std::uint64_t words, std::uint64_t repeats,
                       std::uint64_t& wrong) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  wrong += probe.run(context, words, repeats);
  const double seconds = MPI_Wtime() - start;
  double slowest = 0;
  MPI_Allreduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

std::uint64_t calibrated_repeats(const Probe& probe, ProbeContext& context, std::uint64_t words,
                                 std::uint64_t& wrong) {
  std::uint64_t repeats = 1;
  double seconds = slowest_seconds(probe, context, words, repeats, wrong);
  while (seconds < kCalibrationSeconds && repeats < kMostRepeats) {
    repeats *= 4;
    seconds = slowest_seconds(probe, context, words, repeats, wrong);
  }
  const double scaled = static_cast<double>(repeats) * kTargetSeconds / std::max(seconds, 1e-9);
  return std::clamp<std::uint64_t>(static_cast<std::uint64_t>(scaled), 1, kMostRepeats);
}

}  // namespace

const std::vector<Probe>& probes() {
  static const std::vector<Probe> table{
#define GUPS_EXCHANGE_PROBE(id, name, help, receive_buffers, run) {name, run},
#include "kernel/core/variants.def"
  };
  return table;
}

std::optional<std::uint64_t> received_from(const std::vector<std::uint64_t>& buffer, std::size_t count,
                                           std::uint64_t words, std::optional<std::uint64_t> sender) {
  if (count != words) return std::nullopt;
  const auto named = payload_sender(buffer.data(), words);
  if (!named || (sender && *named != *sender)) return std::nullopt;
  return named;
}

std::uint64_t send_and_receive(ProbeContext& context, std::uint64_t words, const Step& step, int channel) {
  constexpr std::size_t kReceive = 0, kSend = 1;
  auto& slots = context.slots;
  slots.post(kReceive, context.incoming[kReceive].data(), words, channel);
  slots.send(kSend, context.outgoing.data(), words, static_cast<int>(*step.send_to), channel);
  std::uint64_t wrong = 0;
  for (int pending = 2; pending > 0; --pending) {
    const auto completion = slots.wait_any();
    if (completion.slot == kReceive &&
        !received_from(context.incoming[kReceive], completion.count, words, step.receive_from)) {
      ++wrong;
    }
  }
  return wrong;
}

int probe_main(int argc, char** argv, int rank, int ranks, const std::string& mpi_library) {
  const auto processes = static_cast<std::uint64_t>(ranks);
  const auto parsed = parse_probe_command_line(argc, argv, processes);
  if (const auto status = exit_without_running(parsed, rank)) return *status;
  const auto& config = parsed.config;
  const std::string layer = !config.message_layer.empty() ? config.message_layer
                            : simulation::active()        ? "s4u"
                                                          : "mpi";
  const bool carries_prefix = layer != "mpi";
  auto carried = [carries_prefix](std::uint64_t words) {
    return carries_prefix ? std::min(words, kCarriedWords) : words;
  };
  const std::uint64_t largest_words = carried(*std::max_element(config.sizes.begin(), config.sizes.end()) / 8);
  const auto buffers = receive_buffers(config.probe);
  if (const auto shortfall = host_memory_shortfall(8.0 * static_cast<double>(largest_words * (1 + buffers)),
                                                   "the probe's message buffers (--sizes)", rank)) {
    if (!shortfall->empty()) std::fprintf(stderr, "gups: error: %s\n", shortfall->c_str());
    return kExitBadInput;
  }
  std::uint64_t message_words = 0;  // the size being probed: every message of it is that long on the network
  SimulatedMessages simulated;
  simulated.wire_bytes = [&message_words](std::size_t count, int) -> std::optional<std::uint64_t> {
    if (count == 0) return std::nullopt;
    return message_words * sizeof(std::uint64_t) + kSmpiEnvelopeBytes;
  };
  std::unique_ptr<MessageSlots> slots;
  try {
    slots = make_message_slots(layer, MPI_COMM_WORLD, rank, kProbeSlots, std::move(simulated), RealSends::standard);
  } catch (const std::invalid_argument& error) {
    if (rank == 0) std::fprintf(stderr, "gups: error: --message-layer: %s\n", error.what());
    return kExitBadInput;
  }
  if (layer == "mpi") {
    // Each all-to-all step is a tag of its own; MPI promises 32,767 tags.
    int* tag_limit = nullptr;
    int found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_limit, &found);
    const auto most = found && tag_limit ? static_cast<std::uint64_t>(*tag_limit) : 32767;
    if (config.probe == "all-to-all" && processes > most) {
      if (rank == 0) {
        std::fprintf(stderr, "gups: error: the all-to-all takes a tag per step, and this MPI has %llu tags for %llu steps\n",
                     static_cast<unsigned long long>(most), static_cast<unsigned long long>(processes - 1));
      }
      return kExitBadInput;
    }
  }
  const auto& probe = *std::find_if(probes().begin(), probes().end(),
                                    [&](const auto& p) { return p.name == config.probe; });
  std::vector<std::uint64_t> outgoing(largest_words);
  std::vector<std::vector<std::uint64_t>> incoming(buffers, std::vector<std::uint64_t>(largest_words));
  ProbeContext context{*slots, static_cast<std::uint64_t>(rank), processes, outgoing, incoming};
  ProbeResult result;
  std::uint64_t wrong = 0;
  for (const auto bytes : config.sizes) {
    message_words = bytes / 8;
    const std::uint64_t words = carried(message_words);
    fill_payload(outgoing.data(), words, static_cast<std::uint64_t>(rank));
    if (rank == 0) {
      for (std::uint64_t i = 0; i < std::min(config.inject_errors, words); ++i) outgoing[words - 1 - i] ^= 1;
    }
    const std::uint64_t repeats = config.repeats        ? config.repeats
                                  : simulation::active() ? automatic_repeats(config.probe, bytes, processes)
                                                         : calibrated_repeats(probe, context, words, wrong);
    const double seconds = slowest_seconds(probe, context, words, repeats, wrong);
    result.sizes.push_back(size_result(config.probe, processes, bytes, repeats, seconds));
  }
  slots->finish();
  slots.reset();
  MPI_Allreduce(&wrong, &result.wrong_messages, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  result.shared_cores = most_shared_host();
  if (carries_prefix) result.carried_bytes = kCarriedWords * sizeof(std::uint64_t);
  if (rank == 0) {
    result.config = config;
    result.processes = processes;
    result.mpi_library = mpi_library;
    if (!print_and_save(format_lines(result), to_json(result), config.json_path)) return kExitBadInput;
  }
  return result.passed() ? 0 : kExitWrongMessage;
}

}  // namespace gups::exchange
