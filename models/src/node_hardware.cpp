#include "models/src/node_hardware.hpp"

#include <algorithm>
#include <string>

#include "models/src/message_layer.hpp"
#include "models/src/object_reader.hpp"

namespace gups::model {

double shared_core_cycles(const std::vector<ThreadLoad>& threads) {
  double own = 0, issued = 0;
  for (const auto& thread : threads) {
    own = std::max(own, thread.issue + thread.wait);
    issued += thread.issue;
  }
  return std::max(own, issued);
}

unsigned core_of_thread(unsigned thread, unsigned cores) noexcept { return cores ? thread % cores : 0; }

namespace {

// The messaging unit's numbers the message layer derives: absent then, else required.
double unit_cost(ObjectReader& unit, const char* key, bool from_layer, bool positive = false) {
  if (!from_layer) return unit.number(key, positive);
  refuse_derived_from_layer(unit, key, std::string("node.messaging_unit.") + key);
  return 0;
}

}  // namespace

NodeHardware read_node_hardware(ObjectReader& node, bool messaging_from_layer) {
  NodeHardware hardware;
  // Known whether or not given, so that a misspelling is told which it meant.
  for (const char* key : {"threads_per_core", "update_issue_cycles", "messaging_unit", "near_memory_updates"}) {
    node.skip(key);
  }
  if (node.has("threads_per_core")) hardware.threads_per_core = node.count("threads_per_core");
  if (hardware.threaded()) {
    hardware.update_issue_cycles = node.number("update_issue_cycles");
  } else if (node.has("update_issue_cycles")) {
    ObjectReader::fail("node.update_issue_cycles", "needs node.threads_per_core above 1: it is what a core issues "
                                                   "of an update while its other threads wait");
  }
  if (node.has("messaging_unit")) {
    ObjectReader unit(node.child("messaging_unit"), "node.messaging_unit");
    const bool layer = messaging_from_layer;
    hardware.messaging_unit = MessagingUnit{.descriptor_cycles = unit_cost(unit, "descriptor_cycles", layer),
                                            .packet_receive_cycles = unit_cost(unit, "packet_receive_cycles", layer),
                                            .packets_per_s = unit_cost(unit, "packets_per_s", layer, true),
                                            .injection_fifos = unit.count("injection_fifos"),
                                            .reception_fifos = unit.count("reception_fifos")};
    unit.reject_unknown();
  }
  if (node.has("near_memory_updates")) {
    ObjectReader near(node.child("near_memory_updates"), "node.near_memory_updates");
    hardware.near_memory = NearMemoryUpdates{.issue_cycles = near.number("issue_cycles"),
                                             .updates_per_s = near.number("updates_per_s", true)};
    near.reject_unknown();
  }
  node.reject_unknown();
  return hardware;
}

nlohmann::ordered_json node_hardware_json(const NodeHardware& node, bool messaging_from_layer) {
  using ordered = nlohmann::ordered_json;
  ordered section = ordered::object();
  if (node.threaded()) {
    section["threads_per_core"] = node.threads_per_core;
    section["update_issue_cycles"] = node.update_issue_cycles;
  }
  if (const auto& unit = node.messaging_unit) {
    auto& written = section["messaging_unit"] = ordered::object();
    if (!messaging_from_layer) {
      written["descriptor_cycles"] = unit->descriptor_cycles;
      written["packet_receive_cycles"] = unit->packet_receive_cycles;
      written["packets_per_s"] = unit->packets_per_s;
    }
    written["injection_fifos"] = unit->injection_fifos;
    written["reception_fifos"] = unit->reception_fifos;
  }
  if (const auto& near = node.near_memory) {
    section["near_memory_updates"] = ordered{{"issue_cycles", near->issue_cycles}, {"updates_per_s", near->updates_per_s}};
  }
  return section.empty() ? ordered() : section;
}

}  // namespace gups::model
