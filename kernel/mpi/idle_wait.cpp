#include "kernel/mpi/idle_wait.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace gups {

namespace {

constexpr auto kSpin = std::chrono::microseconds(50);
constexpr unsigned kOversubscribedYields = 16;
constexpr auto kOversubscribedSleep = std::chrono::microseconds(20);

bool host_oversubscribed() noexcept {
  long ranks_here = 0;
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
    if (const char* value = std::getenv(name)) ranks_here = std::max(ranks_here, std::atol(value));
  }
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 && ranks_here > cores;
}

}  // namespace

void IdleWait::relax() noexcept {
  static const bool oversubscribed = host_oversubscribed();
  if (oversubscribed) {
    if (++yields_ <= kOversubscribedYields) {
      sched_yield();
    } else {
      std::this_thread::sleep_for(kOversubscribedSleep);
    }
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (!waiting_) {
    waiting_ = true;
    start_ = now;
  }
  if (now - start_ >= kSpin) sched_yield();
}

}  // namespace gups
