// How a simulated core sleeps until a time it knows, or until another core
// wakes it earlier. Every core's wake-up time sits in one heap of the
// process, behind a single SimGrid timer set at the earliest: SimGrid keeps
// its timers in a Fibonacci heap, one node per timer, and with a timer per
// sleeping core (tens of thousands of them) popping the earliest costs a
// trail of cache misses. Booking a time is no simcall either: only the
// sleep itself blocks.
#pragma once

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <cstdint>
#include <functional>
#include <limits>

#include "kernel/mpi/core_sleep.hpp"

namespace gups {

class WakeUpCall final : public simulation::CoreSleep {
 public:
  WakeUpCall();
  ~WakeUpCall() override;
  WakeUpCall(const WakeUpCall&) = delete;
  WakeUpCall& operator=(const WakeUpCall&) = delete;

  // Blocks the calling actor until the simulated clock reaches `time`
  // (infinity: only wake() ends it), or wake() is called. Returns at once
  // when `time` is not in the future. A sleep brought forward ends no
  // earlier than `not_before`.
  void sleep_until(double time, double not_before = 0);
  // Ends the current sleep, if any; a second call before the sleeper runs
  // again does nothing. Called by the clock, from the kernel (an actor's
  // resume could come before the sleeper's suspension has taken effect).
  void wake();
  // Brings the current sleep's end forward to `time` (at the earliest now),
  // if it would end later: the clock rings it then, from the kernel. Another
  // actor that learns the sleeper has something due earlier calls this
  // rather than wake(), which releases the semaphore through a simcall (two
  // context switches) and runs the sleeper now only for it to sleep again
  // until `time`.
  void bring_forward(double time);
  void until(double time) override { sleep_until(time); }
  bool sleeping() const noexcept { return sleeping_; }
  // From now on in this process, a sleep suspends its actor and a wake-up
  // resumes it, instead of a semaphore: no acquisition object to allocate,
  // queue, reference-count and free per sleep (SemaphoreImpl::release and
  // its reference counts). SimGrid
  // suspends an actor's ongoing activities with it, so this is only for a
  // simulation whose ranks have none while they sleep: the timed message
  // slots switch it on, as no message of theirs is a SimGrid communication.
  static void suspend_sleepers();
  // The time the current sleep ends unless woken (infinity: none).
  double until() const noexcept { return until_; }

 private:
  std::uint32_t id_;  // this call's place in the clock's register
  bool sleeping_ = false;
  bool woken_ = false;
  double until_ = 0;
  double not_before_ = 0;
  // This sleep suspends the actor: wake() must undo what this sleep did,
  // and suspend_sleepers() may come while it sleeps.
  bool suspended_ = false;
  simgrid::s4u::Actor* sleeper_ = nullptr;
  simgrid::s4u::SemaphorePtr semaphore_;  // made by the first sleep that waits on it
};

// Runs `operation` from the kernel at simulated time `time` (in the future),
// before the cores woken at that time run. Operations due at one time run
// in the order of (time, rank, when they were given). A core that runs
// ahead of the clock hands its sends and posts over this way.
void at_time(double time, int rank, std::function<void()> operation);

}  // namespace gups
