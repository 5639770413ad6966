// The simulator's network levels: how much of the physical network a
// simulated message meets. Each level is one file of sim/levels/ registered
// by one line of levels.def (as SimGrid registers each network model in a
// file of its own); everything else asks for a level by its name.
//
// At the reference level (flow) SimGrid's own links carry the messages and
// share their bandwidth. A cheaper level times each message itself: it says
// when a message injected now has arrived whole, from the physical network's
// links and routes (PhysicalLinks), and the simulation delivers it then.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "topologies/physical_links.hpp"

namespace gups {

class MessageTiming {
 public:
  virtual ~MessageTiming() = default;
  // When a message of `bytes` from node `from`, injected at `now`, has
  // arrived whole at node `to` (from != to). Calls come in the order of `now`.
  virtual double arrival(std::uint64_t from, std::uint64_t to, double bytes, double now) = 0;
  // A time that no message of `bytes` between two nodes takes less than,
  // whatever else is in flight (arrival - now >= it): a simulated core ahead
  // of the clock learns from it that a message it started cannot have
  // completed by its own time. 0 where the level gives none.
  virtual double least_transfer(double /*bytes*/) const { return 0; }
};

// Each link's bandwidth, each way, in bytes per second (scaled by the link's
// bandwidth_factor), and each hop's latency in seconds.
struct LinkSpeeds {
  double bandwidth = 0;
  double latency = 0;
};

// The least time of a message whose route has at least one link, each
// taking its latency and the message's time on it: one hop on the fastest
// link (the levels that time a message hop by hop: queue, latency).
class OneHopAtLeast {
 public:
  OneHopAtLeast(const PhysicalLinks& links, LinkSpeeds speeds);
  double operator()(double bytes) const noexcept { return latency_ + bytes / fastest_bandwidth_; }

 private:
  double latency_;
  double fastest_bandwidth_;
};

// What a level reads besides the links' speeds: the machine file's
// network_levels.NAME object, with the machine's "packet" format and its
// "topology" name added (level_parameters in sim/plan/platform.hpp).
using LevelParameters = nlohmann::json;

// One level, as its file registers it.
struct NetworkLevelKind {
  const char* name;
  const char* help;  // one line, for --help and the level list
  // Null where SimGrid's own links carry the messages (the reference level).
  std::unique_ptr<MessageTiming> (*make_timing)(std::shared_ptr<const PhysicalLinks> links, LinkSpeeds speeds,
                                                const LevelParameters& parameters);
  // Throws std::invalid_argument, one line naming the field at fault, when
  // the level cannot run with these parameters. Null: it reads none.
  void (*check)(const LevelParameters& parameters) = nullptr;
};

class NetworkLevel {
 public:
  // The reference level: SimGrid's links, shared (flow).
  NetworkLevel();
  // Throws std::invalid_argument naming every level.
  static NetworkLevel named(const std::string& name);
  static std::vector<NetworkLevel> all();

  const char* name() const noexcept { return kind_->name; }
  const char* help() const noexcept { return kind_->help; }
  // SimGrid's own links carry this level's messages; else it times them.
  bool simgrid_links() const noexcept { return kind_->make_timing == nullptr; }
  // Throws std::invalid_argument at the reference level, or for a bandwidth
  // not above 0 or a negative latency.
  std::unique_ptr<MessageTiming> timing(std::shared_ptr<const PhysicalLinks> links, LinkSpeeds speeds,
                                        const LevelParameters& parameters = LevelParameters::object()) const;
  // The level's own check of its parameters (NetworkLevelKind::check).
  void check(const LevelParameters& parameters) const;

  bool operator==(const NetworkLevel& other) const noexcept { return kind_ == other.kind_; }

 private:
  explicit NetworkLevel(const NetworkLevelKind* kind) : kind_(kind) {}
  const NetworkLevelKind* kind_;
};

std::string to_string(NetworkLevel level);
NetworkLevel network_level_named(const std::string& name);
// Every level's name, in levels.def's order.
std::vector<std::string> network_level_names();
// The list a launcher reads: [{"name", "help", "simgrid_links"}, ...] as one line of JSON.
std::string network_levels_json();

}  // namespace gups
