#include "models/src/message_layer.hpp"

#include <fmt/format.h>

#include <array>
#include <stdexcept>
#include <string>

#include "models/src/machine.hpp"
#include "models/src/object_reader.hpp"

namespace gups::model {
namespace {

// Bytes a full packet carries after its header.
double packet_payload(const PacketFormat& packet) {
  return packet.max_bytes > packet.header_bytes ? static_cast<double>(packet.max_bytes - packet.header_bytes) : 0.0;
}

struct LayerField {
  const char* name;
  double MessageLayer::*member;
  bool required;
};
constexpr std::array<LayerField, 7> kLayerFields{{
    {"L", &MessageLayer::L, true},
    {"o_send", &MessageLayer::o_send, true},
    {"o_recv", &MessageLayer::o_recv, true},
    {"g", &MessageLayer::g, true},
    {"G", &MessageLayer::G, true},
    {"O", &MessageLayer::O, false},
    {"S", &MessageLayer::S, false},
}};

}  // namespace

DerivedMessageCosts derive_message_costs(const MessageLayer& layer, double clock_hz, const PacketFormat& packet,
                                         unsigned receive_batch_packets) {
  DerivedMessageCosts costs;
  costs.send_call = layer.o_send * clock_hz;
  costs.receive_call = layer.o_recv * clock_hz;
  const double batch = std::max(1u, receive_batch_packets);
  const double per_further_packet = layer.O * packet_payload(packet) * clock_hz;
  costs.receive_call_batched = (costs.receive_call + (batch - 1) * per_further_packet) / batch;
  if (layer.O == 0) costs.receive_call_batched = costs.receive_call;  // no figure: batching gains nothing
  costs.packets_per_s = layer.g > 0 ? layer.processes_per_node / layer.g : 0;
  costs.rendezvous_cycles = (layer.o_send + layer.o_recv) * clock_hz;
  return costs;
}

void apply_message_layer(Machine& machine) {
  if (!machine.message_layer) return;
  const auto derived = derive_message_costs(*machine.message_layer, machine.clock_hz, machine.packet,
                                            machine.costs.receive_batch_packets);
  auto& c = machine.costs;
  c.send_call = derived.send_call;
  c.receive_call = derived.receive_call;
  c.receive_call_batched = derived.receive_call_batched;
  if (auto& unit = machine.node.messaging_unit) {
    unit->descriptor_cycles = derived.send_call;
    unit->packet_receive_cycles = derived.receive_call;
    unit->packets_per_s = derived.packets_per_s;
  }
}

MessageLayer message_layer_of_costs(const Machine& machine) {
  MessageLayer layer;
  if (machine.message_layer) return *machine.message_layer;
  const double clock = machine.clock_hz;
  layer.o_send = machine.send_call_cycles() / clock;
  layer.o_recv = machine.packet_receive_cycles(false) / clock;
  const double batch = std::max(1u, machine.costs.receive_batch_packets);
  const double payload = packet_payload(machine.packet);
  if (!machine.node.messaging_unit && batch > 1 && payload > 0) {
    const double further = (batch * machine.costs.receive_call_batched - machine.costs.receive_call) / (batch - 1);
    layer.O = std::max(0.0, further) / payload / clock;
  }
  return layer;
}

double rendezvous_cycles(const Machine& machine, double message_bytes) {
  const auto& layer = machine.message_layer;
  if (!layer || layer->S <= 0 || message_bytes <= layer->S) return 0;
  return (layer->o_send + layer->o_recv) * machine.clock_hz;
}

MessageLayer read_message_layer(ObjectReader& section) {
  MessageLayer layer;
  for (const auto& field : kLayerFields) {
    section.skip(field.name);
    if (field.required || section.has(field.name)) layer.*field.member = section.number(field.name);
  }
  layer.processes_per_node = section.has("processes_per_node") ? section.count("processes_per_node") : 1;
  section.skip("processes_per_node");
  if (layer.o_send <= 0 || layer.o_recv <= 0 || layer.g <= 0) {
    ObjectReader::fail("message_layer", "needs o_send, o_recv and g above zero: a message costs its process time");
  }
  section.reject_unknown();
  return layer;
}

nlohmann::ordered_json message_layer_json(const MessageLayer& layer) {
  nlohmann::ordered_json section = nlohmann::ordered_json::object();
  for (const auto& field : kLayerFields) {
    if (field.required || layer.*field.member != 0) section[field.name] = layer.*field.member;
  }
  section["processes_per_node"] = layer.processes_per_node;
  return section;
}

double layer_figure(const MessageLayer& layer, const std::string& name) {
  for (const auto& field : kLayerFields) {
    if (name == field.name) return layer.*field.member;
  }
  throw std::invalid_argument("message_layer has no figure '" + name + "'");
}

void refuse_derived_from_layer(ObjectReader& section, const std::string& key, const std::string& field) {
  section.skip(key);
  if (section.has(key)) {
    ObjectReader::fail(field, "is derived from message_layer, which the file gives: give the layer or the cycle "
                              "costs, not both (docs/models.md, 'The message layer')");
  }
}

bool derived_from_message_layer(const std::string& field) {
  for (const char* name : {"costs_cycles.send_call", "costs_cycles.receive_call", "costs_cycles.receive_call_batched",
                           "costs_cycles.routing_hop", "node.messaging_unit.descriptor_cycles",
                           "node.messaging_unit.packet_receive_cycles", "node.messaging_unit.packets_per_s"}) {
    if (field == name) return true;
  }
  return false;
}

}  // namespace gups::model
