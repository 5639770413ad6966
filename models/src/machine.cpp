#include "models/src/machine.hpp"

#include "models/src/machine_network.hpp"
#include "models/src/machine_schema.hpp"
#include "models/src/object_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

namespace gups::model {
namespace {

using nlohmann::json;

inline constexpr const char* kMachineSchema = "torus-gups/machine/1";

void read_network(ObjectReader& top, const json& document, Machine& machine) {
  for (const auto* topology : topologies()) top.skip(topology->name);  // read_network_section reads them
  read_network_section(document, machine);
  top.skip("packet");
  if (!top.has("packet")) {  // Blue Gene/P's packets (paper 4.1), each field named as left out
    machine.packet = {256, 32, 16, 14, 8};
    for (const auto& field : kPacketFields) machine.defaulted.push_back(std::string("packet.") + field.name);
  } else {
    ObjectReader packet(top.child("packet"), "packet");
    for (const auto& field : kPacketFields) {
      machine.packet.*field.member = field.required ? packet.count(field.name) : packet.count(field.name, 0);
    }
    packet.reject_unknown();
  }
  if (top.has("network_levels")) {
    const auto& levels = top.child("network_levels");
    if (!levels.is_object()) ObjectReader::fail("network_levels", "must be an object of levels' parameters");
    for (const auto& [level, parameters] : levels.items()) {
      if (!parameters.is_object()) ObjectReader::fail("network_levels." + level, "must be an object");
    }
    machine.network_levels = levels;
  }
  const auto& p = machine.packet;
  if (p.max_bytes < p.header_bytes + p.update_bytes) {
    ObjectReader::fail("packet.max_bytes", "leaves no room for one update after the header");
  }
}

// Collects a file's problems, so that one run names them all.
class Problems {
 public:
  template <typename Read>
  void check(Read&& read) {
    try {
      read();
    } catch (const std::invalid_argument& e) {
      list.emplace_back(e.what());
    }
  }
  void throw_if_any() const {
    if (list.size() == 1) throw std::invalid_argument(list.front());
    if (!list.empty()) {
      throw std::invalid_argument(fmt::format("{} problems:\n  {}", list.size(), fmt::join(list, "\n  ")));
    }
  }
  std::vector<std::string> list;
};

void read_core_overhead(ObjectReader& costs, Machine& machine) {
  auto& c = machine.costs;
  const auto& overheads = costs.child("core_overhead");
  if (overheads.is_number()) {  // one figure for every core
    c.core_overhead_uniform = true;
    c.core_overhead.assign(machine.cores_per_node, costs.number("core_overhead"));
    return;
  }
  if (!overheads.is_array() || overheads.empty()) {
    // A list is of the cores of the fixed rule's plan on as many cores as it
    // lists (the calibrated plan); other plans and core counts average it by
    // kind (Machine::core_overheads).
    ObjectReader::fail("costs_cycles.core_overhead",
                       "must give one number for every core, or list the costs of the cores of the plan they were "
                       "measured on (the fixed rule's on that many cores: bgp lists 4)");
  }
  for (std::size_t i = 0; i < overheads.size(); ++i) {
    const auto& x = overheads[i];
    if (!x.is_number() || x.get<double>() < 0) {
      ObjectReader::fail(fmt::format("costs_cycles.core_overhead[{}]", i), "must be a number, not negative");
    }
    c.core_overhead.push_back(x.get<double>());
  }
}

// Each cost of the schema: the file's, else its default (named in machine.defaulted);
// those the file's message layer derives are set from it (apply_message_layer).
void read_costs(ObjectReader& top, Machine& machine, Problems& problems) {
  static const json kNone = json::object();
  top.skip("costs_cycles");
  ObjectReader costs(top.has("costs_cycles") ? top.child("costs_cycles") : kNone, "costs_cycles");
  for (const auto& field : input_fields()) {
    const std::string name = field.name;
    if (!name.starts_with("costs_cycles.")) continue;
    const auto key = name.substr(std::string("costs_cycles.").size());
    problems.check([&] {
      if (machine.message_layer && derived_from_message_layer(name)) {
        refuse_derived_from_layer(costs, key, name);
      } else if (!costs.has(key)) {
        costs.skip(key);
        const double value = *field.fallback(machine);
        if (field.list) {
          machine.costs.core_overhead_uniform = true;
          machine.costs.core_overhead.assign(machine.cores_per_node, value);
        } else {
          field.set(machine, value);
        }
        machine.defaulted.push_back(name);
      } else if (field.list) {
        read_core_overhead(costs, machine);
      } else {
        field.set(machine, field.whole ? costs.count(key) : costs.number(key));
      }
    });
  }
  problems.check([&] { costs.reject_unknown(); });
}

constexpr const char* kCoreOverhead = "core_overhead";

// A single-number cost by its name in costs_cycles; null for core_overhead,
// for counts and for names that are no cost.
const InputField* cost_field(const std::string& name) {
  for (const auto& field : input_fields()) {
    if (!field.list && !field.whole && std::string(field.name) == "costs_cycles." + name) return &field;
  }
  return nullptr;
}

// The field of a named cost that is not core_overhead; throws for a name that is no cost.
const InputField& single_cost(const std::string& name) {
  const auto* field = cost_field(name);
  if (field == nullptr) throw std::invalid_argument(fmt::format("no cost named '{}'", name));
  return *field;
}

void read_cost_spread(ObjectReader& top, Machine& machine) {
  if (!top.has("costs_cycles_spread")) return;
  const auto& spread = top.child("costs_cycles_spread");
  if (!spread.is_object()) ObjectReader::fail("costs_cycles_spread", "must be an object");
  for (const auto& [key, value] : spread.items()) {
    const auto field = "costs_cycles_spread." + key;
    if (key != kCoreOverhead && cost_field(key) == nullptr) {
      ObjectReader::fail(field, fmt::format("is not a cost (costs: {})", fmt::join(cost_names(), ", ")));
    }
    if (!value.is_number() || value.get<double>() < 0) ObjectReader::fail(field, "must be a number, not negative");
    machine.cost_spread[key] = value.get<double>();
  }
}

void read_data_access(ObjectReader& top, Machine& machine) {
  if (!top.has("data_access_cycles")) return;
  ObjectReader cycles(top.child("data_access_cycles"), "data_access_cycles");
  machine.data_access = DataAccessCycles{
      .block_start = cycles.number("block_start"), .word = cycles.number("word"), .poll = cycles.number("poll")};
  cycles.reject_unknown();
}

std::uint64_t node_count_key(const std::string& field, const std::string& key) {
  try {
    std::size_t used = 0;
    const auto nodes = std::stoull(key, &used);
    if (used == key.size() && nodes > 0) return nodes;
  } catch (const std::exception&) {
  }
  ObjectReader::fail(field, "must be keyed by a node count");
}

// {"64": value, ...} with each value checked by `valid`.
template <typename Value, typename Check>
std::map<std::uint64_t, Value> per_node_count(const json& object, const std::string& path, Check valid,
                                              const char* expected) {
  if (!object.is_object()) ObjectReader::fail(path, "must be an object keyed by node counts");
  std::map<std::uint64_t, Value> values;
  for (const auto& [key, value] : object.items()) {
    const auto field = path + "." + key;
    const auto nodes = node_count_key(field, key);
    if (!valid(value)) ObjectReader::fail(field, expected);
    values[nodes] = value.template get<Value>();
  }
  return values;
}

// The references (the paper's bounds and measurements, its bucket sizes)
// belong to the machine they were measured on; a file whose name, cores,
// clock or links are not that machine's keeps none of them. The costs are
// left out of the comparison: they are the model's inputs, which explain
// and the studies vary on purpose on the same machine.
void check_references_belong(const json& document, Machine& machine) {
  if (machine.reference_gups.empty() && machine.reference_bucket_sizes.empty()) return;
  std::vector<std::string> carried;
  if (!machine.reference_gups.empty()) carried.emplace_back("reference_gups");
  if (!machine.reference_bucket_sizes.empty()) carried.emplace_back("reference_bucket_sizes");
  constexpr const char* kWhatToDo =
      "left out (delete them from a machine of your own, or say in references_of which machine they belong to; "
      "docs/machine-files.md)";
  std::vector<std::string> differ;
  std::string measured_on;
  if (!document.contains("references_of")) {
    machine.warnings.push_back(fmt::format("machine '{}' carries {} and no references_of (the machine they were "
                                           "measured on): {}",
                                           machine.name, fmt::join(carried, " and "), kWhatToDo));
  } else {
    const auto& of = document.at("references_of");
    if (!of.is_object()) ObjectReader::fail("references_of", "must be an object");
    if (of.contains("name") && of.at("name").is_string()) measured_on = of.at("name").get<std::string>();
    // What the references depend on, as this file has it: each compared with references_of's.
    const std::pair<std::string, double> own[] = {{"cores_per_node", machine.cores_per_node},
                                                  {"clock_hz", machine.clock_hz},
                                                  {"link_bandwidth_bytes_per_s", machine.link_bandwidth},
                                                  {"link_latency_s", machine.link_latency}};
    for (const auto& [key, value] : of.items()) {
      const bool known = key == "name" || std::any_of(std::begin(own), std::end(own),
                                                      [&](const auto& field) { return field.first == key; });
      if (!known) ObjectReader::fail("references_of." + key, "is not a known field");
    }
    if (measured_on != machine.name) differ.emplace_back("name");
    for (const auto& [key, mine] : own) {
      if (!of.contains(key)) {
        differ.push_back(key);
        continue;
      }
      if (!of.at(key).is_number()) ObjectReader::fail("references_of." + key, "must be a number");
      const double theirs = of.at(key).get<double>();
      if (std::abs(theirs - mine) > 1e-9 * std::max(std::abs(theirs), std::abs(mine))) differ.push_back(key);
    }
    if (differ.empty()) {
      machine.references_of = nlohmann::ordered_json::parse(of.dump());
      return;
    }
    // A bucket's size is the node's (its look-ahead over its buckets): other links leave it the same machine's,
    // so a what-if that moves a link keeps the bucket sizes its runs ask for, and drops only the GUPS measured.
    const bool links_only = std::all_of(differ.begin(), differ.end(), [](const std::string& key) {
      return key == "link_bandwidth_bytes_per_s" || key == "link_latency_s";
    });
    if (links_only && !machine.reference_bucket_sizes.empty()) {
      if (!machine.reference_gups.empty()) {
        machine.warnings.push_back(fmt::format(
            "machine '{}' carries reference_gups of {}, and its {} {} from theirs: left out (its "
            "reference_bucket_sizes, the node's, are kept)",
            machine.name, measured_on.empty() ? "an unnamed machine" : measured_on, fmt::join(differ, ", "),
            differ.size() == 1 ? "differs" : "differ"));
      }
      machine.reference_gups.clear();
      return;
    }
    machine.warnings.push_back(fmt::format("machine '{}' carries {} of {}, and its {} {} from theirs: {}",
                                           machine.name, fmt::join(carried, " and "),
                                           measured_on.empty() ? "an unnamed machine" : measured_on,
                                           fmt::join(differ, ", "), differ.size() == 1 ? "differs" : "differ",
                                           kWhatToDo));
  }
  machine.reference_gups.clear();
  machine.reference_bucket_sizes.clear();
}

void read_references(ObjectReader& top, Machine& machine) {
  top.skip("references_of");
  if (top.has("reference_bucket_sizes")) {
    machine.reference_bucket_sizes = per_node_count<unsigned>(
        top.child("reference_bucket_sizes"), "reference_bucket_sizes",
        [](const json& v) { return v.is_number_integer() && v.get<long long>() >= 1; },
        "must be a whole number >= 1");
  }
  if (top.has("reference_gups")) {
    const auto& series = top.child("reference_gups");
    if (!series.is_object()) ObjectReader::fail("reference_gups", "must be an object");
    for (const auto& [name, values] : series.items()) {
      machine.reference_gups[name] = per_node_count<double>(
          values, "reference_gups." + name,
          [](const json& v) { return v.is_number() && v.get<double>() >= 0; },
          "must be a number, not negative");
    }
  }
  top.skip("sources");  // read_sources reads them, each on its own
}

// A sources key names a field of the file, an input the file left out, or
// a section ("packet", "torus.partitions").
bool names_a_field(const json& document, const Machine& machine, const std::string& key) {
  if (input_field(key, machine) != nullptr) return true;
  if (std::find(machine.defaulted.begin(), machine.defaulted.end(), key) != machine.defaulted.end()) return true;
  const json* at = &document;
  std::size_t from = 0;
  while (from <= key.size()) {
    const auto dot = key.find('.', from);
    const auto part = key.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
    if (!at->is_object() || !at->contains(part)) return false;
    at = &at->at(part);
    if (dot == std::string::npos) return true;
    from = dot + 1;
  }
  return false;
}

// Every dotted path of the document, for a misspelt sources key's hint.
void field_paths(const json& value, const std::string& prefix, std::vector<std::string>& paths) {
  if (!value.is_object()) return;
  for (const auto& [key, child] : value.items()) {
    const auto path = prefix.empty() ? key : prefix + "." + key;
    paths.push_back(path);
    if (key != "sources" && key != "notes") field_paths(child, path, paths);
  }
}

void read_sources(const json& document, Machine& machine, Problems& problems) {
  if (!document.contains("sources")) return;
  const auto& sources = document.at("sources");
  if (!sources.is_object()) return problems.check([] { ObjectReader::fail("sources", "must be an object"); });
  std::vector<std::string> paths, stale;
  field_paths(document, "", paths);
  for (const auto& [key, value] : sources.items()) {
    problems.check([&] {
      // A program that writes a variant records what it set under its own name (explain.*, study.*).
      const bool record = key.starts_with("explain.") || key.starts_with("study.");
      if (!record && !names_a_field(document, machine, key)) {
        std::string hint;
        for (const auto& path : paths) {
          if (edit_distance(path, key) <= 3) hint = fmt::format(" (did you mean '{}'?)", path);
        }
        stale.push_back(key + hint);
      }
      if (value.is_string()) {
        machine.sources[key] = InputSource(value.get<std::string>());
      } else if (value.is_object() && value.contains("source") && value.at("source").is_string()) {
        machine.sources[key] = InputSource(value.at("source").get<std::string>(), nlohmann::ordered_json::parse(value.dump()));
      } else {
        ObjectReader::fail("sources." + key, "must be a string, or an object with kind and source (and what sets "
                                              "its range; docs/machine-files.md)");
      }
    });
  }
  if (!stale.empty()) {
    machine.warnings.push_back(fmt::format("machine '{}': sources name no field of the file: {}", machine.name,
                                           fmt::join(stale, ", ")));
  }
}

// Outputs name every input a file left out or gave no source for; the loader says so once.
// A structural unknown's values name partition sizes (mesh_below_nodes: partitions of that many nodes and more
// wrap); a value that is no partition this file lists, and lies above its smallest, was likely carried from the
// file of another machine (K's 82,944, "only the full machine wraps", in a copy whose full machine is larger).
void warn_of_foreign_sizes(Machine& machine) {
  const auto& partitions = machine.torus.partitions;
  if (partitions.empty() || !machine.topology->is_virtual_torus) return;
  std::vector<double> values{static_cast<double>(machine.torus.mesh_below_nodes)};
  for (const auto& range : machine.ranges) {
    if (range.field == "torus.mesh_below_nodes") values.insert(values.end(), range.values.begin(), range.values.end());
  }
  std::vector<std::string> foreign;
  for (const double v : values) {
    const auto nodes = static_cast<std::uint64_t>(v);
    if (v >= kEveryPartitionMeshes || nodes <= partitions.begin()->first || partitions.count(nodes)) continue;
    const auto text = fmt::format("{}", nodes);
    if (std::find(foreign.begin(), foreign.end(), text) == foreign.end()) foreign.push_back(text);
  }
  if (foreign.empty()) return;
  machine.warnings.push_back(fmt::format(
      "machine '{}': torus.mesh_below_nodes names {} node(s), no partition this file lists (its partitions run from "
      "{} to {}): a size carried from another machine's file? (partitions of that many nodes and more wrap)",
      machine.name, fmt::join(foreign, ", "), partitions.begin()->first, partitions.rbegin()->first));
}

void warn_of_assumptions(Machine& machine) {
  std::vector<std::string> defaulted, unsourced, unranged, stretched;
  for (const auto& name : machine.defaulted) {
    const auto* field = input_field(name, machine);
    if (field == nullptr || field->follows == nullptr) defaulted.push_back(name);
  }
  for (const auto& range : machine.ranges) {
    if (range.stretched) stretched.push_back(fmt::format("{} {:g} ({})", range.field, range.value, range.why));
    if (range.unsourced) {
      unsourced.push_back(range.field);
    } else if (!range.defaulted && range.default_range) {
      unranged.push_back(range.field);
    }
  }
  if (!stretched.empty()) {
    machine.warnings.push_back(fmt::format(
        "machine '{}' gives {} input(s) a value outside the range its source states, so the range was stretched "
        "to hold it: {} (a value moved on purpose, as a variant does, is fine; else correct the value or the range)",
        machine.name, stretched.size(), fmt::join(stretched, "; ")));
  }
  if (!unranged.empty()) {
    machine.warnings.push_back(fmt::format(
        "machine '{}' calls {} input(s) assumed without a range, each given a factor of {:g} either way: {} "
        "(give each its range in sources; docs/machine-files.md)",
        machine.name, unranged.size(), kDefaultRangeFactor, fmt::join(unranged, ", ")));
  }
  if (!defaulted.empty()) {
    machine.warnings.push_back(fmt::format(
        "machine '{}' leaves out {} field(s), each taking its default (docs/machine-files.md), those the bounds use "
        "assumed with a range of a factor of {:g} either way: {} (gups-model --explain shows each)",
        machine.name, defaulted.size(), kDefaultRangeFactor, fmt::join(defaulted, ", ")));
  }
  if (!unsourced.empty()) {
    machine.warnings.push_back(fmt::format(
        "machine '{}' gives no source for {} input(s), taken as assumed with a range of a factor of {:g} either "
        "way: {} (say where each comes from in sources; docs/machine-files.md)",
        machine.name, unsourced.size(), kDefaultRangeFactor, fmt::join(unsourced, ", ")));
  }
}

std::string checked_role_plan(const std::string& name, unsigned dimensions) {
  if (name == "paper" || name == "best") return name;
  try {
    return PlanSpec::parse(name, dimensions).to_string();
  } catch (const std::invalid_argument& error) {
    ObjectReader::fail("role_plan", error.what());
  }
}

// "best", or a mode HPCC permits (the paper's Table 1: 1, 6 or 8) as a number.
std::string checked_mapping_mode(const json& value) {
  if (value.is_string() && value.get<std::string>() == "best") return "best";
  if (value.is_number_unsigned()) {
    const auto mode = value.get<unsigned>();
    if (mode == 1 || mode == 6 || mode == 8) return std::to_string(mode);
  }
  ObjectReader::fail("mapping_mode", "must be \"best\" or a mode HPCC permits: 1, 6 or 8 (the paper's Table 1)");
}

Machine parse_machine(const json& document) {
  ObjectReader top(document, "");
  const auto schema = top.text("schema");
  if (schema != kMachineSchema) {
    ObjectReader::fail("schema", fmt::format("is '{}', expected '{}'", schema, kMachineSchema));
  }
  Machine machine;
  Problems problems;
  problems.check([&] { machine.name = top.text("name"); });
  problems.check([&] { machine.description = top.text("description"); });
  problems.check([&] { machine.clock_hz = top.number("clock_hz", true); });
  problems.check([&] { machine.cores_per_node = top.count("cores_per_node"); });
  top.skip("memory_per_node_bytes");
  if (top.has("memory_per_node_bytes")) {
    problems.check([&] { machine.memory_per_node_bytes = top.number("memory_per_node_bytes", true); });
  } else {  // it sizes tables only: 1 GiB a core, named as left out
    machine.memory_per_node_bytes = std::ldexp(1.0, 30) * std::max(1u, machine.cores_per_node);
    machine.defaulted.emplace_back("memory_per_node_bytes");
  }
  top.skip("memory_latency_s");
  if (top.has("memory_latency_s")) problems.check([&] { machine.memory_latency_s = top.number("memory_latency_s", true); });
  // Known whether or not the section that holds them reads to its end, so that one problem is not two.
  for (const char* key : {"packet", "network_levels", "costs_cycles_spread", "data_access_cycles", "references_of",
                          "reference_bucket_sizes", "reference_gups", "sources", "role_plan", "mapping_mode", "node",
                          "notes"}) {
    top.skip(key);
  }
  problems.check([&] { read_network(top, document, machine); });
  top.skip("message_layer");
  if (top.has("message_layer")) {
    problems.check([&] {
      ObjectReader layer(top.child("message_layer"), "message_layer");
      machine.message_layer = read_message_layer(layer);
    });
  }
  read_costs(top, machine, problems);
  if (top.has("node")) {
    problems.check([&] {
      ObjectReader node(top.child("node"), "node");
      machine.node = read_node_hardware(node, machine.message_layer.has_value());
    });
  }
  apply_message_layer(machine);
  if (top.has("mapping_mode")) problems.check([&] { machine.mapping_mode = checked_mapping_mode(top.child("mapping_mode")); });
  problems.check([&] { read_cost_spread(top, machine); });
  problems.check([&] { read_data_access(top, machine); });
  problems.check([&] { read_references(top, machine); });
  read_sources(document, machine, problems);
  if (top.has("role_plan")) {
    problems.check([&] { machine.role_plan = checked_role_plan(top.text("role_plan"), machine.torus.dimensions); });
  }
  if (top.has("notes")) machine.notes = top.child("notes");
  problems.check([&] { top.reject_unknown(); });
  problems.check([&] { check_references_belong(document, machine); });
  machine.ranges = input_ranges(machine, problems.list);
  problems.throw_if_any();
  warn_of_assumptions(machine);
  warn_of_foreign_sizes(machine);
  return machine;
}

std::string resolve(const std::string& name_or_path, const std::vector<std::string>& directories) {
  namespace fs = std::filesystem;
  const bool looks_like_path =
      name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".json");
  if (looks_like_path) return name_or_path;
  std::vector<std::string> known;
  for (const auto& directory : directories) {
    const auto candidate = fs::path(directory) / (name_or_path + ".json");
    if (fs::is_regular_file(candidate)) return candidate.string();
    std::error_code ignored;
    for (const auto& entry : fs::directory_iterator(directory, ignored)) {
      if (entry.path().extension() == ".json") known.push_back(entry.path().stem().string());
    }
  }
  std::sort(known.begin(), known.end());
  known.erase(std::unique(known.begin(), known.end()), known.end());
  throw std::invalid_argument(fmt::format("unknown machine '{}' (known: {}; or give a path to a .json file)",
                                          name_or_path, fmt::join(known, ", ")));
}

template <typename Value>
nlohmann::ordered_json keyed_by_nodes(const std::map<std::uint64_t, Value>& values) {
  nlohmann::ordered_json object = nlohmann::ordered_json::object();
  for (const auto& [nodes, value] : values) object[std::to_string(nodes)] = value;
  return object;
}

}  // namespace

