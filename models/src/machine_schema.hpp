// The model's inputs a machine file gives, one row each: the reader, the
// writer, the ranges, explain's candidates and `gups-model --schema` read
// this one table, so a field is declared once.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/src/machine.hpp"

namespace gups::model {

struct InputField {
  const char* name;     // dotted, as the file spells it ("network." stands for the topology's section)
  const char* unit;
  const char* meaning;
  bool whole = false;   // a count: values are rounded
  bool list = false;    // costs_cycles.core_overhead: one number, or one per core (the value is the slowest's)
  // Absent from the file: none, it is required; else the value it takes, from the machine read so far.
  std::optional<double> (*fallback)(const Machine&) = nullptr;
  const char* fallback_text = "";  // the default in words, for the docs and the outputs
  // A defaulted field that equals another one moves with it (update_all_cores follows update).
  const char* follows = nullptr;
  double (*get)(const Machine&) = nullptr;
  void (*set)(Machine&, double) = nullptr;
  bool ranged = true;   // the bounds depend on it, so it carries a range
  // A field of an optional part of the node: an input only where the machine
  // has that part (null: always), named in words for the schema.
  bool (*applies)(const Machine&) = nullptr;
  const char* applies_text = "";
};

// Whether the field is an input of this machine (InputField::applies).
inline bool field_applies(const InputField& field, const Machine& machine) {
  return field.applies == nullptr || field.applies(machine);
}

// Every input, in the file's order.
const std::vector<InputField>& input_fields();

// The row of a field by its dotted name (a network section's by its own
// name, such as fattree.link_bandwidth_bytes_per_s); null when it is none.
const InputField* input_field(const std::string& name, const Machine& machine);

// The dotted name of a row on this machine ("network." is its section's name).
std::string field_name(const InputField& field, const Machine& machine);

// The machine with one input set to `value` (a list scaled so that its
// slowest core takes it), and every defaulted field that follows it.
Machine with_input(Machine machine, const InputField& field, double value);
void set_input(Machine& machine, const InputField& field, double value);

// The table as a document: each row's field, unit, meaning, default and
// whether it carries a range (gups-model --schema).
nlohmann::ordered_json schema_document(const Machine& example);

}  // namespace gups::model
