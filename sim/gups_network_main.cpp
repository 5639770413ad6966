// gups-network: a machine's network alone under global-exchange traffic
// (all-to-all, bisection, uniform), timed by one of the network levels that
// time messages themselves (queue, latency, packet), without the kernel or
// SimGrid. It answers "what does this partition deliver under this traffic,
// against the peak its longest line allows?", the question the published
// all-to-all measurements of Blue Gene answer, in seconds of wall time.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <iostream>

#include "kernel/core/cli_checks.hpp"
#include "kernel/core/packet_format.hpp"
#include "models/src/machine.hpp"
#include "sim/levels/packet_network.hpp"
#include "sim/network_traffic.hpp"
#include "sim/plan/platform.hpp"
#include "sim/plan/run_plan.hpp"

namespace {

struct CommandLine {
  std::string machine_name = "bgp", shape_text, wrap = "machine", level_name = "packet", traffic = "all-to-all",
              json_path, shape_rule = "machine";
  std::uint64_t nodes = 0, steps = 0, seed = 1, window = 0;
  double payload = 240, offered_load = 0;
  bool quiet = false;
  std::vector<std::string> settings;
};

void declare_options(CLI::App& app, CommandLine& c) {
  app.add_option("--machine,-m", c.machine_name, "machine name or path")->capture_default_str();
  auto* shape_option = app.add_option("--shape", c.shape_text, "torus shape such as 8x8x16")->check(gups::cli::kNotEmpty);
  app.add_option("--nodes,-n", c.nodes, "node count, mapped by the machine's shape rule")
      ->check(CLI::Range(std::uint64_t{2}, gups::kMaxNodes))
      ->excludes(shape_option);
  app.add_option("--shape-rule", c.shape_rule,
                 "with --nodes: machine (its listed partitions, else the balanced shape) or balanced")
      ->check(CLI::IsMember({"machine", "balanced"}))
      ->capture_default_str();
  app.add_option("--wrap", c.wrap,
                 "torus, mesh, machine (a mesh below the machine's torus.mesh_below_nodes), or a letter per "
                 "dimension: t wraps, m does not (ttm)")
      ->capture_default_str();
  app.add_option("--network", c.level_name, "network level: queue, latency or packet")->capture_default_str();
  app.add_option("--traffic", c.traffic, "all-to-all (every node to every other, step by step), bisection "
                                       "(the lower half to the upper), uniform (random destinations)")
      ->check(CLI::IsMember({"all-to-all", "bisection", "uniform"}))
      ->capture_default_str();
  app.add_option("--message-bytes", c.payload, "payload bytes per message (wire bytes add the machine's packet "
                                             "headers and rounding)")
      ->check(CLI::Range(8.0, 1e9))
      ->capture_default_str();
  app.add_option("--messages-per-node", c.steps, "messages each node sends (default: the pattern's: n - 1 for "
                                               "all-to-all, 1 for bisection; uniform needs it)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 32));
  app.add_option("--seed", c.seed, "uniform traffic's seed")->capture_default_str();
  app.add_option("--offered-load", c.offered_load,
                 "each node injects at this fraction of the peak (1: the busiest line's links full), step after "
                 "step; 0 (default): every message at once, as an all-to-all posted to a DMA")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  app.add_option("--window", c.window,
                 "at most this many of a node's messages in flight: it waits for its oldest to arrive before "
                 "injecting another (bounds the backlog past saturation); 0 (default): no bound")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 20))
      ->capture_default_str();
  app.add_option("--set", c.settings,
                 "KEY=VALUE: one of the level's parameters (the machine file's network_levels.LEVEL.KEY) for this "
                 "run, VALUE as JSON (--set channel_buffer_chunks=64 --set routing='\"deterministic\"')");
  app.add_option("--json", c.json_path, "write the result as JSON here")->check(gups::cli::kOutputFile);
  app.add_flag("--quiet,-q", c.quiet, "no progress lines");
}

// The level's parameters from the machine file, with --set's on top.
gups::LevelParameters level_parameters(const gups::model::Machine& machine, const gups::NetworkLevel& level,
                                       const std::vector<std::string>& settings) {
  gups::LevelParameters parameters = gups::topology::level_parameters(machine, level);
  for (const auto& setting : settings) {
    const auto equals = setting.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw std::invalid_argument(fmt::format("--set '{}': give KEY=VALUE", setting));
    }
    const auto key = setting.substr(0, equals), text = setting.substr(equals + 1);
    try {
      parameters[key] = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
      parameters[key] = text;  // a bare word: a string
    }
  }
  gups::topology::check_level_parameters(machine, level, parameters);
  return parameters;
}

// The partition, its links and its level, checked.
struct NetworkCase {
  gups::model::Machine machine;
  gups::TorusShape shape;
  gups::NetworkLevel level;
  std::shared_ptr<gups::TorusLinks> links;
  std::string wraps_text;
};