nlohmann::ordered_json to_json(const Machine& machine) {
  using ordered = nlohmann::ordered_json;
  const auto& c = machine.costs;
  const auto& p = machine.packet;
  ordered document{
      {"schema", kMachineSchema},
      {"name", machine.name},
      {"description", machine.description},
      {"clock_hz", machine.clock_hz},
      {"cores_per_node", machine.cores_per_node},
      {"memory_per_node_bytes", machine.memory_per_node_bytes}};
  if (machine.memory_latency_s > 0) document["memory_latency_s"] = machine.memory_latency_s;
  write_network_section(machine, document);
  document["packet"] = ordered::object();
  if (!machine.network_levels.empty()) document["network_levels"] = ordered::parse(machine.network_levels.dump());
  auto& costs = document["costs_cycles"] = ordered::object();
  for (const auto& field : input_fields()) {
    const std::string name = field.name;
    if (!name.starts_with("costs_cycles.") ||
        std::find(machine.defaulted.begin(), machine.defaulted.end(), name) != machine.defaulted.end() ||
        (machine.message_layer && derived_from_message_layer(name))) {
      continue;
    }
    const auto key = name.substr(std::string("costs_cycles.").size());
    if (field.list) {
      costs[key] = c.core_overhead_uniform ? ordered(c.core_overhead.front()) : ordered(c.core_overhead);
    } else if (field.whole) {
      costs[key] = static_cast<unsigned>(field.get(machine));
    } else {
      costs[key] = field.get(machine);
    }
  }
  if (!machine.cost_spread.empty()) document["costs_cycles_spread"] = machine.cost_spread;
  if (machine.message_layer) document["message_layer"] = message_layer_json(*machine.message_layer);
  if (const auto node = node_hardware_json(machine.node, machine.message_layer.has_value()); !node.is_null()) {
    document["node"] = node;
  }
  for (const auto& field : kPacketFields) document["packet"][field.name] = p.*field.member;
  if (const auto& d = machine.data_access) {
    document["data_access_cycles"] = ordered{{"block_start", d->block_start}, {"word", d->word}, {"poll", d->poll}};
  }
  if (!machine.references_of.is_null()) document["references_of"] = machine.references_of;
  if (!machine.reference_bucket_sizes.empty()) {
    document["reference_bucket_sizes"] = keyed_by_nodes(machine.reference_bucket_sizes);
  }
  if (!machine.reference_gups.empty()) {
    ordered series = ordered::object();
    for (const auto& [name, values] : machine.reference_gups) series[name] = keyed_by_nodes(values);
    document["reference_gups"] = series;
  }
  document["role_plan"] = machine.role_plan;
  if (machine.mapping_mode == "best") {
    document["mapping_mode"] = "best";
  } else if (!machine.mapping_mode.empty()) {
    document["mapping_mode"] = std::stoi(machine.mapping_mode);
  }
  if (!machine.sources.empty()) {
    auto& sources = document["sources"] = ordered::object();
    for (const auto& [key, source] : machine.sources) {
      sources[key] = source.declared.is_null() ? ordered(source.text) : source.declared;
    }
  }
  if (!machine.notes.is_null()) document["notes"] = ordered::parse(machine.notes.dump());
  return document;
}

