// A core's inputs: its posted receives, per channel (each dimension it is
// reached along, and the node's hand-offs), what they hold not yet routed,
// and the "done" each channel's senders have sent.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "kernel/mpi/routing/core_shared.hpp"
#include "kernel/mpi/routing/router.hpp"
#include "kernel/mpi/routing/updater.hpp"

namespace gups::routing {

struct ReceiveBuffer {
  std::vector<std::uint64_t> data;
  std::size_t count = 0;
  std::size_t cursor = 0;
  int channel = 0;  // fixed: the channel this buffer is posted for
  bool holding = false;  // received items not yet all routed
  bool posted = false;
  std::uint64_t posted_sequence = 0;  // order of posting, over all buffers of the core
};

class ReceiveBuffers {
 public:
  ReceiveBuffers(CoreShared& core, const RouteStep& route);

  bool empty() const noexcept { return buffers_.empty(); }
  std::size_t size() const noexcept { return buffers_.size(); }
  // The message slots' numbers of the buffers start here (after the router's buckets).
  void set_first_slot(std::size_t first) noexcept { first_slot_ = first; }

  void post_all();
  void on_receive_complete(std::size_t i, const MessageSlots::Completion& completion);
  // Routes (or applies) what the buffers hold, up to the first update whose
  // bucket is in flight; a buffer routed to its end is posted again.
  bool drain(Router& router, Updater& updater);

  bool any_holding() const noexcept;
  // Updates handed by the node's other cores are applied here, never passed on.
  bool local_arrivals_apply_here() const noexcept { return arrivals_apply_here_[kLocalChannel]; }
  bool channel_closed(int channel) const noexcept { return done_received_[channel] == expected_done_[channel]; }
  // Inputs from the given channels are closed and fully routed.
  bool drained(int below_dimension, bool with_local) const noexcept;

 private:
  void build();
  void post(ReceiveBuffer& buffer);
  void complete_receives_posted_before(int channel, std::uint64_t sequence);
  void drain_buffer(ReceiveBuffer& buffer, Router& router, Updater& updater);
  std::size_t slot_of(std::size_t buffer) const noexcept { return first_slot_ + buffer; }

  CoreShared& core_;
  std::vector<ReceiveBuffer> buffers_;
  std::size_t first_slot_ = 0;
  std::uint64_t posts_ = 0;
  std::array<int, kChannels> expected_done_{};
  std::array<int, kChannels> done_received_{};
  std::array<int, kChannels> holding_{};  // receive buffers of the channel holding updates
  std::array<bool, kChannels> arrivals_apply_here_{};
};

}  // namespace gups::routing
