// packet: messages cut into the machine's packets, each crossing the torus
// hop by hop through finite virtual-channel buffers under credit flow
// control (virtual cut-through), routed minimally and adaptively on the
// dynamic channels with a dimension-order escape channel under the bubble
// rule; a node's packets leave through a few hardware injection FIFOs in
// order, and arrive in finite reception FIFOs that its DMA drains.
//
// Like queue, the level works out a packet's whole crossing when it is
// injected, against what the packets injected before it have booked: an
// older packet is never held back by a younger one (age-ordered
// arbitration, assumed: the routers' arbitration is not public). What makes
// it saturate is what it books: a packet holds room in a buffer from the
// moment the link towards it starts sending (credits are counted by the
// sender) until its tail has left on the next link and the credit is back,
// so a packet that cannot move on keeps the buffer behind it full; each
// buffer is a FIFO, so a packet leaves it only after those that came in
// before it (head-of-line blocking: one waiting for a busy link holds back
// one behind it bound elsewhere); and a packet whose buffer ahead would fill
// before it could leave it again waits upstream instead, back to its
// injection FIFO, which then holds the node's next packets behind it.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/levels/fifo_passages.hpp"
#include "sim/levels/network_level.hpp"
#include "sim/levels/packet_network.hpp"
#include "topologies/torus_links.hpp"

namespace gups {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// A resource one packet holds at a time (a link's wire, a node's drain),
// booked for stretches to come; a packet takes the first free stretch long
// enough for it. Stretches do not overlap, so both their starts and their
// ends are in order: a search finds where to look. A stretch booked where
// another ends joins it (no packet fits in between), so that a saturated
// wire, booked back to back, is one stretch to look past, not thousands.
//
// Both Serial and Buffer are asked only about times at or after the last
// time they forgot, and forget once per simulated time: a message's packets
// are all booked at the same time, and each looks at several channels.
class Serial {
 public:
  double earliest(double from, double hold) const {
    double t = from;
    auto at = std::upper_bound(booked_.begin(), booked_.end(), from,
                               [](double time, const Stretch& b) { return time < b.end; });
    for (; at != booked_.end(); ++at) {
      if (at->start >= t + hold) break;
      t = std::max(t, at->end);
    }
    return t;
  }
  void book(double start, double hold) {
    const Stretch s{start, start + hold};
    auto at = std::upper_bound(booked_.begin(), booked_.end(), s,
                               [](const Stretch& a, const Stretch& b) { return a.start < b.start; });
    const bool joins_before = at != booked_.begin() && (at - 1)->end == s.start;
    const bool joins_after = at != booked_.end() && at->start == s.end;
    if (joins_before && joins_after) {
      (at - 1)->end = at->end;
      booked_.erase(at);
    } else if (joins_before) {
      (at - 1)->end = s.end;
    } else if (joins_after) {
      at->start = s.start;
    } else {
      const auto offset = at - booked_.begin();
      make_room_for_one(booked_);
      booked_.insert(booked_.begin() + offset, s);
    }
  }
  void forget_before(double now) {
    if (now <= forgot_) return;
    forgot_ = now;
    const auto past = std::upper_bound(booked_.begin(), booked_.end(), now,
                                       [](double time, const Stretch& b) { return time < b.end; });
    booked_.erase(booked_.begin(), past);
    give_back_unused(booked_);
  }

 private:
  struct Stretch {
    double start;
    double end;
  };
  std::vector<Stretch> booked_;  // by start
  double forgot_ = -kNever;
};

// A buffer of so many chunks (a virtual channel's at a router's input, a
// reception FIFO): how full it is over time, kept as steps (from each
// step's time on, so many chunks are held, until the next step; none
// before the first, and the last is empty). The steps' times and counts are
// two arrays: a search reads only times, eight to a cache line, and a step
// takes 12 bytes, not a padded 16 (behind a saturated cut a buffer holds
// thousands of steps ahead).
class Buffer {
 public:
  unsigned held_at(double t) const {
    const auto at = in_effect(t);
    return at == kBefore ? 0 : held_[at];
  }

  // The first time in [from, until) at which `need` more chunks would not
  // fit in `depth` (kNever: none).
  double first_overflow(double from, double until, unsigned need, unsigned depth) const {
    auto at = in_effect(from);
    if (at == kBefore) at = 0;
    for (; at < times_.size() && times_[at] < until; ++at) {
      if (held_[at] + need > depth) return std::max(times_[at], from);
    }
    return kNever;
  }

