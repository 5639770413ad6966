#include "kernel/apex_map/charges.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <fstream>
#include <stdexcept>

namespace gups {
namespace {

struct Field {
  const char* name;
  double AccessCharges::*member;
};

constexpr std::array<Field, 6> kFields{{{"clock_hz", &AccessCharges::clock_hz},
                                        {"block_start", &AccessCharges::block_start},
                                        {"word", &AccessCharges::word},
                                        {"send_call", &AccessCharges::send_call},
                                        {"receive_call", &AccessCharges::receive_call},
                                        {"poll", &AccessCharges::poll}}};

}  // namespace

nlohmann::json access_charges_document(const std::string& machine, const AccessCharges& charges) {
  nlohmann::json process = nlohmann::json::object();
  for (const auto& field : kFields) process[field.name] = charges.*field.member;
  return {{"schema", kAccessChargesSchema}, {"machine", machine}, {"process", process}};
}

AccessCharges read_access_charges(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(fmt::format("cannot read the charges file '{}'", path));
  try {
    const auto document = nlohmann::json::parse(in);
    if (document.at("schema") != kAccessChargesSchema) {
      throw std::invalid_argument(fmt::format("schema is not {}", kAccessChargesSchema));
    }
    AccessCharges charges;
    for (const auto& field : kFields) {
      const double value = document.at("process").at(field.name).get<double>();
      if (!std::isfinite(value) || value < 0) throw std::invalid_argument(fmt::format("{} must be 0 or more", field.name));
      charges.*field.member = value;
    }
    if (!(charges.clock_hz > 0)) throw std::invalid_argument("clock_hz must be above 0");
    return charges;
  } catch (const std::exception& e) {  // json's parse, type and missing-key errors too
    throw std::invalid_argument(
        fmt::format("charges file '{}': {} (made by gups-topology --charges for an Apex-Map run)", path, e.what()));
  }
}

}  // namespace gups
