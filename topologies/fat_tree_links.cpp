#include "topologies/fat_tree_links.hpp"

#include "topologies/topology.hpp"
#include "topologies/topology_parameters.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace gups {
namespace {

std::vector<unsigned> numbers(const std::string& text, const char* what) {
  std::vector<unsigned> values;
  for (const auto& item : topology_parts(text, ',')) values.push_back(topology_count(item, fmt::format("fat-tree {}", what)));
  return values;
}

}  // namespace

std::uint64_t FatTreeParameters::nodes() const noexcept {
  std::uint64_t n = 1;
  for (const auto d : down) n *= d;
  return n;
}

void FatTreeParameters::check() const {
  if (down.empty()) throw std::invalid_argument("a fat-tree needs at least one level");
  if (up.size() != down.size() || link_counts.size() != down.size()) {
    throw std::invalid_argument(fmt::format("a fat-tree of {} levels needs {} up counts and {} link counts (has {}, {})",
                                            down.size(), down.size(), down.size(), up.size(), link_counts.size()));
  }
  for (const auto* list : {&down, &up, &link_counts}) {
    for (const auto value : *list) {
      if (value == 0) throw std::invalid_argument("a fat-tree's down, up and link counts must all be at least 1");
    }
  }
}

std::string FatTreeParameters::to_simgrid() const {
  return fmt::format("{};{};{};{}", levels(), fmt::join(down, ","), fmt::join(up, ","), fmt::join(link_counts, ","));
}

FatTreeParameters FatTreeParameters::parse(const std::string& text) {
  const auto parts = topology_parts(text, ';');
  if (parts.size() != 4) throw std::invalid_argument("a fat-tree is 'levels;down,..;up,..;counts,..': '" + text + "'");
  FatTreeParameters p{numbers(parts[1], "down counts"), numbers(parts[2], "up counts"),
                      numbers(parts[3], "link counts")};
  if (numbers(parts[0], "levels") != std::vector<unsigned>{p.levels()}) {
    throw std::invalid_argument("a fat-tree's level count does not match its lists: '" + text + "'");
  }
  p.check();
  return p;
}

FatTreeLinks::FatTreeLinks(FatTreeParameters parameters) : parameters_(std::move(parameters)) {
  parameters_.check();
  const auto& down = parameters_.down;
  const auto& up = parameters_.up;
  const auto& counts = parameters_.link_counts;
  const unsigned levels = parameters_.levels();
  // FatTreeZone::generate_switches: nodes by level.
  by_level_.assign(levels + 1, 0);
  by_level_[0] = parameters_.nodes();
  for (unsigned i = 0; i < levels; ++i) {
    std::uint64_t n = 1;
    for (unsigned j = 0; j <= i; ++j) n *= up[j];
    for (unsigned j = i + 1; j < levels; ++j) n *= down[j];
    by_level_[i + 1] = n;
  }
  std::uint64_t total = 0;
  for (const auto n : by_level_) total += n;
  if (total > (1u << 24)) throw std::invalid_argument("a fat-tree of more than 2^24 nodes and switches");
  elements_.reserve(total);
  for (unsigned level = 0; level <= levels; ++level) {
    for (std::uint64_t position = 0; position < by_level_[level]; ++position) {
      Element e;
      e.level = level;
      e.position = position;
      if (level > 0) e.children.assign(static_cast<std::size_t>(down[level - 1]) * counts[level - 1], -1);
      if (level < levels) e.parents.assign(static_cast<std::size_t>(up[level]) * counts[level], -1);
      elements_.push_back(std::move(e));
    }
  }
  // FatTreeZone::generate_labels: position in mixed radix, digit 0 first.
  std::size_t k = 0;
  for (unsigned level = 0; level <= levels; ++level) {
    std::vector<unsigned> label(levels, 0), max_label(levels);
    for (unsigned j = 0; j < levels; ++j) max_label[j] = j + 1 > level ? down[j] : up[j];
    for (std::uint64_t j = 0; j < by_level_[level]; ++j, ++k) {
      elements_[k].label = label;
      for (unsigned pos = 0; pos < levels; ++pos) {
        if (++label[pos] < max_label[pos]) break;
        label[pos] = 0;
      }
    }
  }
  // FatTreeZone::connect_node_to_parents, for every element below the top.
  for (std::size_t child = 0; child < elements_.size(); ++child) {
    const unsigned level = elements_[child].level;
    if (level == levels) break;
    const auto first = first_of_level(level + 1);
    for (std::uint64_t i = 0; i < by_level_[level + 1]; ++i) {
      const auto parent = first + i;
      bool related = true;
      for (unsigned l = 0; l < levels && related; ++l) {
        related = elements_[parent].label[l] == elements_[child].label[l] || l + 1 == level + 1;
      }
      if (!related) continue;
      for (unsigned j = 0; j < counts[level]; ++j) {
        const auto cable = static_cast<std::int64_t>(cables_.size());
        cables_.push_back({child, parent});
        elements_[parent].children[elements_[child].label[level] + j * down[level]] = cable;
        elements_[child].parents[elements_[parent].label[level] + j * up[level]] = cable;
      }
    }
  }
  if (cables_.size() * 2 > UINT32_MAX) throw std::invalid_argument("a fat-tree of more than 2^31 cables");
  for (const auto& e : elements_) {
    for (const auto* ports : {&e.parents, &e.children}) {
      for (const auto cable : *ports) {
        if (cable < 0) {
          throw std::invalid_argument(fmt::format(
              "fat-tree {}: a switch of level {} has a port with no cable (each level's up count times its "
              "switches must match the next level's down ports)",
              parameters_.to_simgrid(), e.level));
        }
      }
    }
  }
}

