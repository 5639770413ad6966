#include "kernel/mpi/routing/receive_buffers.hpp"

#include <algorithm>

#include "kernel/core/role_plan.hpp"

namespace gups::routing {

ReceiveBuffers::ReceiveBuffers(CoreShared& core, const RouteStep& route) : core_(core) {
  build();
  for (const auto d : core.plan.incoming_dimensions(core.core)) arrivals_apply_here_[d] = route.arrivals_apply_here(d);
  // What other cores of the node hand to an updater is its own slice's.
  arrivals_apply_here_[kLocalChannel] = core.role.updater >= 0;
}

void ReceiveBuffers::build() {
  auto add_buffers = [this](int channel, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      ReceiveBuffer buffer;
      buffer.data.resize(core_.capacity);
      buffer.channel = channel;
      buffers_.push_back(std::move(buffer));
    }
  };
  for (const auto d : core_.plan.incoming_dimensions(core_.core)) {
    if (core_.shape.size(d) > 1) {
      expected_done_[d] = static_cast<int>((core_.shape.size(d) - 1) * core_.plan.incoming_pipelines(core_.core, d));
      add_buffers(static_cast<int>(d), BucketSizing::kReceivesPerDimension);
    }
  }
  expected_done_[kLocalChannel] = static_cast<int>(core_.plan.local_senders(core_.core).size());
  add_buffers(kLocalChannel, static_cast<std::size_t>(expected_done_[kLocalChannel]));
}

void ReceiveBuffers::post_all() {
  for (auto& buffer : buffers_) post(buffer);
}

void ReceiveBuffers::post(ReceiveBuffer& buffer) {
  core_.start_after_work();  // a buffer is free once the updates it held are handled
  core_.lookahead.flush();   // ... and the node's count knows it before a sender can fill it again
  const auto i = static_cast<std::size_t>(&buffer - buffers_.data());
  core_.messages->post(slot_of(i), buffer.data.data(), core_.capacity, buffer.channel);
  buffer.posted = true;
  buffer.posted_sequence = ++posts_;
}

void ReceiveBuffers::on_receive_complete(std::size_t i, const MessageSlots::Completion& completion) {
  const std::size_t count = completion.count;
  auto& buffer = buffers_[i];
  buffer.posted = false;
  if (count == 0) {  // the sender is done with this channel
    complete_receives_posted_before(buffer.channel, buffer.posted_sequence);
    ++done_received_[buffer.channel];
    if (!channel_closed(buffer.channel)) post(buffer);
    return;
  }
  buffer.count = count;
  buffer.cursor = 0;
  buffer.holding = true;
  ++holding_[buffer.channel];
  core_.lookahead.entered_core(buffer.count);
  if (buffer.channel != kLocalChannel) core_.lookahead.entered_node(buffer.count);
  core_.costs.message_received(buffer.count, completion.arrived);
  if (buffer.channel == kLocalChannel) {
    ++core_.stats.local_messages_received;
  } else {
    core_.stats.updates_received += buffer.count;
    ++core_.stats.messages_received;
  }
}

// A sender's "done" follows its data, and MPI matches a channel's messages
// to its receives in posting order: so every receive of the channel posted
// before the one the "done" met is matched already. wait_any() reports
// completions in no particular order; these are completed now, oldest
// first, so that no update is left behind when the channel closes.
void ReceiveBuffers::complete_receives_posted_before(int channel, std::uint64_t sequence) {
  for (;;) {
    ReceiveBuffer* oldest = nullptr;
    for (auto& candidate : buffers_) {
      if (candidate.posted && candidate.channel == channel && candidate.posted_sequence < sequence &&
          (oldest == nullptr || candidate.posted_sequence < oldest->posted_sequence)) {
        oldest = &candidate;
      }
    }
    if (oldest == nullptr) return;
    const auto i = static_cast<std::size_t>(oldest - buffers_.data());
    on_receive_complete(i, core_.messages->wait(slot_of(i)));
  }
}

bool ReceiveBuffers::any_holding() const noexcept {
  return std::any_of(holding_.begin(), holding_.end(), [](int h) { return h > 0; });
}

bool ReceiveBuffers::drained(int below_dimension, bool with_local) const noexcept {
  for (int c = 0; c < std::min(below_dimension, kLocalChannel); ++c) {
    if (!channel_closed(c) || holding_[c] > 0) return false;
  }
  return !with_local || (channel_closed(kLocalChannel) && holding_[kLocalChannel] == 0);
}

bool ReceiveBuffers::drain(Router& router, Updater& updater) {
  if (!any_holding()) return false;
  bool progressed = false;
  for (auto& buffer : buffers_) {
    if (!buffer.holding) continue;
    const std::size_t before = buffer.cursor;
    drain_buffer(buffer, router, updater);
    progressed |= buffer.cursor != before;
    if (buffer.cursor == buffer.count) {
      buffer.holding = false;
      --holding_[buffer.channel];
      if (!channel_closed(buffer.channel)) post(buffer);
    }
  }
  return progressed;
}

void ReceiveBuffers::drain_buffer(ReceiveBuffer& buffer, Router& router, Updater& updater) {
  const bool only_updates = core_.role.only_updates();
  if (buffer.cursor == 0) {
    for (std::size_t i = 0; i < std::min(kPrefetchAhead, buffer.count); ++i) {
      updater.prefetch_if_applied_here(buffer.data[i]);
    }
  }
  if (!core_.context.config.slow_update_ns && (only_updates || arrivals_apply_here_[buffer.channel])) {
    const std::uint64_t* rest = buffer.data.data() + buffer.cursor;
    if (only_updates) {
      updater.apply_all_here(rest, buffer.count - buffer.cursor);
    } else {
      updater.apply_arrivals_here(rest, buffer.count - buffer.cursor);
    }
    buffer.cursor = buffer.count;
  }
  while (only_updates && buffer.cursor < buffer.count) {  // slow updates
    updater.apply_here(buffer.data[buffer.cursor++]);
  }
  while (buffer.cursor < buffer.count) {
    // Each word asked for kPrefetchAhead updates before its place.
    const std::size_t wanted = std::min(buffer.count - buffer.cursor, kWriteBatch);
    const std::size_t asked_until = std::min(buffer.count, buffer.cursor + wanted + kPrefetchAhead);
    for (std::size_t i = buffer.cursor + kPrefetchAhead; i < asked_until; ++i) {
      updater.prefetch_if_applied_here(buffer.data[i]);
    }
    const Placed placed = router.place_span(buffer.data.data() + buffer.cursor, wanted, [] {});
    core_.note_applied(placed.here);
    buffer.cursor += placed.updates;
    core_.deferred.write_lagging(core_.table.view(), core_.context.layout);
    if (placed.updates < wanted) break;
  }
  core_.deferred.write_lagging(core_.table.view(), core_.context.layout);
}

}  // namespace gups::routing
