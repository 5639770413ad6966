// latency: no contention. A message takes each hop's latency and its time on
// the slowest link of its route, whatever else is in flight.
#include <algorithm>

#include "sim/levels/network_level.hpp"

namespace gups {
namespace {

class HopLatencies final : public MessageTiming {
 public:
  HopLatencies(std::shared_ptr<const PhysicalLinks> links, LinkSpeeds speeds)
      : links_(std::move(links)), speeds_(speeds), least_(*links_, speeds) {}

  double arrival(std::uint64_t from, std::uint64_t to, double bytes, double now) override {
    links_->route(from, to, route_);
    double head = now;
    double hold = 0;
    for (const auto link : route_) {
      hold = std::max(hold, bytes / (speeds_.bandwidth * links_->bandwidth_factor(link)));
      head += speeds_.latency;
    }
    return head + hold;
  }

  double least_transfer(double bytes) const override { return least_(bytes); }

 private:
  std::shared_ptr<const PhysicalLinks> links_;
  LinkSpeeds speeds_;
  OneHopAtLeast least_;
  std::vector<std::uint32_t> route_;
};

}  // namespace

extern const NetworkLevelKind network_level_latency{
    "latency", "no contention: latency per hop plus the message's time on one link",
    [](std::shared_ptr<const PhysicalLinks> links, LinkSpeeds speeds,
       const LevelParameters&) -> std::unique_ptr<MessageTiming> {
      return std::make_unique<HopLatencies>(std::move(links), speeds);
    }};

}  // namespace gups
