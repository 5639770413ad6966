// The operations the models count, marked where the algorithms do them:
// generate, route (into a bucket), send call, receive call, update. Real
// runs compile the marks to nothing. Under SMPI (GUPS_SIMULATED) each mark
// adds the machine file's cycles and pay() makes the simulated core wait
// for them before the next MPI call, so messages leave at the simulated
// time the work before them took.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

#include "kernel/core/operation_charges.hpp"
#include "kernel/mpi/core_debt.hpp"

#ifdef GUPS_SIMULATED
#include <simgrid/s4u/Engine.hpp>
#endif

namespace gups {

#ifdef GUPS_SIMULATED

// A core's marked work is its debt (core_debt.hpp), paid once per
// observable call, never per turn of the loop.
class OperationCosts {
 public:
  OperationCosts() = default;
  explicit OperationCosts(std::optional<OperationCharges> charges) : charges_(charges) {}

  void generated(std::uint64_t n = 1) noexcept { add(n * (charges_ ? charges_->generate : 0)); }
  void routed(std::uint64_t n = 1) noexcept { add(n * (charges_ ? charges_->route : 0)); }
  void applied(std::uint64_t n = 1) noexcept { add(n * (charges_ ? charges_->apply : 0)); }
  void owner_found(std::uint64_t n = 1) noexcept { add(n * (charges_ ? charges_->owner_lookup : 0)); }
  void message_sent() noexcept { add(charges_ ? charges_->send_call : 0); }
  // `arrival`: when the message was in (simulated seconds), or negative when
  // the layer cannot say (then: now).
  void message_received(std::uint64_t updates, double arrival = -1) noexcept {
    if (!charges_) return;
    const auto packets = message_packets(charges_->packet, updates);
    if (!charges_->mechanisms.receive_batches) {
      add(packets * charges_->receive_call);
      return;
    }
    const double now = simgrid::s4u::Engine::get_clock();
    add(receive_calls_.take(*charges_, arrival < 0 ? now : arrival, std::max(debt_.busy_until(), now), packets));
  }
  // Simulated bytes of a network message of `updates` updates, when the
  // machine's packets are modelled.
  std::optional<std::uint64_t> wire_bytes(std::uint64_t updates) const noexcept {
    if (!charges_ || !charges_->mechanisms.wire_packets) return std::nullopt;
    return message_wire_bytes(charges_->packet, updates);
  }

  void pay() { debt_.pay(); }
  double busy_until() const noexcept { return debt_.busy_until(); }
  const ReceiveCalls& receive_calls() const noexcept { return receive_calls_; }

 private:
  // Without charges (costs: none) every mark adds nothing, and there is no clock to read.
  void add(double cycles) noexcept {
    if (charges_) debt_.add_cycles(cycles, charges_->clock_hz);
  }

  std::optional<OperationCharges> charges_;
  ReceiveCalls receive_calls_;
  CoreDebt debt_;
};

#else

class OperationCosts {
 public:
  void generated(std::uint64_t = 1) noexcept {}
  void routed(std::uint64_t = 1) noexcept {}
  void applied(std::uint64_t = 1) noexcept {}
  void owner_found(std::uint64_t = 1) noexcept {}
  void message_sent() noexcept {}
  void message_received(std::uint64_t, double = -1) noexcept {}
  std::optional<std::uint64_t> wire_bytes(std::uint64_t) const noexcept { return std::nullopt; }
  void pay() noexcept {}
  double busy_until() const noexcept { return 0; }
  ReceiveCalls receive_calls() const noexcept { return {}; }
};

#endif

// Seconds on the run's clock: MPI time, or simulated time under SMPI, read
// without going through MPI (each SMPI call reads the thread's CPU clock
// twice, through system calls).
inline double run_clock() noexcept {
#ifdef GUPS_SIMULATED
  return simgrid::s4u::Engine::get_clock();
#else
  return MPI_Wtime();
#endif
}

// The time a generator passes 25% and 75% of its updates, for the steady
// state rate.
class GenerationWindow {
 public:
  explicit GenerationWindow(std::uint64_t total) : total_(total) {}
  void note(std::uint64_t done) {
    if (start_ < 0 && 4 * done >= total_) start_ = run_clock();
    if (end_ < 0 && 4 * done >= 3 * total_) end_ = run_clock();
  }
  // Updates per second between the marks, 0 when too short to say.
  double rate() const noexcept {
    const double span = end_ - start_;
    return total_ >= 4 && start_ >= 0 && end_ >= 0 && span > 0 ? 0.5 * static_cast<double>(total_) / span : 0.0;
  }

 private:
  std::uint64_t total_;
  double start_ = -1, end_ = -1;
};

}  // namespace gups
