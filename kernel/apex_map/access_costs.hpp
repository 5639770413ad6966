// The operations of the Apex-Map probe, marked where its implementations do
// them: a block read and summed, a request or reply sent or taken, a look at
// the network. Under SMPI with a charges file each mark adds the machine's
// cycles to the process's debt (core_debt.hpp), paid before its next call
// another process can observe; otherwise the marks cost nothing.
#pragma once

#include <cstdint>
#include <optional>

#include "kernel/apex_map/charges.hpp"
#include "kernel/mpi/core_debt.hpp"

namespace gups::apex_map {

class AccessCosts {
 public:
  AccessCosts() = default;
  explicit AccessCosts(std::optional<AccessCharges> charges) : charges_(charges) {}

  void block_read(std::uint64_t words) noexcept { add(charges_ ? charges_->block_cycles(words) : 0); }
  void sent() noexcept { add(charges_ ? charges_->send_call : 0); }
  void taken() noexcept { add(charges_ ? charges_->receive_call : 0); }
  void polled() noexcept { add(charges_ ? charges_->poll : 0); }
  void pay() { debt_.pay(); }
  // Whether operations are charged (a simulation given a machine's charges).
  bool charges() const noexcept { return charges_.has_value(); }
  // Before a look at the network between two accesses: a request that came
  // in while the process worked is then seen at most this late (about one
  // remote access's call costs on Blue Gene/P), for one simulated wait per
  // microsecond of work rather than one per access.
  void pay_before_look() { debt_.pay_beyond(kLookLateness); }
  static constexpr double kLookLateness = 1e-6;

 private:
  void add(double cycles) noexcept {
    if (charges_) debt_.add_cycles(cycles, charges_->clock_hz);
  }

  std::optional<AccessCharges> charges_;
  CoreDebt debt_;
};

}  // namespace gups::apex_map
