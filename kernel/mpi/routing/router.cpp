#include "kernel/mpi/routing/router.hpp"

namespace gups::routing {

Router::Router(CoreShared& core)
    : core_(core),
      route_(core.context.layout, core.context.owner_of, core.shape, core.plan, core.context.distribution, core.node,
             core.core) {
  build_buckets();
  static_assert(RouteStep::kApplyHere == -1);
  place_of_target_.push_back(&applied_here_);
  for (auto& bucket : buckets_) place_of_target_.push_back(&bucket);
}

void Router::build_buckets() {
  const CoreRole& role = core_.role;
  for (unsigned d = role.first_dimension; d < role.end_dimension; ++d) {
    for (const auto neighbour : core_.shape.line_neighbours(core_.node, d)) {
      route_.set_network_bucket(
          d, neighbour,
          add_bucket(core_.rank_of(neighbour, core_.plan.network_receiver(core_.core, d)), static_cast<int>(d)));
    }
  }
  for (const auto receiver : core_.plan.local_receivers(core_.core)) {
    route_.set_local_bucket(receiver, add_bucket(core_.rank_of(core_.node, receiver), kLocalChannel));
  }
  route_.look_up_by_slice();
}

int Router::add_bucket(int destination_rank, int channel) {
  Bucket bucket;
  bucket.items.resize(core_.capacity);
  bucket.capacity = core_.capacity;
  bucket.destination_rank = destination_rank;
  bucket.channel = channel;
  buckets_.push_back(std::move(bucket));
  return static_cast<int>(buckets_.size()) - 1;
}

void Router::send(int b) {
  auto& bucket = buckets_[static_cast<std::size_t>(b)];
  UpdateStats& stats = core_.stats;
  core_.costs.message_sent();
  core_.start_after_work();
  const auto bytes = core_.messages->send(static_cast<std::size_t>(b), bucket.items.data(), bucket.count,
                                          bucket.destination_rank, bucket.channel);
  bucket.in_flight = true;
  ++in_flight_;
  if (bucket.channel == kLocalChannel) {
    stats.updates_handed += bucket.count;
    ++stats.local_messages_sent;
  } else {
    stats.updates_sent += bucket.count;
    stats.network_bytes_sent += bytes;
    if (core_.context.links) {
      core_.context.links->carry(core_.context.rank, bucket.destination_rank, static_cast<double>(bytes));
    }
    ++stats.messages_sent;
  }
}

bool Router::flush(int channel) {
  bool empty = true;
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    auto& bucket = buckets_[b];
    if (bucket.channel != channel) continue;
    if (!bucket.in_flight && bucket.count > 0) send(static_cast<int>(b));
    empty &= !bucket.in_flight && bucket.count == 0;
  }
  return empty;
}

void Router::on_send_complete(std::size_t b) {
  auto& bucket = buckets_[b];
  --in_flight_;
  core_.lookahead.left_core(bucket.count);
  if (bucket.channel != kLocalChannel) core_.lookahead.left_node(bucket.count);
  bucket.count = 0;
  bucket.in_flight = false;
}

}  // namespace gups::routing