  // The first time at or after `t` from which `need` more chunks fit.
  double room_from(double t, unsigned need, unsigned depth) const {
    auto at = in_effect(t);
    if (at == kBefore) return t;  // before the first step: empty
    for (; at < times_.size(); ++at) {
      if (held_[at] + need <= depth) return std::max(times_[at], t);
    }
    return kNever;
  }

  void hold(double enter, double leave, unsigned chunks) {
    const auto first = step_at(enter);
    const auto last = step_at(leave);
    for (auto i = first; i < last; ++i) held_[i] += chunks;
  }

  void forget_before(double now) {
    if (now <= forgot_) return;
    forgot_ = now;
    const auto at = in_effect(now);
    if (at != kBefore) {
      times_.erase(times_.begin(), times_.begin() + static_cast<std::ptrdiff_t>(at));
      held_.erase(held_.begin(), held_.begin() + static_cast<std::ptrdiff_t>(at));
      give_back_unused(times_);
      give_back_unused(held_);
    }
    passages_.forget_before(now);
  }

  // A buffer is a FIFO: a packet whose head came in at `in` leaves it only
  // after every packet that came in before it has (head-of-line blocking).
  // Asked at or after the time the buffer last forgot.
  double clear_after(double in) const { return passages_.clear_after(in); }
  void pass(double in, double out) { passages_.pass(in, out); }

  // Each step from `from` to `until`, as (time, chunks held).
  template <typename Visit>
  void each_step(double from, double until, Visit visit) const {
    auto at = in_effect(from);
    if (at == kBefore) at = 0;
    for (; at < times_.size() && times_[at] < until; ++at) visit(std::max(times_[at], from), held_[at]);
  }

 private:
  static constexpr std::size_t kBefore = static_cast<std::size_t>(-1);
  // The first step after t.
  std::size_t after(double t) const {
    return static_cast<std::size_t>(std::upper_bound(times_.begin(), times_.end(), t) - times_.begin());
  }
  // The step whose stretch holds t, or kBefore when t is before the first.
  std::size_t in_effect(double t) const {
    const auto next = after(t);
    return next == 0 ? kBefore : next - 1;
  }
  // The index of a step starting at t, made if there is none.
  std::size_t step_at(double t) {
    const auto next = after(t);
    if (next > 0 && times_[next - 1] == t) return next - 1;
    const unsigned held = next == 0 ? 0 : held_[next - 1];
    make_room_for_one(times_);
    make_room_for_one(held_);
    times_.insert(times_.begin() + static_cast<std::ptrdiff_t>(next), t);
    held_.insert(held_.begin() + static_cast<std::ptrdiff_t>(next), held);
    return next;
  }
  std::vector<double> times_;
  std::vector<unsigned> held_;
  FifoPassages passages_;
  double forgot_ = -kNever;
};

class TorusPackets final : public PacketNetwork {
 public:
  TorusPackets(std::shared_ptr<const TorusLinks> links, LinkSpeeds speeds, const PacketParameters& parameters)
      : links_(std::move(links)),
        speeds_(speeds),
        p_(parameters),
        channels_(p_.dynamic_channels + 1),
        directions_(2 * links_->shape().dimensions()),
        wires_(links_->count()),
        buffers_(static_cast<std::size_t>(links_->count()) * channels_),
        reception_(links_->nodes() * directions_),
        drains_(links_->nodes()),
        injection_free_(links_->nodes() * p_.injection_fifos, 0.0) {}

  const PacketAudit& audit() const noexcept override { return audit_; }
  const PacketParameters& parameters() const noexcept override { return p_; }

  double arrival(std::uint64_t from, std::uint64_t to, double bytes, double now) override {
    // Whole packets of the largest size, then the rest, injected in order.
    double arrived = now;
    double left = bytes;
    do {
      const double size = std::min(left, p_.max_wire_bytes());
      arrived = std::max(arrived, send_packet(from, to, size, now));
      left -= size;
    } while (left > 1e-9);  // a byte count's rounding leaves no packet of nothing
    return arrived;
  }

 private:
  struct Step {
    std::uint32_t link;
    unsigned channel;
    std::uint64_t node;  // where the link leads
    double depart;       // the head starts on the link
    double on_link;      // the packet's time on it
    Buffer* into;
    unsigned depth;
    bool escape;
  };
  struct Choice {
    double depart = kNever;
    unsigned held = 0;
    Step step{};
  };

  double on_link(double size, std::uint32_t link) const {
    return size / (speeds_.bandwidth * links_->bandwidth_factor(link));
  }
  unsigned direction(std::uint32_t link) const noexcept { return link % directions_; }

