#include "sim/smpi/alarm_clock.hpp"
#include "sim/smpi/quaternary_heap.hpp"
#include "sim/smpi/wake_ups.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

namespace gups {

// The bookings are a 4-ary min-heap on (time, ticket): half the levels of a
// binary one, each level's four children in one cache line (16 bytes a
// booking); at 131,072 sleeping cores its pops were still the largest share
// of the simulation's own time. A sleep's ticket is kept beside its call in
// the register, so that a booking left behind by an earlier wake is passed
// over with one look.
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
      register_[id] = {call, 0};
      return id;
    }
    if (register_.size() > kIdMask) throw std::length_error("more than 2^24 wake-up calls");
    register_.push_back({call, 0});
    return static_cast<std::uint32_t>(register_.size() - 1);
  }

  // A sleep's booking may outlive its call (woken early, then destroyed):
  // the register forgets the call, and its tickets never ring anyone else.
  void leave(std::uint32_t id) {
    register_[id] = {nullptr, 0};
    free_ids_.push_back(id);
  }

  // The ticket of a sleep that starts now, the one the clock rings for; a
  // sleep brought forward takes a new one, so that its later booking rings no one.
  std::uint64_t start_sleep(std::uint32_t id) {
    if (last_ticket_ == kLastTicket) throw std::length_error("more than 2^40 sleeps");
    return register_[id].ticket = ++last_ticket_;
  }
  void end_sleep(std::uint32_t id) { register_[id].ticket = 0; }

  // Actors and the kernel run one at a time (one SimGrid thread), so the
  // heap and the timer can change outside the kernel's context.
  void book(double time, std::uint32_t id, std::uint64_t ticket) {
    bookings_.push({time, ticket << kIdBits | id});
    arm();
  }

  // Equal times run by rank, then in the order given: the key is the rank
  // above a sequence number. The operation waits in a slot of its own; the
  // heap moves only its time, key and slot.
  void schedule(double time, int rank, std::function<void()> operation) {
    if (last_operation_ == kLastSequence) throw std::length_error("more than 2^40 operations");
    std::uint32_t slot;
    if (free_slots_.empty()) {
      slot = static_cast<std::uint32_t>(waiting_.size());
      waiting_.push_back(std::move(operation));
    } else {
      slot = free_slots_.back();
      free_slots_.pop_back();
      waiting_[slot] = std::move(operation);
    }
    operations_.push({time, static_cast<std::uint64_t>(rank) << kSequenceBits | ++last_operation_, slot});
    arm();
  }

 private:
  static constexpr unsigned kIdBits = 24;
  static constexpr std::uint64_t kIdMask = (std::uint64_t{1} << kIdBits) - 1;
  static constexpr std::uint64_t kLastTicket = (std::uint64_t{1} << (64 - kIdBits)) - 1;

  struct Booking {
    double time;
    std::uint64_t ticket_and_id;  // equal times ring in the order they were booked (tickets are unique)
    std::uint32_t id() const { return static_cast<std::uint32_t>(ticket_and_id & kIdMask); }
    std::uint64_t ticket() const { return ticket_and_id >> kIdBits; }
    bool before(const Booking& other) const {
      return time < other.time || (time == other.time && ticket_and_id < other.ticket_and_id);
    }
  };
  static constexpr unsigned kSequenceBits = 40;
  static constexpr std::uint64_t kLastSequence = (std::uint64_t{1} << kSequenceBits) - 1;
  struct Operation {
    double time;
    std::uint64_t rank_and_sequence;
    std::uint32_t slot;  // in waiting_
    bool before(const Operation& other) const {
      return time < other.time || (time == other.time && rank_and_sequence < other.rank_and_sequence);
    }
  };
  struct Registered {
    WakeUpCall* call;
    std::uint64_t ticket;  // of its current sleep; 0 when awake
  };
  void arm() {
    if (bookings_.empty() && operations_.empty()) return;
    const double earliest = std::min(bookings_.empty() ? kNoTime : bookings_.front().time,
                                     operations_.empty() ? kNoTime : operations_.front().time);
    if (timer_ != nullptr) {
      if (timer_time_ <= earliest) return;
      timer_->remove();
    }
    timer_time_ = earliest;
    timer_ = simgrid::kernel::timer::Timer::set(earliest, [this] { ring(); });
  }

  // The operations due first (they may complete messages now, and bring
  // sleeps forward to now), then the sleeps due.
  void ring() {
    timer_ = nullptr;
    const double now = simgrid::s4u::Engine::get_clock();
    for (;;) {
      if (!operations_.empty() && operations_.front().time <= now) {
        const auto slot = operations_.pop().slot;
        const auto operation = std::move(waiting_[slot]);
        free_slots_.push_back(slot);
        operation();
        continue;
      }
      if (bookings_.empty() || bookings_.front().time > now) break;
      const Booking due = bookings_.pop();
      const Registered& entry = register_[due.id()];
      if (entry.ticket == due.ticket()) entry.call->wake();
    }
    arm();
  }

  static constexpr double kNoTime = std::numeric_limits<double>::infinity();
  QuaternaryHeap<Operation> operations_;  // on (time, rank, sequence)
  std::vector<std::function<void()>> waiting_;  // the operations, by slot
  std::vector<std::uint32_t> free_slots_;
  std::uint64_t last_operation_ = 0;
  QuaternaryHeap<Booking> bookings_;
  std::vector<Registered> register_;  // by id
  std::vector<std::uint32_t> free_ids_;
  std::uint64_t last_ticket_ = 0;
  simgrid::kernel::timer::Timer* timer_ = nullptr;
  double timer_time_ = std::numeric_limits<double>::infinity();
};