std::vector<std::string> cost_names() {
  std::vector<std::string> names;
  const std::string prefix = "costs_cycles.";
  for (const auto& field : input_fields()) {
    const std::string name = field.name;
    if (name.starts_with(prefix) && cost_field(name.substr(prefix.size())) == &field) {
      names.push_back(name.substr(prefix.size()));
    }
  }
  names.emplace_back(kCoreOverhead);
  return names;
}

double cost_named(const CycleCosts& costs, const std::string& name) {
  if (name == kCoreOverhead) {
    return costs.core_overhead.empty() ? 0 : *std::max_element(costs.core_overhead.begin(), costs.core_overhead.end());
  }
  Machine holder;
  holder.costs = costs;
  return single_cost(name).get(holder);
}

CycleCosts with_spread(CycleCosts costs, const std::map<std::string, double>& spread) {
  Machine holder;
  holder.costs = std::move(costs);
  for (const auto& [name, fraction] : spread) {
    if (name == kCoreOverhead) {
      for (auto& overhead : holder.costs.core_overhead) overhead *= 1 + fraction;
      continue;
    }
    const auto& field = single_cost(name);
    field.set(holder, field.get(holder) * (1 + fraction));
  }
  return holder.costs;
}

double Machine::update_cycles(bool streamed, unsigned updating_cores) const noexcept {
  const double alone = streamed ? costs.update_streamed : costs.update;
  const double all = streamed ? costs.update_streamed_all_cores : costs.update_all_cores;
  if (cores_per_node < 2 || updating_cores < 2) return alone;
  const double busy = static_cast<double>(std::min(updating_cores, cores_per_node) - 1) / (cores_per_node - 1);
  return alone + busy * (all - alone);
}

