#include "models/src/measured_bisection.hpp"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace gups::model {

MeasuredBisection read_measured_bisection(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(fmt::format("--bisection {}: cannot read it", path));
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument(fmt::format("--bisection {}: not JSON", path));
  }
  auto fail = [&](const std::string& why) {
    return std::invalid_argument(fmt::format("--bisection {}: {}", path, why));
  };
  if (!json.is_object() || json.value("probe", "") != "exchange" || json.value("algorithm", "") != "bisection") {
    throw fail("not a bisection probe's result (gups --algo bisection --json, or gups-sim --algo bisection --json)");
  }
  if (!json.value("passed", false)) throw fail("the probe's verification failed: its figures are not a measurement");
  const auto bandwidth = json.find("bisection_bytes_per_s");
  if (bandwidth == json.end() || !bandwidth->is_number() || bandwidth->get<double>() <= 0) {
    throw fail("no positive bisection_bytes_per_s");
  }
  MeasuredBisection measured;
  measured.bytes_per_s = bandwidth->get<double>();
  measured.message_bytes = json.value("bisection_message_bytes", std::uint64_t{0});
  measured.source = path;
  measured.nodes = json.value("processes", std::uint64_t{0});
  if (const auto simulation = json.find("simulation"); simulation != json.end() && simulation->is_object()) {
    measured.nodes = simulation->value("nodes", measured.nodes);
    if (simulation->contains("machine")) measured.machine = simulation->value("machine", "");
    if (simulation->contains("shape")) measured.shape = simulation->value("shape", "");
    if (simulation->contains("network")) measured.network = simulation->value("network", "");
  }
  if (measured.nodes < 2) throw fail("no node count of 2 or more");
  return measured;
}

}  // namespace gups::model