NetworkCase network_case(const CommandLine& c) {
  auto machine = gups::model::load_machine(c.machine_name, gups::model::default_machine_directories());
  machine.balanced_shapes = c.shape_rule == "balanced";
  if (!machine.topology->is_virtual_torus) {
    throw std::invalid_argument(fmt::format("machine {} is a {}: gups-network drives tori and meshes",
                                            machine.name, machine.topology->label));
  }
  if (c.shape_text.empty() && c.nodes == 0) throw std::invalid_argument("give --shape or --nodes");
  if (c.traffic == "uniform" && c.steps == 0) {
    throw std::invalid_argument("uniform traffic needs --messages-per-node");
  }
  const auto shape = c.shape_text.empty() ? machine.shape_for(c.nodes) : gups::TorusShape::parse(c.shape_text);
  if (shape.nodes() < 2) throw std::invalid_argument("traffic needs 2 nodes or more");
  const auto level = gups::NetworkLevel::named(c.level_name);
  if (level.simgrid_links()) {
    throw std::invalid_argument(fmt::format("--network {}: SimGrid's own level needs the simulator (gups-sim); "
                                            "give queue, latency or packet",
                                            c.level_name));
  }
  auto links = std::make_shared<gups::TorusLinks>(shape, gups::topology::wraps_named(c.wrap, machine, shape));
  std::string wraps_text;
  for (unsigned d = 0; d < shape.dimensions(); ++d) wraps_text += links->wraps(d) ? 't' : 'm';
  return {std::move(machine), shape, level, std::move(links), wraps_text};
}

nlohmann::ordered_json result_json(const CommandLine& c, const NetworkCase& n, const gups::LevelParameters& parameters,
                                   const gups::TrafficRun& run, const gups::TrafficResult& result,
                                   const gups::MessageTiming& timing, double wall_seconds) {
  nlohmann::ordered_json out{
      {"schema", "torus-gups/network-traffic/1"},
      {"machine", n.machine.name},
      {"shape", n.shape.to_string()},
      {"nodes", n.shape.nodes()},
      {"wraps", n.wraps_text},
      {"network_level", n.level.name()},
      {"traffic", c.traffic},
      {"offered_load", c.offered_load},
      {"window", c.window},
      {"level_parameters", parameters},
      {"payload_bytes", c.payload},
      {"wire_bytes", run.wire_bytes},
      {"messages", result.messages},
      {"simulated_seconds", result.seconds},
      {"mean_latency_seconds", result.mean_latency},
      {"wire_bytes_per_node_per_second", result.wire_rate},
      {"payload_bytes_per_node_per_second", result.payload_rate},
      {"peak_bytes_per_node_per_second", result.peak_rate},
      {"efficiency", result.efficiency},
      {"wall_seconds", wall_seconds}};
  if (const auto* packets = dynamic_cast<const gups::PacketNetwork*>(&timing)) {
    const auto& a = packets->audit();
    out["packets"] = {{"packets", a.packets},           {"hops", a.hops},
                      {"shortest_hops", a.shortest_hops}, {"off_route_hops", a.off_route_hops},
                      {"escape_hops", a.escape_hops},     {"held_upstream", a.held_upstream},
                      {"most_chunks_held", a.most_chunks_held}, {"overfilled", a.overfilled}};
  }
  return out;
}

int drive(const CommandLine& c) {
  const NetworkCase n = network_case(c);
  const gups::LevelParameters parameters = level_parameters(n.machine, n.level, c.settings);
  auto timing = n.level.timing(n.links, {n.machine.link_bandwidth, n.machine.link_latency}, parameters);
  gups::TrafficRun run;
  run.pattern = gups::exchange_pattern_named(c.traffic);
  run.steps = c.steps;
  run.seed = c.seed;
  run.payload_bytes = c.payload;
  run.offered_load = c.offered_load;
  run.window = c.window;
  const auto updates = static_cast<std::uint64_t>(std::ceil(c.payload / n.machine.packet.update_bytes));
  run.wire_bytes = static_cast<double>(gups::message_wire_bytes(n.machine.packet, updates));
  if (!c.quiet) {
    std::cerr << fmt::format("gups-network: {} on {} {} ({} nodes, wraps {}), level {}, {} payload bytes ({} on "
                             "the wire) per message\n",
                             c.traffic, n.machine.name, n.shape.to_string(), n.shape.nodes(), n.wraps_text,
                             n.level.name(), c.payload, run.wire_bytes);
  }
  const auto start = std::chrono::steady_clock::now();
  const auto wall = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  const auto result = gups::drive_traffic(*timing, *n.links, n.machine.link_bandwidth, run, [&](double done) {
    if (!c.quiet) std::cerr << fmt::format("gups-network: progress: {:.0f}%, wall {:.1f} s\n", 100 * done, wall());
  });
  const double wall_seconds = wall();
  std::cout << fmt::format(
      "{} on {} {} (wraps {}), level {}: {} messages of {} bytes ({} on the wire) in {:.6g} s simulated\n"
      "Delivered {:.4g} MB/s per node on the wire, {:.4g} MB/s of payload; peak {:.4g} MB/s per node "
      "(the busiest line's links full)\nEfficiency {:.1f}% of peak; mean latency {:.4g} us; wall {:.1f} s\n",
      c.traffic, n.machine.name, n.shape.to_string(), n.wraps_text, n.level.name(), result.messages, c.payload,
      run.wire_bytes, result.seconds, result.wire_rate / 1e6, result.payload_rate / 1e6, result.peak_rate / 1e6,
      100 * result.efficiency, result.mean_latency * 1e6, wall_seconds);
  if (!c.json_path.empty()) {
    std::ofstream file(c.json_path);
    file << result_json(c, n, parameters, run, result, *timing, wall_seconds).dump(1) << "\n";
    if (!file) throw std::invalid_argument("cannot write " + c.json_path);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CommandLine c;
  CLI::App app{"gups-network: a machine's network alone under global-exchange traffic, timed by a network level "
               "(queue, latency or packet); prints what it delivers against the peak of its longest line"};
  declare_options(app, c);
  if (const auto status = gups::cli::parse_or_exit(app, argc, argv, "gups-network")) return *status;
  try {
    return drive(c);
  } catch (const std::invalid_argument& e) {
    std::cerr << "gups-network: error: " << e.what() << "\n";
    return 2;
  }
}
