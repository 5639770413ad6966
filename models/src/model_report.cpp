#include "models/src/model_report.hpp"

#include "models/src/machine_network.hpp"
#include "models/src/role_planner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

namespace gups::model {

static std::string optional_gups(std::optional<double> value) { return value ? gups_text(*value) : std::string("-"); }

std::string gups_text(double gups) {
  const int decimals = gups < 1 ? 3 : gups < 10 ? 2 : 1;
  return fmt::format("{:.{}f}", gups, decimals);
}

static const char* rule_name(BucketRule rule) { return rule == BucketRule::sizing ? "sizing" : "reference"; }

// Only a machine whose cores slow each other's updates needs the columns.
// What sets the bound: the network's busiest links, or the slowest core's role.
// A thread's core's cycles set it (with one thread a core, its own).
bool slower_core(const CoreLoad& a, const CoreLoad& b) { return a.core_cycles < b.core_cycles; }

std::string binding_resource(const Prediction& p) {
  if (p.network_binds) return p.network_bottleneck.empty() ? "network" : "network: " + p.network_bottleneck;
  if (p.node_binds != "cores") return p.node_binds;
  const auto slowest = std::max_element(p.cores.begin(), p.cores.end(), slower_core);
  if (slowest == p.cores.end()) return "cpu";
  return p.cores.size() > 1 ? fmt::format("core {}: {}", slowest - p.cores.begin(), slowest->role) : "core: " + slowest->role;
}

// The binds column: the network, or which core (--explain says what it does), or the CPU of a one-core plan.
std::string binds_column(const Prediction& p) {
  if (p.network_binds) return "network";
  if (p.node_binds == "messaging unit") return "MU";
  if (p.node_binds != "cores") return "memory";
  if (p.cores.size() < 2) return "CPU";
  const auto slowest = std::max_element(p.cores.begin(), p.cores.end(), slower_core);
  return fmt::format("core {}", slowest - p.cores.begin());
}

namespace {

// The T columns: every core's, or on a node of hardware threads those up to
// the last busy thread of any row (a plan fills the first threads; the rest,
// often most of them, idle; --explain gives each).
// A row's three busiest cores, each as cycles@core, and how many cores it has: what binds and what comes next,
// in a row a person can read on a 48-core node.
std::string busiest_cores(const Prediction& p, std::size_t shown) {
  std::vector<std::size_t> order(std::min(shown, p.cores.size()));
  for (std::size_t c = 0; c < order.size(); ++c) order[c] = c;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p.cores[a].cycles > p.cores[b].cycles; });
  std::string text;
  for (std::size_t i = 0; i < 3; ++i) {
    text += i < order.size() ? fmt::format("{:>11} ", fmt::format("{:.1f}@{}", p.cores[order[i]].cycles, order[i]))
                             : fmt::format("{:>11} ", "-");
  }
  return text + fmt::format("{:>5} ", order.size());
}

std::size_t shown_cores(const Machine& machine, const ModelSeries& series) {
  std::size_t shown = series.rows.front().cores.size();
  if (!machine.node.threaded()) return shown;
  shown = 0;
  for (const auto& p : series.rows) {
    for (std::size_t c = 0; c < p.cores.size(); ++c) {
      if (p.cores[c].cycles > 0) shown = std::max(shown, c + 1);
    }
  }
  return shown;
}

// "torus", "mesh", "torus wrapping tttmt" (some dimensions only), or the topology's name.
std::string network_name(const Prediction& p) {
  if (!p.topology->is_virtual_torus) return p.topology->name;
  if (p.mesh) return "mesh";
  const bool every = std::all_of(p.wraps.begin(), p.wraps.end(), [](bool w) { return w; });
  return every ? "torus" : "torus wrapping " + wraps_letters(p.wraps);
}

std::optional<double> reference(const Machine& machine, const std::string& series, std::uint64_t nodes) {
  const auto found = machine.reference_gups.find(series);
  if (found == machine.reference_gups.end()) return std::nullopt;
  const auto value = found->second.find(nodes);
  if (value == found->second.end()) return std::nullopt;
  return value->second;
}