  // The buffer a link's channel feeds: the next router's, or the reception
  // FIFO of that direction where the packet ends.
  Buffer& into(std::uint32_t link, unsigned channel, std::uint64_t node, std::uint64_t to, unsigned& depth) {
    if (node == to) {
      depth = p_.reception_fifo_chunks;
      return reception_[node * directions_ + direction(link)];
    }
    depth = p_.channel_buffer_chunks;
    return buffers_[static_cast<std::size_t>(link) * channels_ + channel];
  }

  double not_before(const Buffer* buffer) const {
    double t = 0;
    for (const auto& [b, time] : not_before_) {
      if (b == buffer) t = std::max(t, time);
    }
    return t;
  }

  // The earliest the packet's head may start on `hop`'s link at or after
  // `from`, with room for `need` chunks in the buffer it feeds while it
  // arrives whole.
  Choice earliest(const PhysicalLinks::Hop& hop, unsigned channel, bool escape, double from, double size,
                  unsigned need, std::uint64_t to, double now) {
    Choice c;
    c.step = {hop.link, channel, hop.node, 0, on_link(size, hop.link), nullptr, 0, escape};
    auto& buffer = into(hop.link, channel, hop.node, to, c.step.depth);
    c.step.into = &buffer;
    auto& wire = wires_[hop.link];
    wire.forget_before(now);
    buffer.forget_before(now);
    // Room is held from the moment the link starts sending (the sender counts credits).
    double t = std::max(from, not_before(&buffer));
    for (int tries = 0; tries < 100000; ++tries) {
      t = wire.earliest(t, c.step.on_link);
      const double overflow = buffer.first_overflow(t, t + speeds_.latency + c.step.on_link, need, c.step.depth);
      if (overflow == kNever) {
        c.depart = t;
        c.held = buffer.held_at(t);
        c.step.depart = t;
        return c;
      }
      const double room = buffer.room_from(overflow, need, c.step.depth);
      if (room == kNever) return c;  // never enough room: the level's check makes this unreachable
      t = room;
    }
    throw std::logic_error("packet level: no room found for a packet in 100000 tries");
  }

  double send_packet(std::uint64_t from, std::uint64_t to, double size, double now) {
    const unsigned chunks = p_.chunks(size);
    links_->minimal_hops(from, to, hops_);
    const auto first = hops_.front();
    double& fifo_free = injection_free_[from * p_.injection_fifos + direction(first.link) % p_.injection_fifos];
    const double injected = std::max(now, fifo_free);
    steps_.clear();
    not_before_.clear();
    for (int tries = 0;; ++tries) {
      if (tries > 1000000) throw std::logic_error("packet level: a packet found no path in 1000000 steps");
      const std::size_t k = steps_.size();
      const std::uint64_t here = k == 0 ? from : steps_[k - 1].node;
      // The packet's head is in (and may go on) from head_in; its tail
      // cannot leave before it came in.
      const double head_in = k == 0 ? injected : steps_[k - 1].depart + speeds_.latency;
      const double tail_in = k == 0 ? injected : head_in + steps_[k - 1].on_link;
      // Behind the packets that came into its buffer before it.
      const double free_from = k == 0 ? head_in : std::max(head_in, steps_[k - 1].into->clear_after(head_in));
      double leave = 0;  // when its tail has left where it is (k > 0)
      Choice best;
      if (here == to) {
        auto& drain = drains_[to];
        drain.forget_before(now);
        const double emptying = size / p_.reception_bytes_per_s;
        const double start = drain.earliest(free_from, emptying);
        leave = std::max(start + emptying, tail_in);
        best.depart = start;
      } else {
        choose(here, to, free_from, tail_in, size, chunks, now, best);
        if (best.depart == kNever) throw std::logic_error("packet level: a packet has nowhere to go");
        leave = best.depart + best.step.on_link + speeds_.latency;  // its credit is back upstream then
      }
      if (k > 0) {
        // It holds its room where it is until it leaves: if that buffer
        // fills before then, it waits upstream until there is room again.
        const auto& at = steps_[k - 1];
        const double overflow = at.into->first_overflow(at.depart, leave, chunks, at.depth);
        if (overflow != kNever) {
          ++audit_.held_upstream;
          const double room = at.into->room_from(std::nextafter(overflow, kNever), chunks, at.depth);
          not_before_.push_back({at.into, std::max(room, std::nextafter(overflow, kNever))});
          steps_.pop_back();
          continue;
        }
      }
      if (here == to) return book(from, to, size, chunks, best.depart, leave, fifo_free);
      steps_.push_back(best.step);
    }
  }

