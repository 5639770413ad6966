// gups-topology: writes the SimGrid platform and hostfile of a machine's
// torus for a shape or a node count.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <fstream>
#include <iostream>

#include "cli_checks.hpp"
#include "torus_platform.hpp"

int main(int argc, char** argv) {
  std::string machine_name = "bgp", shape_text, platform_path = "platform.xml", hostfile_path = "hostfile.txt";
  std::uint64_t nodes = 0;
  gups::topology::PlatformOptions options;
  CLI::App app{"gups-topology: a SimGrid 3D-torus platform and hostfile for a machine file"};
  app.add_option("--machine,-m", machine_name, "machine name or path")->capture_default_str();
  app.add_option("--shape", shape_text, "torus shape such as 8x8x8")->check(gups::cli::kNotEmpty);
  app.add_option("--nodes,-n", nodes, "node count, mapped by the machine's shape rule")->check(CLI::Range(std::uint64_t{1}, gups::kMaxNodes));
  options.ranks_per_node = 0;
  app.add_option("--ranks-per-node", options.ranks_per_node, "ranks (cores) per node; 0: the machine's cores")
      ->check(CLI::Range(0u, 1024u))
      ->capture_default_str();
  app.add_option("--bandwidth-scale", options.bandwidth_scale, "multiply the link bandwidth (a faster network)")
      ->check(gups::cli::kFinitePositive);
  app.add_flag("--zero-latency", options.zero_latency, "links without latency");
  std::string wrap = "torus";
  app.add_option("--wrap", wrap,
                 "torus: every line wraps around; mesh: no line does; machine: a mesh below the machine's "
                 "torus.mesh_below_nodes, a torus from there")
      ->check(CLI::IsMember({"torus", "mesh", "machine"}))
      ->capture_default_str();
  app.add_option("--platform", platform_path, "platform XML to write")->capture_default_str();
  app.add_option("--hostfile", hostfile_path, "hostfile to write")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "gups-topology: error: " << e.what() << "\n";
    return 2;
  }
  try {
    const auto machine = gups::model::load_machine(machine_name, gups::model::default_machine_directories());
    if (shape_text.empty() == (nodes == 0)) throw std::invalid_argument("give either --shape or --nodes");
    const auto shape = shape_text.empty() ? machine.shape_for(nodes) : gups::TorusShape::parse(shape_text);
    if (options.ranks_per_node == 0) options.ranks_per_node = machine.cores_per_node;
    options.mesh = wrap == "mesh" || (wrap == "machine" && machine.is_mesh(shape.nodes()));
    std::ofstream platform(platform_path);
    platform << gups::topology::platform_xml(machine, shape, options);
    std::ofstream hosts(hostfile_path);
    hosts << gups::topology::hostfile(shape, options.ranks_per_node);
    if (!platform || !hosts) throw std::invalid_argument("cannot write " + platform_path + " or " + hostfile_path);
    // For launchers, one line of JSON: what they need to start the run.
    nlohmann::json plan{{"shape", shape.to_string()},
                        {"nodes", shape.nodes()},
                        {"ranks_per_node", options.ranks_per_node},
                        {"clock_hz", machine.clock_hz},
                        {"network", options.mesh ? "mesh" : "torus"},
                        {"reference_bucket_size", nullptr}};
    if (const auto size = machine.reference_bucket_sizes.find(shape.nodes());
        size != machine.reference_bucket_sizes.end()) {
      plan["reference_bucket_size"] = size->second;
    }
    std::cout << plan.dump() << "\n";
    return 0;
  } catch (const std::invalid_argument& e) {
    std::cerr << "gups-topology: error: " << e.what() << "\n";
    return 2;
  }
}