bool shares_memory(const Machine& machine) {
  const auto& c = machine.costs;
  return c.update_all_cores != c.update || c.update_streamed_all_cores != c.update_streamed;
}

// Which role plan each row's cores follow: one line, the plan per size
// where the planner chose differently at different sizes.
std::string plan_line(const ModelSeries& series) {
  const auto& first = series.rows.front();
  std::map<std::string, std::vector<std::string>> sizes_of_plan;
  for (const auto& p : series.rows) sizes_of_plan[p.role_plan->to_string()].push_back(std::to_string(p.nodes));
  std::string plans;
  if (sizes_of_plan.size() == 1) {
    plans = sizes_of_plan.begin()->first;
  } else {
    for (const auto& [plan, sizes] : sizes_of_plan) {
      plans += fmt::format("{}{} at {}", plans.empty() ? "" : "; ", plan, fmt::join(sizes, ", "));
    }
  }
  std::string line = fmt::format("role plan ({}): {}", role_plan_choice_text(first.role_plan_choice), plans);
  if (std::any_of(series.rows.begin(), series.rows.end(), [](const Prediction& p) { return p.overheads_by_kind; })) {
    line += "; top per core averaged by kind (routing, updating) from the machine's per-core figures";
  }
  return line + "\n";
}

}  // namespace

namespace {

// Which rule made a size's shape, as the crossover line and the rows' notes say it.
std::string shape_rule_text(const Machine& machine, std::uint64_t nodes) {
  if (machine.shape_rule_for(nodes) == "partition") return "a listed partition";
  return machine.torus.partitions.empty() || machine.balanced_shapes
             ? "the balanced shape rule"
             : "the balanced shape rule: the file lists no partition of this size";
}

// Rows whose size is no partition the file lists, above its smallest (below it, blocks of the balanced shape are
// the files' stated rule): their shape is the balanced rule's, which the machine may not be able to build.
std::string unlisted_sizes(const Machine& machine, const ModelSeries& series) {
  if (machine.torus.partitions.empty() || machine.balanced_shapes || !machine.topology->is_virtual_torus) return "";
  std::vector<std::string> unlisted;
  for (const auto& p : series.rows) {
    if (p.nodes > machine.torus.partitions.begin()->first && machine.shape_rule_for(p.nodes) != "partition") unlisted.push_back(fmt::format("{} ({})", p.nodes, p.shape.to_string()));
  }
  if (unlisted.empty()) return "";
  return fmt::format("shapes by the balanced shape rule, not partitions the file lists (torus.partitions): {}\n",
                     fmt::join(unlisted, ", "));
}

}  // namespace