double Machine::send_call_cycles() const noexcept {
  return node.messaging_unit ? node.messaging_unit->descriptor_cycles : costs.send_call;
}

double Machine::packet_receive_cycles(bool batched) const noexcept {
  if (node.messaging_unit) return node.messaging_unit->packet_receive_cycles;
  return batched ? costs.receive_call_batched : costs.receive_call;
}

ThreadLoad Machine::update_load(bool streamed, unsigned updating_cores) const noexcept {
  if (node.near_memory) return {node.near_memory->issue_cycles, 0};
  const double cycles = update_cycles(streamed, updating_cores);
  if (!node.threaded()) return {cycles, 0};
  const double issue = std::min(node.update_issue_cycles, cycles);
  return {issue, cycles - issue};
}

bool Machine::overheads_by_kind(const RolePlan& plan) const {
  if (costs.core_overhead_uniform) return false;
  const auto listed = static_cast<unsigned>(costs.core_overhead.size());
  return plan.cores() != listed || !(plan.spec() == PlanSpec::rule(listed, plan.dimensions()));
}

std::vector<double> Machine::core_overheads(const RolePlan& plan) const {
  if (costs.core_overhead_uniform) return std::vector<double>(plan.cores(), costs.core_overhead.front());
  if (!overheads_by_kind(plan)) return costs.core_overhead;
  const RolePlan listed(static_cast<unsigned>(costs.core_overhead.size()), plan.dimensions());
  double routing = 0, updating = 0;
  unsigned routers = 0, updaters = 0;
  for (unsigned core = 0; core < listed.cores(); ++core) {
    if (listed.role(core).only_updates()) {
      updating += costs.core_overhead[core];
      ++updaters;
    } else {
      routing += costs.core_overhead[core];
      ++routers;
    }
  }
  routing /= routers;
  updating = updaters ? updating / updaters : routing;
  std::vector<double> overheads(plan.cores(), 0.0);
  for (unsigned core = 0; core < plan.cores(); ++core) {
    const auto& role = plan.role(core);
    if (!role.idle()) overheads[core] = role.only_updates() ? updating : routing;
  }
  return overheads;
}

