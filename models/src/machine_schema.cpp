#include "models/src/machine_schema.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace gups::model {
namespace {

// A machine with no figure of its own takes Blue Gene/P's cycles (the paper
// 4.1, 5.2): the only machine whose messaging costs per call are printed.
std::optional<double> cycles(double value) { return value; }

#define GUPS_COST(member, unit, meaning, fallback, fallback_text, follows)                                \
  InputField {                                                                                            \
    "costs_cycles." #member, unit, meaning, false, false, fallback, fallback_text, follows,               \
        [](const Machine& m) { return m.costs.member; }, [](Machine& m, double v) { m.costs.member = v; } \
  }

double slowest_overhead(const Machine& m) {
  return m.costs.core_overhead.empty() ? 0 : *std::max_element(m.costs.core_overhead.begin(), m.costs.core_overhead.end());
}

void scale_overheads(Machine& m, double slowest) {
  const double now = slowest_overhead(m);
  for (auto& overhead : m.costs.core_overhead) overhead = now > 0 ? overhead * slowest / now : slowest;
}

bool threaded(const Machine& m) { return m.node.threaded(); }
bool has_messaging_unit(const Machine& m) { return m.node.messaging_unit.has_value(); }
bool has_near_memory(const Machine& m) { return m.node.near_memory.has_value(); }

// A number of one of the node's optional parts (messaging_unit, near_memory):
// an input only where the machine has that part.
#define GUPS_NODE_PART(part, section, applies, member, unit, meaning)                                     \
  InputField {                                                                                             \
    "node." section "." #member, unit, meaning, false, false, nullptr, "", nullptr,                        \
        [](const Machine& m) { return m.node.part ? m.node.part->member : 0.0; },                          \
        [](Machine& m, double v) {                                                                         \
          if (m.node.part) m.node.part->member = v;                                                        \
        },                                                                                                 \
        true, applies, "with node." section                                                                \
  }
#define GUPS_UNIT(member, unit, meaning) \
  GUPS_NODE_PART(messaging_unit, "messaging_unit", has_messaging_unit, member, unit, meaning)
#define GUPS_NEAR(member, unit, meaning) \
  GUPS_NODE_PART(near_memory, "near_memory_updates", has_near_memory, member, unit, meaning)

// The node's optional parts (node_hardware.hpp): inputs only where the file has them.
void add_node_fields(std::vector<InputField>& fields) {
  fields.push_back({"node.threads_per_core", "threads", "hardware threads a core runs, sharing its issue", true,
                    false, [](const Machine&) { return cycles(1); }, "1: one thread a core", nullptr,
                    [](const Machine& m) { return static_cast<double>(m.node.threads_per_core); },
                    [](Machine& m, double v) { m.node.threads_per_core = static_cast<unsigned>(v); }, false});
  fields.push_back({"node.update_issue_cycles", "cycles",
                    "of an update's cycles, those its core issues; the rest wait on memory while other threads issue",
                    false, false, nullptr, "", nullptr, [](const Machine& m) { return m.node.update_issue_cycles; },
                    [](Machine& m, double v) { m.node.update_issue_cycles = v; }, true, threaded,
                    "with node.threads_per_core above 1"});
  fields.push_back(GUPS_UNIT(descriptor_cycles, "cycles", "a core's cost of one message's descriptor, any size"));
  fields.push_back(GUPS_UNIT(packet_receive_cycles, "cycles", "a core's cost of one packet taken from a reception FIFO"));
  fields.push_back(GUPS_UNIT(packets_per_s, "packets/s", "packets the messaging unit injects a second (as many received)"));
  fields.push_back(GUPS_NEAR(issue_cycles, "cycles", "a core's cost of issuing one atomic update"));
  fields.push_back(GUPS_NEAR(updates_per_s, "updates/s", "atomic updates the node's memory side applies a second"));
}

#undef GUPS_UNIT
#undef GUPS_NEAR
#undef GUPS_NODE_PART

// costs_cycles: a core's cycles per operation.
void add_cost_fields(std::vector<InputField>& fields) {
  const std::vector<InputField> costs{
      GUPS_COST(generate, "cycles", "tg: one stream step and its owner", [](const Machine&) { return cycles(2); },
                "2, Blue Gene/P's (paper 5.2)", nullptr),
      GUPS_COST(update, "cycles", "tu: one table update, one miss at a time (routing loops)",
                [](const Machine& m) { return cycles(std::round((m.memory_latency_s > 0 ? m.memory_latency_s : 100e-9) * m.clock_hz)); },
                "memory_latency_s x clock_hz (100 ns without it): one miss to memory", nullptr),
      GUPS_COST(update_streamed, "cycles", "tu in a tight loop of updates (direct), where misses may overlap",
                [](const Machine& m) { return cycles(m.costs.update); }, "update: no misses overlapped", "update"),
      GUPS_COST(update_all_cores, "cycles", "update when every core of the node updates at once",
                [](const Machine& m) { return cycles(m.costs.update); }, "update: the cores do not slow each other",
                "update"),
      GUPS_COST(update_streamed_all_cores, "cycles", "update_streamed when every core updates at once",
                [](const Machine& m) { return cycles(m.costs.update_streamed); }, "update_streamed",
                "update_streamed"),
      GUPS_COST(loop_overhead, "cycles", "tos: the loop around each update", [](const Machine&) { return cycles(0); },
                "0, folded into generate as the paper does", nullptr),
      GUPS_COST(send_call, "cycles", "ts: one send call, any size", [](const Machine&) { return cycles(150); },
                "150, Blue Gene/P's (paper 4.1)", nullptr),
      GUPS_COST(receive_call, "cycles", "one receive call of one packet", [](const Machine&) { return cycles(600); },
                "600, Blue Gene/P's (paper 4.1)", nullptr),
      GUPS_COST(receive_call_batched, "cycles", "per packet when receive_batch_packets come in one call",
                [](const Machine&) { return cycles(330); }, "330, Blue Gene/P's (paper 4.3.1)", nullptr),
      InputField{"costs_cycles.receive_batch_packets", "packets", "packets one batched receive call takes", true,
                 false, [](const Machine&) { return cycles(4); }, "4, Blue Gene/P's (paper 4.3.1)", nullptr,
                 [](const Machine& m) { return static_cast<double>(m.costs.receive_batch_packets); },
                 [](Machine& m, double v) { m.costs.receive_batch_packets = static_cast<unsigned>(v); }, false},
      GUPS_COST(routing_hop, "cycles", "single core: ts + tr + top of one software hop, per update",
                [](const Machine&) { return cycles(162); }, "162, Blue Gene/P's (paper 5.2)", nullptr),
      GUPS_COST(message_overhead, "cycles", "direct: top per update sent and received",
                [](const Machine&) { return cycles(152); }, "152, Blue Gene/P's (derived from paper 5.2)", nullptr),
      GUPS_COST(routing_hop_without_calls, "cycles", "a simulated routed core's hop besides its calls",
                [](const Machine& m) { return cycles(m.costs.message_overhead); }, "message_overhead",
                "message_overhead"),
      InputField{"costs_cycles.core_overhead", "cycles",
                 "multicore: top per update, one figure or one per core of the fixed rule's plan", false, true,
                 [](const Machine&) { return cycles(90); }, "90 for every core, about Blue Gene/P's routing cores'",
                 nullptr, slowest_overhead, scale_overheads},
      GUPS_COST(owner_division, "cycles", "an owner found by integer division (node count not a power of two)",
                [](const Machine&) { return cycles(100); }, "100, Blue Gene/P's file", nullptr),
      GUPS_COST(owner_prediction, "cycles", "an owner found by the paper's prediction (4.2)",
                [](const Machine&) { return cycles(20); }, "20, Blue Gene/P's file", nullptr),
  };
  fields.insert(fields.end(), costs.begin(), costs.end());
  // The hypercube's own: no file before it gave one.
  fields.push_back(GUPS_COST(
      stage_split, "cycles",
      "hypercube: one update looked at in one stage, its half told by its index and the update stored to keep or send",
      [](const Machine& m) { return cycles(2 * m.costs.generate); },
      "2 x generate (assumed, no measurement published: a load, a test and a store, about two stream steps)",
      "generate"));
}

bool has_message_layer(const Machine& m) { return m.message_layer.has_value(); }
bool without_message_layer(const Machine& m) { return !m.message_layer; }
bool unit_without_message_layer(const Machine& m) { return has_messaging_unit(m) && !m.message_layer; }

bool layer_gives_O(const Machine& m) { return m.message_layer && m.message_layer->O > 0; }
bool layer_gives_S(const Machine& m) { return m.message_layer && m.message_layer->S > 0; }

#define GUPS_LAYER(member, unit, meaning, applies, applies_text)                                               \
  InputField {                                                                                                 \
    "message_layer." #member, unit, meaning, false, false, nullptr, "", nullptr,                               \
        [](const Machine& m) { return m.message_layer ? m.message_layer->member : 0.0; },                      \
        [](Machine& m, double v) {                                                                             \
          if (m.message_layer) m.message_layer->member = v;                                                    \
        },                                                                                                     \
        true, applies, applies_text                                                                    \
  }

// The message layer (message_layer.hpp): where a file gives it, the calls'
// costs and the messaging unit's follow from it and are no inputs of their own.
void add_message_layer_fields(std::vector<InputField>& fields) {
  const char* with_layer = "with message_layer";
  fields.push_back(GUPS_LAYER(L, "s", "LogGP L: a small message's one-way latency between neighbours, less both o",
                              has_message_layer, with_layer));
  fields.push_back(GUPS_LAYER(o_send, "s", "LogGP o: a process's time in the call that sends a small message",
                              has_message_layer, with_layer));
  fields.push_back(GUPS_LAYER(o_recv, "s", "LogGP o: a process's time in the call that takes a small message",
                              has_message_layer, with_layer));
  fields.push_back(GUPS_LAYER(g, "s", "LogGP g: a process's least time between small messages (1 / its rate)",
                              has_message_layer, with_layer));
  fields.push_back(GUPS_LAYER(G, "s/B", "LogGP G: a process's time per byte of a long message", has_message_layer,
                              with_layer));
  fields.push_back(GUPS_LAYER(O, "s/B", "LogGOPS O: the cores' time per byte beyond a small message's (optional)",
                              layer_gives_O, "with message_layer.O"));
  fields.push_back(GUPS_LAYER(S, "B", "LogGOPS S: longer messages go by rendezvous (optional; absent: none does)",
                              layer_gives_S, "with message_layer.S"));
  for (auto& field : fields) {
    if (!derived_from_message_layer(field.name)) continue;
    const bool unit_field = std::string(field.name).starts_with("node.");
    field.applies = unit_field ? unit_without_message_layer : without_message_layer;
    field.applies_text = unit_field ? "with node.messaging_unit, without message_layer" : "without message_layer";
  }
}

#undef GUPS_LAYER

std::vector<InputField> make_fields() {
  std::vector<InputField> fields{
      {"clock_hz", "Hz", "clock of one core", false, false, nullptr, "", nullptr,
       [](const Machine& m) { return m.clock_hz; }, [](Machine& m, double v) { m.clock_hz = v; }},
      {"memory_latency_s", "s", "one random access to memory, missing every cache (sets update's default)", false,
       false, [](const Machine&) { return std::optional<double>(); }, "none: update takes 100 ns of cycles",
       nullptr, [](const Machine& m) { return m.memory_latency_s; },
       [](Machine& m, double v) { m.memory_latency_s = v; }, false},
      {"memory_per_node_bytes", "B", "a node's memory (it sizes tables; the bounds do not use it)", false, false,
       [](const Machine& m) { return cycles(std::ldexp(1.0, 30) * std::max(1u, m.cores_per_node)); },
       "1 GiB a core", nullptr, [](const Machine& m) { return m.memory_per_node_bytes; },
       [](Machine& m, double v) { m.memory_per_node_bytes = v; }, false},
      {"torus.max_side", "nodes", "the longest side the balanced shape rule may give (a shape rule, not a fact)", true,
       false, [](const Machine&) { return cycles(128); }, "128, as Blue Gene/P's file", nullptr,
       [](const Machine& m) { return static_cast<double>(m.torus.max_side); },
       [](Machine& m, double v) { m.torus.max_side = static_cast<std::uint32_t>(v); }, false},
      {"network.link_bandwidth_bytes_per_s", "B/s", "one link, each way", false, false, nullptr, "", nullptr,
       [](const Machine& m) { return m.link_bandwidth; }, [](Machine& m, double v) { m.link_bandwidth = v; }},
      {"network.link_latency_s", "s", "one link's latency (the simulation's, and the hypercube's stages wait on it)", false,
       false, nullptr, "", nullptr, [](const Machine& m) { return m.link_latency; },
       [](Machine& m, double v) { m.link_latency = v; }},
      {"network.efficiency", "", "the share of the network bound (the lower of 4B/b and the routes') the network "
       "delivers under the algorithms' traffic: contention the busiest links' count leaves out", false, false,
       [](const Machine&) { return cycles(1); }, "1: the bound as routed", nullptr,
       [](const Machine& m) { return m.network_efficiency; }, [](Machine& m, double v) { m.network_efficiency = v; },
       true, [](const Machine& m) { return m.network_efficiency_given; }, "where the file gives it"},
      {"torus.mesh_below_nodes", "nodes",
       "partitions of fewer nodes have no wrap-around links (a structural unknown where no source says)", true,
       false, [](const Machine&) { return cycles(0); }, "0: every partition wraps", nullptr,
       [](const Machine& m) { return static_cast<double>(m.torus.mesh_below_nodes); },
       [](Machine& m, double v) { m.torus.mesh_below_nodes = static_cast<std::uint64_t>(v); }},
      {"packet.header_bytes", "B", "header of each packet", true, false, [](const Machine&) { return cycles(0); },
       "0 in a packet section; without the section, Blue Gene/P's packets (256, 32, 16, 14, 8)", nullptr,
       [](const Machine& m) { return static_cast<double>(m.packet.header_bytes); },
       [](Machine& m, double v) { m.packet.header_bytes = static_cast<unsigned>(v); }},
      {"packet.ack_bytes", "B", "acknowledgement each packet costs its link", true, false,
       [](const Machine&) { return cycles(0); }, "as packet.header_bytes", nullptr,
       [](const Machine& m) { return static_cast<double>(m.packet.ack_bytes); },
       [](Machine& m, double v) { m.packet.ack_bytes = static_cast<unsigned>(v); }},
  };
  add_cost_fields(fields);
  add_node_fields(fields);
  add_message_layer_fields(fields);
  return fields;
}

#undef GUPS_COST

}  // namespace