std::string format_series(const Machine& machine, const ModelSeries& series) {
  const auto& o = series.options;
  const bool multicore = model_of(o.algorithm) == AlgorithmModel::multicore;
  const bool direct = model_of(o.algorithm) == AlgorithmModel::direct;
  const std::string name(to_string(o.algorithm));
  std::string out = fmt::format("# {} on {} ({}), look-ahead {}", name, machine.name,
                                machine.description, o.lookahead);
  if (multicore) {
    out += fmt::format(", {} cores per node, bucket sizes: {}",
                       o.cores_per_node ? o.cores_per_node : machine.cores_per_node, rule_name(o.buckets));
  } else if (direct) {
    out += fmt::format(", {} process(es) per node", o.processes_per_node);
  } else {
    out += fmt::format(", bucket sizes: {}", rule_name(o.buckets));
  }
  // Only sizes that are not powers of two pay for their owners.
  const auto charged = std::find_if(series.rows.begin(), series.rows.end(),
                                    [](const Prediction& p) { return p.owner_cycles > 0; });
  if (charged != series.rows.end()) {
    out += fmt::format(", owners by {} ({} cycles each)", to_string(o.owner), charged->owner_cycles);
  }
  out += "\n";
  const bool placed = shares_memory(machine);
  std::string header = fmt::format("{:>7} {:>9} {:>7} ", "N", "shape", "procs");
  if (placed) header += fmt::format("{:>4} {:>6} ", "upd", "tu");
  if (direct) {
    header += fmt::format("{:>6} ", "fill");
  } else {
    header += fmt::format("{:>4} {:>4} {:>4} {:>5} ", "bkts", "bkt", "rule", "paper");
  }
  const bool folded = multicore && !series.all_cores && shown_cores(machine, series) > kFoldedCores;
  if (multicore) {
    header += fmt::format("{:>6} ", "tr");
    if (folded) {
      header += fmt::format("{:>11} {:>11} {:>11} {:>5} ", "busiest", "2nd", "3rd", "cores");
    } else {
      for (std::size_t c = 0; c < shown_cores(machine, series); ++c) {
        header += fmt::format("{:>6} ", fmt::format("T{}", c));
      }
    }
  } else {
    header += fmt::format("{:>5} {:>7} ", "hops", "cycles");
  }
  header += fmt::format("{:>8} {:>8} {:>6} {:>6} {:>8} {:>7}  {}", "CPU", "paper", "diff", "b", "network",
                        "binds", "measured");
  out += header + "\n";
  for (const auto& p : series.rows) {
    std::string line = fmt::format("{:>7} {:>9} {:>7} ", p.nodes, p.shape.to_string(), p.processes);
    if (placed) line += fmt::format("{:>4} {:>6.1f} ", p.updating_cores, p.update_cycles);
    if (direct) {
      line += fmt::format("{:>6.2f} ", p.mean_fill);
    } else {
      line += fmt::format("{:>4} {:>4} {:>4} {:>5} ", p.buckets, p.bucket_size, p.rule_bucket_size,
                          p.reference_bucket_size ? std::to_string(*p.reference_bucket_size) : "-");
    }
    if (multicore) {
      line += fmt::format("{:>6.1f} ", p.receive_cycles);
      if (folded) {
        line += busiest_cores(p, shown_cores(machine, series));
      } else {
        for (std::size_t c = 0; c < shown_cores(machine, series); ++c) line += fmt::format("{:>6.1f} ", p.cores[c].cycles);
      }
    } else {
      line += fmt::format("{:>5.3f} {:>7.1f} ", p.expected_hops, p.cpu_cycles_per_update);
    }
    const auto paper = reference(machine, name + "_bound", p.nodes);
    const auto measured = reference(machine, name + "_measured", p.nodes);
    const std::string diff = paper ? fmt::format("{:+.1f}%", 100.0 * (p.cpu_gups / *paper - 1)) : "-";
    line += fmt::format("{:>8} {:>8} {:>6} {:>6.2f} {:>8} {:>7}  {}", gups_text(p.cpu_gups),
                        optional_gups(paper), diff,
                        p.bytes_per_update, p.network_gups ? gups_text(*p.network_gups) : "-",
                        binds_column(p), optional_gups(measured));
    out += line + "\n";
  }
  if (multicore) out += plan_line(series);
  // The paper's column used its own bucket sizes: where this rule's differ, diff mixes the two baselines.
  std::vector<std::string> other_buckets;
  for (const auto& p : series.rows) {
    if (multicore && o.buckets == BucketRule::sizing && p.reference_bucket_size &&
        *p.reference_bucket_size != p.bucket_size && reference(machine, name + "_bound", p.nodes)) {
      other_buckets.push_back(std::to_string(p.nodes));
    }
  }
  if (!other_buckets.empty()) {
    out += fmt::format("diff at {} nodes compares buckets of the sizing rule with the paper's (column paper); "
                       "--buckets reference models the paper's bucket sizes, as gups-sim --mechanisms paper-buckets "
                       "simulates them\n",
                       fmt::join(other_buckets, ", "));
  }
  if (placed) {
    const auto placement = o.nodes_per_host == 0 ? std::string("torus nodes fill each node's cores, --nodes-per-host fill")
                                                 : fmt::format("{} torus node(s) per node", o.nodes_per_host);
    out += fmt::format("upd: cores of one node updating at once ({}); tu: cycles per update at that many "
                       "(the one-core figure for one, its *_all_cores form for every core)\n",
                       placement);
  }
  if (series.rows.front().cpu_gups_at_median_costs) {
    std::vector<std::string> typical;
    for (const auto& p : series.rows) {
      typical.push_back(fmt::format("{} at {}", gups_text(*p.cpu_gups_at_median_costs), p.nodes));
    }
    out += fmt::format("CPU with each timed cost at the median of its calibration's repeats (costs_cycles_spread): "
                       "{} nodes\n", fmt::join(typical, ", "));
  }
  for (const auto& p : series.rows) {
    if (!p.bisection_measured) continue;
    const auto& measured = *o.measured_bisection;
    const double model_gups = *p.links_network_gups;
    out += fmt::format("network bound at {} nodes from the measured bisection B = {:.4g} GB/s ({}, {} byte "
                       "messages): {} GUPS; from the links' B = {:.4g} GB/s it is {} GUPS ({:.1f}% of it)\n",
                       p.nodes, p.bisection_bytes_per_s / 1e9, measured.source, measured.message_bytes,
                       gups_text(*p.bisection_network_gups), p.model_bisection_bytes_per_s / 1e9, gups_text(model_gups),
                       100.0 * p.bisection_bytes_per_s / p.model_bisection_bytes_per_s);
    const std::string modelled = p.mesh ? "mesh" : "torus";
    if (measured.network && *measured.network != modelled) {
      out += fmt::format("  (the probe's network was a {}, the model's is a {}: the machine file's "
                         "torus.mesh_below_nodes)\n",
                         *measured.network, modelled);
    }
  }
  out += unlisted_sizes(machine, series);
  // Searched over the machine's partitions and powers of two beyond them (crossover_sizes), whatever the rows.
  if (series.crossover) {
    out += fmt::format("network bound below the CPU bound from {} nodes ({}, {})\n", *series.crossover,
                       machine.shape_for(*series.crossover).to_string(), shape_rule_text(machine, *series.crossover));
  } else {
    out += "the CPU bound binds at every size the shape rules allow (the machine's partitions and powers of two)\n";
  }
  return out;
}