double Machine::owner_lookup_cycles(OwnerMode mode, std::uint64_t owners) const noexcept {
  if (owners == 0 || (owners & (owners - 1)) == 0) return 0;
  return mode == OwnerMode::predict ? costs.owner_prediction : costs.owner_division;
}

std::vector<bool> Machine::wraps_of(const TorusShape& shape) const {
  const unsigned d = shape.dimensions();
  if (!topology->is_virtual_torus) return std::vector<bool>(d, true);
  if (is_mesh(shape.nodes())) return std::vector<bool>(d, false);
  const auto listed = torus.partition_wraps.find(shape.nodes());
  if (listed != torus.partition_wraps.end() && !balanced_shapes && shape_for(shape.nodes()).sizes() == shape.sizes()) {
    return listed->second;
  }
  return torus.wraps.size() == d ? torus.wraps : std::vector<bool>(d, true);
}

std::string Machine::shape_rule_for(std::uint64_t nodes) const {
  return !balanced_shapes && torus.partitions.count(nodes) ? "partition" : "balanced";
}

TorusShape Machine::shape_for(std::uint64_t nodes) const {
  if (nodes == 0) throw std::invalid_argument("the node count must be at least 1");
  // The partition must exist; the virtual torus then only needs its nodes.
  if (topology->partition) topology->partition(network_parameters, nodes, name);
  if (shape_rule_for(nodes) == "partition") return torus.partitions.at(nodes);
  const auto shape = TorusShape::balanced(nodes, torus.dimensions);
  for (const auto side : shape.sizes()) {
    if (side > torus.max_side) {
      throw std::invalid_argument(fmt::format(
          "{} nodes cannot be mapped onto a {}-D torus of '{}': the most balanced shape {} has a side "
          "of {}, longer than its {} (torus.max_side)",
          nodes, torus.dimensions, name, shape.to_string(), side, torus.max_side));
    }
  }
  return shape;
}

