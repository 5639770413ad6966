// How a real rank waits when it has nothing to do but poll: it spins a
// while, then gives its core away between polls.
//
// MPICH's ch4 spins inside MPI_Wait and MPI_Waitany and never gives the
// core away: with more ranks than cores (a workstation, the tests) the rank
// that has work waits out the spinning ranks' time slices. Giving the core
// away at once costs as much the other way when the cores are shared with
// other work: each wait becomes a time slice of that work. A message is
// usually there within
// microseconds when the peer is running, so a rank spins that long first,
// unless its host has more ranks than cores (as the launcher says: Open
// MPI's OMPI_COMM_WORLD_LOCAL_SIZE, Hydra's MPI_LOCALNRANKS): then the peer
// is not running while it spins: it yields at once, and after a few yields
// that gave the core straight back to another idle rank (as UCX's polls
// under MPICH do), it sleeps between polls.
#pragma once

#include <chrono>

namespace gups {

class IdleWait {
 public:
  void relax() noexcept;

 private:
  std::chrono::steady_clock::time_point start_{};
  bool waiting_ = false;
  unsigned yields_ = 0;
};

// Polls `done` until it says so, relaxing between polls.
template <typename Test>
void poll_until(Test done) {
  IdleWait idle;
  while (!done()) idle.relax();
}

}  // namespace gups