nlohmann::json machine_summary(const Machine& machine) {
  return {{"name", machine.name},
          {"description", machine.description},
          {"path", machine.path},
          {"clock_hz", machine.clock_hz},
          {"cores_per_node", machine.cores_per_node},
          {"link_bandwidth_bytes_per_s", machine.link_bandwidth}};
}

namespace {

// The row's fields that only some predictions have (a measured bisection, a node's other resources, a mapping
// mode, the hypercube's stages).
void add_optional_fields(const Prediction& p, nlohmann::json& row) {
  if (p.bisection_network_gups) row["bisection_network_gups"] = *p.bisection_network_gups;
  if (p.links_network_gups) row["links_network_gups"] = *p.links_network_gups;
  if (p.messaging_unit_gups || p.near_memory_gups) {
    row.update({{"cores_gups", p.cores_gups}, {"node_binds", p.node_binds}});
    if (p.messaging_unit_gups) row["messaging_unit_gups"] = *p.messaging_unit_gups;
    if (p.near_memory_gups) row["near_memory_gups"] = *p.near_memory_gups;
  }
  if (p.mapping_mode) row["mapping_mode"] = p.mapping_mode;
  if (p.stages > 0) {
    row.update({{"stages", p.stages}, {"stage_wait_seconds", p.stage_wait_seconds}});
    if (p.overlapped_network_gups) row["overlapped_network_gups"] = *p.overlapped_network_gups;
    if (p.contended_gups) {
      row.update({{"contended_stage_wait_seconds", p.contended_stage_wait_seconds},
                  {"contended_gups", *p.contended_gups}});
    }
  }
}

}  // namespace