Machine load_machine(const std::string& name_or_path, const std::vector<std::string>& directories) {
  const auto path = resolve(name_or_path, directories);
  if (std::filesystem::is_directory(path)) {
    throw std::invalid_argument(fmt::format("machine file '{}' is a folder", path));
  }
  errno = 0;
  std::ifstream in(path);
  if (!in) {
    const std::string reason = !std::filesystem::exists(path) ? "no such file"
                               : errno != 0                   ? std::strerror(errno)
                                                              : "it cannot be opened";
    throw std::invalid_argument(fmt::format("cannot read machine file '{}': {}", path, reason));
  }
  json document;
  try {
    document = json::parse(in);
  } catch (const json::exception& e) {  // parse errors, and numbers out of range such as 1e400
    throw std::invalid_argument(fmt::format("machine file '{}' is not valid JSON: {}", path, e.what()));
  }
  try {
    auto machine = parse_machine(document);
    machine.path = path;
    // Every program that reads the file says so, once each, before anything it prints of the machine.
    static std::set<std::string> said;
    for (const auto& warning : machine.warnings) {
      if (said.insert(path + warning).second) std::fprintf(stderr, "warning: %s\n", warning.c_str());
    }
    return machine;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("machine file '{}': {}", path, e.what()));
  }
}

std::vector<std::string> default_machine_directories() {
  std::vector<std::string> directories;
  if (const char* env = std::getenv("TORUS_GUPS_MACHINES"); env && *env) directories.emplace_back(env);
  // An installed program's: PREFIX/share/torus-gups/machines beside PREFIX/bin, found from its own path so
  // that a prefix can be moved.
  std::error_code error;
  const auto program = std::filesystem::read_symlink("/proc/self/exe", error);
  const auto installed = program.parent_path().parent_path() / "share" / "torus-gups" / "machines";
  if (!error && std::filesystem::is_directory(installed, error)) directories.push_back(installed.string());
  directories.emplace_back(TORUS_GUPS_MACHINE_DIR);
  return directories;
}

}  // namespace gups::model
