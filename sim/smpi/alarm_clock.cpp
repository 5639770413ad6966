#include "sim/smpi/alarm_clock.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

namespace gups {

class AlarmClock {
 public:
  static AlarmClock& get() {
    static AlarmClock clock;  // one per simulation: SMPI runs every rank in this process
    return clock;
  }

  std::uint32_t enrol(WakeUpCall* call) {
    if (!free_ids_.empty()) {
      const auto id = free_ids_.back();
      free_ids_.pop_back();
      calls_[id] = call;
      return id;
    }
    calls_.push_back(call);
    return static_cast<std::uint32_t>(calls_.size() - 1);
  }

  // A sleep's booking may outlive its call (woken early, then destroyed):
  // the register forgets the call, and its tickets never ring anyone else.
  void leave(std::uint32_t id) {
    calls_[id] = nullptr;
    free_ids_.push_back(id);
  }

  std::uint64_t next_ticket() noexcept { return ++tickets_; }

  // Actors and the kernel run one at a time (one SimGrid thread), so the
  // heap and the timer can change outside the kernel's context.
  void book(double time, std::uint32_t id, std::uint64_t ticket) {
    bookings_.push_back({time, ticket, id});
    std::push_heap(bookings_.begin(), bookings_.end(), std::greater<>());
    arm();
  }

 private:
  struct Booking {
    double time;
    std::uint64_t ticket;  // equal times ring in the order they were booked
    std::uint32_t id;
    auto operator<=>(const Booking&) const = default;
  };

  void arm() {
    if (bookings_.empty()) return;
    const double earliest = bookings_.front().time;
    if (timer_ != nullptr) {
      if (timer_time_ <= earliest) return;
      timer_->remove();
    }
    timer_time_ = earliest;
    timer_ = simgrid::kernel::timer::Timer::set(earliest, [this] { ring(); });
  }

  void ring() {
    timer_ = nullptr;
    const double now = simgrid::s4u::Engine::get_clock();
    while (!bookings_.empty() && bookings_.front().time <= now) {
      std::pop_heap(bookings_.begin(), bookings_.end(), std::greater<>());
      const Booking due = bookings_.back();
      bookings_.pop_back();
      WakeUpCall* call = calls_[due.id];
      if (call != nullptr && call->ticket_ == due.ticket) call->wake();
    }
    arm();
  }

  std::vector<Booking> bookings_;  // a min-heap on (time, ticket)
  std::vector<WakeUpCall*> calls_;
  std::vector<std::uint32_t> free_ids_;
  std::uint64_t tickets_ = 0;
  simgrid::kernel::timer::Timer* timer_ = nullptr;
  double timer_time_ = std::numeric_limits<double>::infinity();
};

WakeUpCall::WakeUpCall() : id_(AlarmClock::get().enrol(this)), semaphore_(simgrid::s4u::Semaphore::create(0)) {}

WakeUpCall::~WakeUpCall() { AlarmClock::get().leave(id_); }

void WakeUpCall::sleep_until(double time) {
  if (time <= simgrid::s4u::Engine::get_clock()) return;
  auto& clock = AlarmClock::get();
  ticket_ = clock.next_ticket();
  sleeping_ = true;
  woken_ = false;
  until_ = time;
  if (time != std::numeric_limits<double>::infinity()) clock.book(time, id_, ticket_);
  semaphore_->acquire();
  sleeping_ = false;
  ticket_ = 0;  // a booking left behind by an earlier wake rings no one
}

void WakeUpCall::wake() {
  if (!sleeping_ || woken_) return;
  woken_ = true;
  semaphore_->release();
}

std::unique_ptr<simulation::CoreSleep> simulation::core_sleep() { return std::make_unique<WakeUpCall>(); }

}  // namespace gups