nlohmann::json series_to_json(const Machine& machine, const ModelSeries& series) {
  const auto& o = series.options;
  const std::string name(to_string(o.algorithm));
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& p : series.rows) {
    nlohmann::json cores = nlohmann::json::array();
    for (const auto& core : p.cores) {
      cores.push_back({{"role", core.role}, {"cycles", core.cycles}, {"share", core.share}});
      if (machine.node.threaded()) {
        cores.back().update({{"core", core.core}, {"core_cycles", core.core_cycles}, {"wait", core.wait}});
      }
    }
    const auto paper = reference(machine, name + "_bound", p.nodes);
    const auto measured = reference(machine, name + "_measured", p.nodes);
    rows.push_back({{"nodes", p.nodes},
                    {"shape", p.shape.to_string()},
                    {"processes", p.processes},
                    {"buckets", p.buckets},
                    {"bucket_size", p.bucket_size},
                    {"rule_bucket_size", p.rule_bucket_size},
                    {"reference_bucket_size", p.reference_bucket_size ? nlohmann::json(*p.reference_bucket_size)
                                                                      : nlohmann::json()},
                    {"mean_fill", p.mean_fill},
                    {"expected_hops", p.expected_hops},
                    {"send_cycles_per_update", p.send_cycles},
                    {"receive_cycles_per_update", p.receive_cycles},
                    {"owner_cycles", p.owner_cycles},
                    {"nodes_per_host", p.nodes_per_host},
                    {"updating_cores_per_host", p.updating_cores},
                    {"update_cycles", p.update_cycles},
                    {"cores", cores},
                    {"role_plan", p.role_plan ? nlohmann::json(p.role_plan->to_string()) : nlohmann::json()},
                    {"role_plan_choice", p.role_plan_choice},
                    {"overheads_by_kind", p.overheads_by_kind},
                    {"cpu_cycles_per_update", p.cpu_cycles_per_update},
                    {"cpu_gups", p.cpu_gups},
                    {"cpu_gups_at_median_costs",
                     p.cpu_gups_at_median_costs ? nlohmann::json(*p.cpu_gups_at_median_costs) : nlohmann::json()},
                    {"bytes_per_update", p.bytes_per_update},
                    {"network", network_name(p)},
                    {"bisection_bytes_per_s", p.bisection_bytes_per_s},
                    {"model_bisection_bytes_per_s", p.model_bisection_bytes_per_s},
                    {"bisection_source", p.bisection_measured ? "measured" : "model"},
                    {"software_hops", p.software_hops},
                    {"physical_hops_per_software_hop", p.physical_hops_per_software_hop},
                    {"network_bottleneck", p.network_bottleneck},
                    {"routes_network_gups",
                     p.routes_network_gups ? nlohmann::json(*p.routes_network_gups) : nlohmann::json()},
                    {"binding_resource", binding_resource(p)},
                    {"network_gups", p.network_gups ? nlohmann::json(*p.network_gups) : nlohmann::json()},
                    {"binds", p.network_binds ? "network" : "cpu"},
                    {"gups", p.gups},
                    {"reference_bound_gups", paper ? nlohmann::json(*paper) : nlohmann::json()},
                    {"reference_measured_gups", measured ? nlohmann::json(*measured) : nlohmann::json()}});
    add_optional_fields(p, rows.back());
  }
  return {{"algorithm", to_string(o.algorithm)},
          {"lookahead", o.lookahead},
          {"cores_per_node", o.cores_per_node ? o.cores_per_node : machine.cores_per_node},
          {"processes_per_node", o.processes_per_node},
          {"bucket_rule", rule_name(o.buckets)},
          {"owner", to_string(o.owner)},
          {"rows", rows},
          {"crossover_nodes", series.crossover ? nlohmann::json(*series.crossover) : nlohmann::json()}};
}

}  // namespace gups::model