std::uint64_t FatTreeLinks::first_of_level(unsigned level) const {
  std::uint64_t first = 0;
  for (unsigned l = 0; l < level; ++l) first += by_level_[l];
  return first;
}

bool FatTreeLinks::in_sub_tree(const Element& root, const Element& node) const {
  if (root.level <= node.level) return false;
  for (unsigned i = 0; i < node.level; ++i) {
    if (root.label[i] != node.label[i]) return false;
  }
  for (unsigned i = root.level; i < parameters_.levels(); ++i) {
    if (root.label[i] != node.label[i]) return false;
  }
  return true;
}

unsigned FatTreeLinks::link_class(std::uint32_t link) const noexcept {
  return 2 * elements_[cables_[link / 2].child].level + link % 2;
}

std::vector<std::string> FatTreeLinks::class_names() const {
  std::vector<std::string> names;
  for (unsigned l = 0; l < parameters_.levels(); ++l) {
    names.push_back(fmt::format("level {}-{} up", l, l + 1));
    names.push_back(fmt::format("level {}-{} down", l + 1, l));
  }
  return names;
}

void FatTreeLinks::route(std::uint64_t from, std::uint64_t to, std::vector<std::uint32_t>& links) const {
  links.clear();
  const auto& up = parameters_.up;
  const auto& down = parameters_.down;
  const auto& counts = parameters_.link_counts;
  const Element& source = elements_[from];
  const Element& destination = elements_[to];
  std::uint64_t current = from;
  // FatTreeZone::get_local_route, up: d-mod-k on the destination's position.
  while (!in_sub_tree(elements_[current], destination)) {
    const auto& here = elements_[current];
    std::uint64_t d = destination.position;
    for (unsigned i = 0; i < here.level; ++i) d /= up[i];
    d %= static_cast<std::uint64_t>(up[here.level]) * counts[here.level];
    const auto cable = static_cast<std::uint64_t>(here.parents[d]);
    links.push_back(static_cast<std::uint32_t>(cable * 2));
    current = cables_[cable].parent;
  }
  // Down: SimGrid's loop goes on scanning from the next port of the switch
  // it has just stepped down to; kept as written.
  while (current != to) {
    const auto d = source.position % counts[elements_[current].level - 1];
    for (std::size_t i = d * down[elements_[current].level - 1]; i < elements_[current].children.size(); ++i) {
      const auto level = elements_[current].level;
      if (i % down[level - 1] == destination.label[level - 1]) {
        const auto cable = static_cast<std::uint64_t>(elements_[current].children[i]);
        links.push_back(static_cast<std::uint32_t>(cable * 2 + 1));
        current = cables_[cable].child;
      }
    }
  }
}

namespace {

std::string fat_tree_partition(const std::string& whole_parameters, std::uint64_t nodes, const std::string& machine) {
  const auto whole = FatTreeParameters::parse(whole_parameters);
  FatTreeParameters p;
  p.down = partition_counts(whole.down, nodes, "leaf switches", machine);
  p.up.assign(whole.up.begin(), whole.up.begin() + static_cast<std::ptrdiff_t>(p.down.size()));
  p.link_counts.assign(whole.link_counts.begin(), whole.link_counts.begin() + static_cast<std::ptrdiff_t>(p.down.size()));
  return p.to_simgrid();
}

// The narrowest level's cables.
double fat_tree_bisection(const std::string& parameters, double link_bandwidth) {
  const auto tree = FatTreeParameters::parse(parameters);
  if (tree.nodes() < 2) return 0;
  // Cables between level l and l + 1: elements of level l x their up ports.
  double narrowest = static_cast<double>(tree.nodes());
  double elements = static_cast<double>(tree.nodes());
  for (unsigned l = 0; l < tree.levels(); ++l) {
    const double cables = elements * tree.up[l] * tree.link_counts[l];
    narrowest = std::min(narrowest, cables);
    // Elements of level l + 1: cables up from level l over each switch's down ports.
    elements = cables / (static_cast<double>(tree.down[l]) * tree.link_counts[l]);
  }
  return narrowest / 2 * link_bandwidth;
}

std::shared_ptr<const PhysicalLinks> fat_tree_links(const std::string& parameters) {
  return std::make_shared<FatTreeLinks>(FatTreeParameters::parse(parameters));
}

}  // namespace

extern const TopologyKind topology_fat_tree{
    "fat_tree", "fat-tree", "FAT_TREE", false, fat_tree_partition, fat_tree_bisection, fat_tree_links, nullptr};

}  // namespace gups