  void choose(std::uint64_t here, std::uint64_t to, double head_in, double tail_in, double size, unsigned chunks,
              double now, Choice& best) {
    links_->minimal_hops(here, to, hops_);
    const bool was_escape = !steps_.empty() && steps_.back().escape;
    const unsigned was_dimension = steps_.empty() ? ~0u : links_->dimension(steps_.back().link);
    auto consider = [&](const PhysicalLinks::Hop& hop, unsigned channel, bool escape) {
      const double leg = on_link(size, hop.link);
      // The bubble rule: entering the escape channel's ring needs room for
      // one more largest packet besides its own.
      const bool bubble = escape && !(was_escape && was_dimension == links_->dimension(hop.link));
      const unsigned need = chunks + (bubble ? p_.max_chunks() : 0);
      const auto c = earliest(hop, channel, escape, std::max(head_in, tail_in - leg), size, need, to, now);
      if (c.depart < best.depart || (c.depart == best.depart && c.held < best.held)) best = c;
    };
    if (p_.adaptive) {
      for (const auto& hop : hops_) {
        for (unsigned channel = 0; channel < p_.dynamic_channels; ++channel) consider(hop, channel, false);
      }
    }
    // The escape channel, on the dimension-order hop, taken only when it is
    // strictly earlier than every dynamic one.
    const Choice dynamic = best;
    best = Choice{};
    consider(hops_.front(), p_.dynamic_channels, true);
    if (dynamic.depart <= best.depart) best = dynamic;
  }

  double book(std::uint64_t from, std::uint64_t to, double size, unsigned chunks, double drain_start, double arrived,
              double& fifo_free) {
    ++audit_.packets;
    fifo_free = steps_.front().depart + steps_.front().on_link;
    links_->route(from, to, route_);
    audit_.shortest_hops += route_.size();
    const double emptying = size / p_.reception_bytes_per_s;
    for (std::size_t i = 0; i < steps_.size(); ++i) {
      const auto& s = steps_[i];
      wires_[s.link].book(s.depart, s.on_link);
      const bool last = i + 1 == steps_.size();
      // Its tail leaves the buffer on the next link (or into memory); its
      // room there is free again when the credit is back upstream.
      const double out = last ? drain_start + emptying : steps_[i + 1].depart + steps_[i + 1].on_link;
      const double leave = last ? arrived : out + speeds_.latency;
      s.into->each_step(s.depart, leave, [&](double, unsigned held) {
        if (held + chunks > s.depth) ++audit_.overfilled;
        audit_.most_chunks_held = std::max(audit_.most_chunks_held, held + chunks);
      });
      s.into->hold(s.depart, leave, chunks);
      s.into->pass(s.depart + speeds_.latency, out);
      ++audit_.hops;
      audit_.escape_hops += s.escape;
      if (i < route_.size() && s.link != route_[i]) ++audit_.off_route_hops;
    }
    drains_[to].book(drain_start, emptying);
    return arrived;
  }

  std::shared_ptr<const TorusLinks> links_;
  LinkSpeeds speeds_;
  PacketParameters p_;
  unsigned channels_;
  unsigned directions_;
  std::vector<Serial> wires_;
  std::vector<Buffer> buffers_;    // by link, then channel (the escape channel last)
  std::vector<Buffer> reception_;  // by node, then incoming direction
  std::vector<Serial> drains_;     // by node
  std::vector<double> injection_free_;  // by node, then hardware FIFO: when its last packet has left it
  PacketAudit audit_;
  // Reused by every packet.
  std::vector<PhysicalLinks::Hop> hops_;
  std::vector<Step> steps_;
  std::vector<std::pair<const Buffer*, double>> not_before_;
  std::vector<std::uint32_t> route_;
};

unsigned whole(const LevelParameters& p, const char* key, unsigned minimum, const std::string& why = "") {
  const auto at = p.find(key);
  if (at == p.end()) throw std::invalid_argument(fmt::format("network_levels.packet.{} is missing", key));
  if (!at->is_number_integer() || at->get<long long>() < minimum || at->get<long long>() > (1 << 20)) {
    throw std::invalid_argument(fmt::format("network_levels.packet.{} must be a whole number from {} to 2^20{}", key,
                                            minimum, why));
  }
  return at->get<unsigned>();
}

}  // namespace

unsigned PacketParameters::chunks(double bytes) const noexcept {
  const double held = std::min(bytes, static_cast<double>(max_packet_bytes));
  return std::max(1u, static_cast<unsigned>(std::ceil(held / chunk_bytes - 1e-9)));
}

