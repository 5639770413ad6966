#include "sim/smpi/simulated_network.hpp"

#include <stdexcept>
#include <string>

#include "kernel/mpi/simulation.hpp"
#include "topologies/platform_names.hpp"
#include "topologies/topology.hpp"

#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <xbt/config.hpp>

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace gups {
namespace {

const simgrid::s4u::NetZone* network_zone() {
  const auto* zone = simgrid::s4u::Engine::get_instance()->netzone_by_name_or_null(kNetworkZoneId);
  if (zone == nullptr) throw std::invalid_argument(std::string("the platform has no zone '") + kNetworkZoneId + "'");
  return zone;
}

// A flat cluster keeps its properties on its zone; SimGrid's torus, fat-tree
// and dragonfly clusters put them on each of their hosts instead.
const char* platform_property(const char* name) {
  if (const char* value = network_zone()->get_property(name)) return value;
  const auto* first = simgrid::s4u::Host::by_name_or_null(host_name(0));
  return first == nullptr ? nullptr : first->get_property(name);
}

std::string property(const char* name) {  // a PropertyReader
  const char* value = platform_property(name);
  if (value == nullptr) throw std::invalid_argument(std::string("the platform's network zone has no property ") + name);
  return value;
}

double positive_property(const char* name, bool zero_allowed) {
  const auto text = property(name);
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(zero_allowed ? value >= 0 : value > 0)) {
    throw std::invalid_argument(std::string("the platform's property ") + name + " is not a number" +
                                (zero_allowed ? " of 0 or more" : " above 0") + ": '" + text + "'");
  }
  return value;
}

// The torus node of each simulated host, kept on the host.
struct NodeOfHost {
  std::uint64_t node = 0;
};

simgrid::xbt::Extension<simgrid::s4u::Host, NodeOfHost>& node_of_host() {
  static auto id = simgrid::s4u::Host::extension_create<NodeOfHost>();
  return id;
}

void number_hosts(std::uint64_t nodes) {
  const std::string prefix = kHostPrefix;
  for (auto* host : simgrid::s4u::Engine::get_instance()->get_all_hosts()) {
    const auto& name = host->get_name();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const auto node = std::strtoull(name.c_str() + prefix.size(), nullptr, 10);
    if (node >= nodes) throw std::invalid_argument("the platform's host " + name + " lies outside its torus");
    host->extension_set(node_of_host(), new NodeOfHost{node});
  }
}

// What SimGrid takes from the latency factor: the level's time across the
// torus, less what the message still spends on the two private links after
// its latency (its size over their bandwidth, or over the TCP-gamma bound
// SimGrid puts on a flow of that latency, whichever is lower).
class LevelLatency {
 public:
  explicit LevelLatency(std::shared_ptr<MessageTiming> timing)
      : timing_(std::move(timing)), tcp_gamma_(simgrid::config::get_value<double>("network/TCP-gamma")) {}

  double operator()(double size, const simgrid::s4u::Host* source, const simgrid::s4u::Host* destination,
                    const std::vector<simgrid::s4u::Link*>& links) {
    const auto* from = source->extension(node_of_host());
    const auto* to = destination->extension(node_of_host());
    if (from == nullptr || to == nullptr || from->node == to->node) return 1.0;  // a node's loopback
    double base = 0;
    double bandwidth = 0;
    for (const auto* link : links) {
      base += link->get_latency();
      bandwidth = bandwidth == 0 ? link->get_bandwidth() : std::min(bandwidth, link->get_bandwidth());
    }
    if (!(base > 0)) throw std::logic_error("a torus message's private links have no latency to scale");
    const double rate = std::min(bandwidth, tcp_gamma_ / (2 * base));
    const double now = simgrid::s4u::Engine::get_clock();
    const double crossing = timing_->arrival(from->node, to->node, size, now) - now;
    return std::max(0.0, crossing - size / rate) / base;
  }

 private:
  std::shared_ptr<MessageTiming> timing_;
  double tcp_gamma_;
};

std::shared_ptr<MessageTiming>& installed_timing() {
  static std::shared_ptr<MessageTiming> timing;
  return timing;
}

}  // namespace

std::shared_ptr<MessageTiming> installed_message_timing() { return installed_timing(); }

NetworkLevel platform_network_level() {
  const char* value = network_zone()->get_property(kNetworkLevelProperty);
  return value == nullptr ? NetworkLevel() : network_level_named(value);
}

double platform_link_bandwidth() { return positive_property(kLinkBandwidthProperty, false); }

std::shared_ptr<const PhysicalLinks> platform_physical_links() {
  const char* topology = platform_property(kTopologyProperty);
  // A platform without it is a torus's; at flow SimGrid's TORUS cluster
  // names its links by their ends (link_load.cpp reads them so).
  if (topology == nullptr && platform_network_level().simgrid_links()) return nullptr;
  return platform_links(topology_named(topology == nullptr ? "torus" : topology), property);
}

std::optional<TorusShape> platform_torus_shape() {
  const char* shape = platform_property(kTorusShapeProperty);
  if (shape == nullptr) return std::nullopt;
  return TorusShape::parse(shape);
}

bool simulation::active() noexcept { return true; }

unsigned simulation::ranks_per_host() {
  return static_cast<unsigned>(simgrid::s4u::this_actor::get_host()->get_core_count());
}

void simulation::install_network_level() {
  // Every rank learns of a platform that cannot be read, so that all stop alike.
  static bool tried = false;
  static std::string failure;
  if (!tried) {
    tried = true;
    try {
      auto links = platform_physical_links();
      const auto level = platform_network_level();
      if (links && !level.simgrid_links()) {
        number_hosts(links->nodes());
        const char* parameters = platform_property(kLevelParametersProperty);
        installed_timing() =
            level.timing(std::move(links), {platform_link_bandwidth(), positive_property(kLinkLatencyProperty, true)},
                         parameters == nullptr ? LevelParameters::object() : LevelParameters::parse(parameters));
        auto latency = std::make_shared<LevelLatency>(installed_timing());
        network_zone()->get_network_model()->set_lat_factor_cb(
            [latency](double size, const simgrid::s4u::Host* source, const simgrid::s4u::Host* destination,
                      const std::vector<simgrid::s4u::Link*>& route, const std::unordered_set<simgrid::s4u::NetZone*>&) {
              return (*latency)(size, source, destination, route);
            });
      }
    } catch (const std::invalid_argument& error) {
      failure = error.what();
    }
  }
  if (!failure.empty()) throw std::invalid_argument(failure);
}

}  // namespace gups