const std::vector<InputField>& input_fields() {
  static const std::vector<InputField> fields = make_fields();
  return fields;
}

std::string field_name(const InputField& field, const Machine& machine) {
  const std::string name = field.name;
  if (name.starts_with("network.")) return std::string(machine.topology->name) + name.substr(7);
  return name;
}

const InputField* input_field(const std::string& name, const Machine& machine) {
  for (const auto& field : input_fields()) {
    if (field_name(field, machine) == name) return &field;
  }
  return nullptr;
}

void set_input(Machine& machine, const InputField& field, double value) {
  field.set(machine, field.whole ? std::round(value) : value);
  for (const auto& other : input_fields()) {
    if (other.follows == nullptr || std::string("costs_cycles.") + other.follows != field.name) continue;
    const auto defaulted = std::find(machine.defaulted.begin(), machine.defaulted.end(), other.name);
    if (defaulted != machine.defaulted.end()) set_input(machine, other, value);
  }
  apply_message_layer(machine);  // the derived costs follow the layer and the clock
}

Machine with_input(Machine machine, const InputField& field, double value) {
  set_input(machine, field, value);
  return machine;
}

nlohmann::ordered_json schema_document(const Machine& example) {
  auto rows = nlohmann::ordered_json::array();
  for (const auto& field : input_fields()) {
    nlohmann::ordered_json row{{"field", field_name(field, example)}, {"unit", field.unit}, {"meaning", field.meaning}};
    row["required"] = field.fallback == nullptr && field.applies == nullptr;  // a part's fields: required in its section
    if (field.fallback) row["default"] = field.fallback_text;
    row["ranged"] = field.ranged;
    if (field.applies) row["only"] = field.applies_text;
    if (field.whole) row["whole"] = true;
    rows.push_back(row);
  }
  return rows;
}

}  // namespace gups::model
