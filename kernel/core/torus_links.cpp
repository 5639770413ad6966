#include "torus_links.hpp"

#include <algorithm>
#include <stdexcept>

namespace gups {

const std::vector<std::string>& network_level_names() {
  static const std::vector<std::string> names{"flow", "queue", "latency"};
  return names;
}

NetworkLevel network_level_named(const std::string& name) {
  const auto& names = network_level_names();
  const auto at = std::find(names.begin(), names.end(), name);
  if (at == names.end()) throw std::invalid_argument("unknown network level '" + name + "' (give flow, queue or latency)");
  return static_cast<NetworkLevel>(at - names.begin());
}

std::string to_string(NetworkLevel level) {
  return network_level_names()[static_cast<std::size_t>(level)];
}

TorusLinks::TorusLinks(TorusShape shape, std::vector<bool> wraps) : shape_(std::move(shape)), wraps_(std::move(wraps)) {
  if (wraps_.size() != shape_.dimensions()) {
    throw std::invalid_argument("a torus of " + std::to_string(shape_.dimensions()) + " dimensions needs " +
                                std::to_string(shape_.dimensions()) + " wrap-around flags, not " +
                                std::to_string(wraps_.size()));
  }
}

bool TorusLinks::exists(std::uint32_t link) const noexcept {
  const std::uint64_t node = link / 2 / shape_.dimensions();
  const unsigned d = dimension(link);
  const auto side = shape_.size(d);
  if (node >= shape_.nodes() || side == 1) return false;
  return wraps_[d] || shape_.coordinate(node, d) + 1 < side;
}

std::vector<std::string> TorusLinks::class_names() const {
  std::vector<std::string> names;
  for (unsigned d = 0; d < shape_.dimensions(); ++d) names.push_back("dimension " + std::to_string(d));
  return names;
}

void TorusLinks::route(std::uint64_t from, std::uint64_t to, std::vector<std::uint32_t>& links) const {
  links.clear();
  std::uint64_t here = from;
  for (unsigned d = 0; d < shape_.dimensions() && here != to; ++d) {
    const std::uint32_t k = shape_.size(d);
    const std::uint32_t mine = shape_.coordinate(from, d);
    const std::uint32_t target = shape_.coordinate(to, d);
    if (mine == target) continue;
    // SimGrid's TorusZone test, word for word: a tie (half-way round) goes +
    // except from the middle coordinate towards 0.
    const bool up = wraps_[d] ? (target > mine && target <= mine + k / 2) || (mine > k / 2 && (mine + k / 2) % k >= target)
                              : target > mine;
    for (std::uint32_t c = mine; c != target;) {
      const std::uint32_t next = up ? (c + 1 == k ? 0 : c + 1) : (c == 0 ? k - 1 : c - 1);
      const std::uint64_t next_node = shape_.with_coordinate(here, d, next);
      links.push_back(up ? link_of(here, d, true) : link_of(next_node, d, false));
      here = next_node;
      c = next;
    }
  }
}

LinkQueues::LinkQueues(std::shared_ptr<const PhysicalLinks> links, NetworkLevel level, double bandwidth_bytes_per_s,
                       double latency_s)
    : links_(std::move(links)),
      level_(level),
      bandwidth_(bandwidth_bytes_per_s),
      latency_(latency_s),
      bookings_(links_->count()) {
  if (level == NetworkLevel::flow) throw std::invalid_argument("the flow level is SimGrid's own: no link queues");
  if (!(bandwidth_ > 0) || !(latency_ >= 0)) {
    throw std::invalid_argument("link queues need a bandwidth above 0 and a latency of 0 or more");
  }
}

double LinkQueues::arrival(std::uint64_t from, std::uint64_t to, double bytes, double now) {
  links_->route(from, to, route_);
  const bool queued = level_ == NetworkLevel::queue;
  double head = now;
  double hold = 0;  // on the slowest link so far: a message arrives whole when its tail has crossed it
  for (const auto link : route_) {
    const double on_link = bytes / (bandwidth_ * links_->bandwidth_factor(link));
    hold = std::max(hold, on_link);
    if (queued) {
      auto& booked = bookings_[link];
      // What ended before now can hold no head any more: every later call comes at now or after.
      std::size_t past = 0;
      while (past < booked.size() && booked[past].end <= now) ++past;
      booked.erase(booked.begin(), booked.begin() + static_cast<std::ptrdiff_t>(past));
      auto at = booked.begin();
      for (; at != booked.end() && at->start < head + on_link; ++at) head = std::max(head, at->end);
      booked.insert(at, Booking{head, head + on_link});
    }
    head += latency_;
  }
  return head + hold;
}

}  // namespace gups