WakeUpCall::WakeUpCall() : id_(AlarmClock::get().enrol(this)) {}

WakeUpCall::~WakeUpCall() { AlarmClock::get().leave(id_); }

namespace {
bool sleepers_suspend = false;
}

void WakeUpCall::suspend_sleepers() { sleepers_suspend = true; }

// The clock only rings from the kernel, once the actors of a round have all
// stopped: a suspension has always taken effect before its wake-up comes.
void WakeUpCall::sleep_until(double time, double not_before) {
  if (time <= simgrid::s4u::Engine::get_clock()) return;
  not_before_ = not_before;
  auto& clock = AlarmClock::get();
  const auto ticket = clock.start_sleep(id_);
  sleeping_ = true;
  woken_ = false;
  until_ = time;
  if (time != std::numeric_limits<double>::infinity()) clock.book(time, id_, ticket);
  suspended_ = sleepers_suspend;
  if (suspended_) {
    if (sleeper_ == nullptr) sleeper_ = simgrid::s4u::Actor::self();
    simgrid::s4u::this_actor::suspend();
  } else {
    if (!semaphore_) semaphore_ = simgrid::s4u::Semaphore::create(0);
    semaphore_->acquire();
  }
  sleeping_ = false;
  simulation::note_wake_up();
  clock.end_sleep(id_);  // a booking left behind by an earlier wake rings no one
}

void WakeUpCall::bring_forward(double time) {
  time = std::max(time, not_before_);
  if (!sleeping_ || woken_ || time >= until_) return;
  until_ = std::max(time, simgrid::s4u::Engine::get_clock());
  auto& clock = AlarmClock::get();
  clock.book(until_, id_, clock.start_sleep(id_));
}

void WakeUpCall::wake() {
  if (!sleeping_ || woken_) return;
  woken_ = true;
  if (suspended_) {
    sleeper_->resume();
  } else {
    semaphore_->release();
  }
}

std::unique_ptr<simulation::CoreSleep> simulation::core_sleep() { return std::make_unique<WakeUpCall>(); }

void at_time(double time, int rank, std::function<void()> operation) {
  AlarmClock::get().schedule(time, rank, std::move(operation));
}

}  // namespace gups
