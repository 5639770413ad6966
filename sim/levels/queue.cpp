// queue: every directed link serves messages one at a time as their heads
// reach it (virtual cut-through, unbounded buffers): contention at each hop,
// no sharing to solve.
#include <algorithm>

#include "sim/levels/network_level.hpp"

namespace gups {
namespace {

// A message's head reaches each link of its route in turn, waits until the
// link is free, holds it for bytes/bandwidth and moves on one link latency
// later (so, uncontended, hops x latency + bytes/bandwidth, as flow gives).
//
// A message's whole crossing is worked out when it is injected, so a link
// far along its route is booked for a time to come. A link keeps those
// bookings, and a message whose head gets there earlier takes the first
// free stretch long enough for it (were the link simply busy until its last
// booking, a message injected next to it would wait for one that is still
// hops away: on a 32x8x8 torus that cut the rate by 40%).
class LinkQueues final : public MessageTiming {
 public:
  LinkQueues(std::shared_ptr<const PhysicalLinks> links, LinkSpeeds speeds)
      : links_(std::move(links)), speeds_(speeds), least_(*links_, speeds), bookings_(links_->count()) {}

  double arrival(std::uint64_t from, std::uint64_t to, double bytes, double now) override {
    links_->route(from, to, route_);
    double head = now;
    double hold = 0;  // on the slowest link so far: a message arrives whole when its tail has crossed it
    for (const auto link : route_) {
      const double on_link = bytes / (speeds_.bandwidth * links_->bandwidth_factor(link));
      hold = std::max(hold, on_link);
      auto& booked = bookings_[link];
      // What ended before now can hold no head any more: every later call comes at now or after.
      std::size_t past = 0;
      while (past < booked.size() && booked[past].end <= now) ++past;
      booked.erase(booked.begin(), booked.begin() + static_cast<std::ptrdiff_t>(past));
      auto at = booked.begin();
      for (; at != booked.end() && at->start < head + on_link; ++at) head = std::max(head, at->end);
      booked.insert(at, Booking{head, head + on_link});
      head += speeds_.latency;
    }
    return head + hold;
  }

  // Waits at links only add to it.
  double least_transfer(double bytes) const override { return least_(bytes); }

 private:
  struct Booking {
    double start;
    double end;
  };
  std::shared_ptr<const PhysicalLinks> links_;
  LinkSpeeds speeds_;
  OneHopAtLeast least_;
  // Per directed link, the stretches it is booked for from now on, in time order.
  std::vector<std::vector<Booking>> bookings_;
  std::vector<std::uint32_t> route_;  // reused: a route per message, no allocation
};

}  // namespace

extern const NetworkLevelKind network_level_queue{
    "queue",
    "every directed link serves one message at a time, as their heads reach it: contention at each hop, no sharing "
    "to solve",
    [](std::shared_ptr<const PhysicalLinks> links, LinkSpeeds speeds,
       const LevelParameters&) -> std::unique_ptr<MessageTiming> {
      return std::make_unique<LinkQueues>(std::move(links), speeds);
    }};

}  // namespace gups
