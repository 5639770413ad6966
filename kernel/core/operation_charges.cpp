#include "kernel/core/operation_charges.hpp"

#include <fmt/format.h>

#include <fstream>
#include <stdexcept>

namespace gups {
namespace {

using nlohmann::json;

json to_json(const OperationCharges& c) {
  json packet = json::object();
  for (const auto& field : kPacketFields) packet[field.name] = c.packet.*field.member;
  json charges = {{"clock_hz", c.clock_hz},
          {"generate", c.generate},
          {"route", c.route},
          {"apply", c.apply},
          {"send_call", c.send_call},
          {"receive_call", c.receive_call},
          {"owner_lookup", c.owner_lookup},
          {"packet", packet},
          {"batch_packets", c.batch_packets},
          {"receive_call_overhead", c.receive_call_overhead},
          {"receive_per_packet", c.receive_per_packet}};
  if (c.threads_on_core > 1) {  // a core of one thread has nothing to share
    charges["core"] = c.core;
    charges["threads_on_core"] = c.threads_on_core;
    charges["apply_wait"] = c.apply_wait;
  }
  return charges;
}

OperationCharges charges_from(const json& j) {
  OperationCharges c;
  c.clock_hz = j.at("clock_hz").get<double>();
  c.generate = j.at("generate").get<double>();
  c.route = j.at("route").get<double>();
  c.apply = j.at("apply").get<double>();
  c.send_call = j.at("send_call").get<double>();
  c.receive_call = j.at("receive_call").get<double>();
  c.owner_lookup = j.at("owner_lookup").get<double>();
  for (const auto& field : kPacketFields) c.packet.*field.member = j.at("packet").at(field.name).get<unsigned>();
  c.batch_packets = j.at("batch_packets").get<unsigned>();
  c.receive_call_overhead = j.at("receive_call_overhead").get<double>();
  c.receive_per_packet = j.at("receive_per_packet").get<double>();
  c.core = j.value("core", 0u);
  c.threads_on_core = j.value("threads_on_core", 1u);
  c.apply_wait = j.value("apply_wait", 0.0);
  if (c.threads_on_core == 0 || c.apply_wait < 0 || c.apply_wait > c.apply) {
    throw std::invalid_argument("threads_on_core must be at least 1 and apply_wait within apply");
  }
  if (!(c.clock_hz > 0) || c.packet.update_bytes == 0) {
    throw std::invalid_argument("a clock and an update size must be above 0");
  }
  return c;
}

}  // namespace

json charges_document(const std::string& machine, const std::vector<OperationCharges>& cores) {
  json list = json::array();
  for (const auto& charges : cores) list.push_back(to_json(charges));
  return {{"schema", kChargesSchema}, {"machine", machine}, {"cores", list}};
}

std::vector<OperationCharges> read_core_charges(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(fmt::format("cannot read the charges file '{}'", path));
  try {
    const auto document = json::parse(in);
    if (document.at("schema") != kChargesSchema) {
      throw std::invalid_argument(fmt::format("schema is not {}", kChargesSchema));
    }
    std::vector<OperationCharges> cores;
    for (const auto& core : document.at("cores")) cores.push_back(charges_from(core));
    if (cores.empty()) throw std::invalid_argument("it lists no core");
    return cores;
  } catch (const std::exception& e) {  // json's parse, type and missing-key errors too
    throw std::invalid_argument(fmt::format("charges file '{}': {} (made by gups-topology --charges)", path,
                                            e.what()));
  }
}

const std::vector<MechanismRow>& mechanism_rows() {
  // Each can be switched on alone, so that what it changes can be seen (docs/simulator.md).
  static const std::vector<MechanismRow> rows{
      {"wire", "torus messages carry whole packets, headers and acks", "gups", "--wire-packets"},
      {"receive-batches",
       "a receive call takes the packets waiting, up to a batch, at a cost per call and per packet", "gups",
       "--receive-batches"},
      {"paper-buckets", "the bucket sizes of the paper's Table 4 instead of the sizing rule", "gups-topology",
       "--paper-buckets"},
      {"dma", "a send is injected at once and travels without waiting for a posted receive (BG/P's DMA)", "gups",
       "--dma-injection"},
      {"mesh", "partitions below the machine's torus.mesh_below_nodes have no wrap-around links", "gups-topology",
       "--wrap machine"},
  };
  return rows;
}

}  // namespace gups