PacketParameters PacketParameters::read(const LevelParameters& p) {
  if (!p.is_object()) throw std::invalid_argument("network_levels.packet must be an object");
  const auto topology = p.value("topology", std::string("torus"));
  if (topology != "torus") {
    throw std::invalid_argument(fmt::format(
        "the packet level routes packets on a torus or mesh; a {} machine is refused (use flow, queue or latency)",
        topology));
  }
  static const std::set<std::string> known{"topology",         "packet",          "routing",
                                           "dynamic_channels", "channel_buffer_chunks", "injection_fifos",
                                           "reception_fifo_chunks", "reception_bytes_per_s"};
  for (const auto& [key, value] : p.items()) {
    if (!known.count(key)) throw std::invalid_argument(fmt::format("network_levels.packet.{} is not a known field", key));
  }
  // What a machine file leaves out is named as missing, all of it at once, not as a wrong value.
  static const char* const kRequired[] = {"routing", "dynamic_channels", "channel_buffer_chunks", "injection_fifos",
                                          "reception_fifo_chunks", "reception_bytes_per_s"};
  std::vector<std::string> missing;
  for (const char* key : kRequired) {
    if (!p.contains(key)) missing.emplace_back(key);
  }
  if (missing.size() == std::size(kRequired)) {
    throw std::invalid_argument(fmt::format(
        "the machine file has no network_levels.packet section, which the packet level needs ({}: "
        "docs/machine-files.md); or use --network flow, queue or latency",
        fmt::join(missing, ", ")));
  }
  if (!missing.empty()) {
    throw std::invalid_argument(fmt::format("network_levels.packet lacks {} (docs/machine-files.md)",
                                            fmt::join(missing, ", ")));
  }
  PacketParameters r;
  const auto packet = p.value("packet", nlohmann::json::object());
  r.max_packet_bytes = packet.value("max_bytes", 0u);
  r.chunk_bytes = packet.value("granularity_bytes", 0u);
  r.ack_bytes = packet.value("ack_bytes", 0u);
  if (r.chunk_bytes == 0 || r.max_packet_bytes < r.chunk_bytes) {
    throw std::invalid_argument("the packet level needs the machine's packet.max_bytes and packet.granularity_bytes");
  }
  const auto routing = p.find("routing");
  if (!routing->is_string() || (*routing != "adaptive" && *routing != "deterministic")) {
    throw std::invalid_argument("network_levels.packet.routing must be \"adaptive\" or \"deterministic\"");
  }
  r.adaptive = *routing == "adaptive";
  r.dynamic_channels = whole(p, "dynamic_channels", r.adaptive ? 1 : 0, r.adaptive ? " (adaptive routing needs one)" : "");
  const unsigned bubble = 2 * r.max_chunks();
  r.channel_buffer_chunks = whole(p, "channel_buffer_chunks", bubble,
                                  fmt::format(" (the escape channel's bubble rule needs room for two {}-byte packets)",
                                              r.max_packet_bytes));
  r.injection_fifos = whole(p, "injection_fifos", 1);
  r.reception_fifo_chunks =
      whole(p, "reception_fifo_chunks", r.max_chunks(), fmt::format(" (a {}-byte packet)", r.max_packet_bytes));
  const auto rate = p.find("reception_bytes_per_s");
  if (rate == p.end() || !rate->is_number() || !(rate->get<double>() > 0) || !std::isfinite(rate->get<double>())) {
    throw std::invalid_argument("network_levels.packet.reception_bytes_per_s must be a number above 0");
  }
  r.reception_bytes_per_s = rate->get<double>();
  return r;
}

std::unique_ptr<PacketNetwork> make_packet_network(std::shared_ptr<const PhysicalLinks> links, LinkSpeeds speeds,
                                                   const PacketParameters& parameters) {
  auto torus = std::dynamic_pointer_cast<const TorusLinks>(links);
  if (!torus) throw std::invalid_argument("the packet level routes packets on a torus or mesh only");
  return std::make_unique<TorusPackets>(std::move(torus), speeds, parameters);
}

extern const NetworkLevelKind network_level_packet{
    "packet",
    "packets through finite virtual-channel buffers with credits, adaptive routing with a bubble escape channel, "
    "injection and reception FIFOs: a torus that saturates",
    [](std::shared_ptr<const PhysicalLinks> links, LinkSpeeds speeds,
       const LevelParameters& parameters) -> std::unique_ptr<MessageTiming> {
      return make_packet_network(std::move(links), speeds, PacketParameters::read(parameters));
    },
    [](const LevelParameters& parameters) { PacketParameters::read(parameters); }};

}  // namespace gups
