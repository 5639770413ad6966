// The stages of the hypercube algorithm of Plimpton, Brightwell, Vaughan,
// Underwood and Davis (Cluster 2006; HPCC's RA_SANDIA variants): at each
// stage a group of processes splits into a lower and an upper half, and each
// process hands the updates it holds whose owners lie in the other half to a
// partner there; after about log2(P) stages every update is at its owner.
// MPI-free: which partner, at which stage, and which updates move.
//
// Any process count, by this rule (HPCC's code handles non-powers of two
// too; this is the rule chosen here): a group of n splits into a lower half
// of ceil(n/2) and an upper half of floor(n/2). Lower process j and upper
// process j exchange; when the lower half has one more, its last process
// sends to upper process 0 and receives nothing (what the upper half holds
// for the lower half reaches the lower half's other processes, and stays in
// that half from then on). Halves go on splitting on their own: a group of
// one is done, so the stages of two processes may number one apart.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace gups {

struct HypercubeStage {
  int lo = 0;   // the group [lo, hi) splitting at this stage ...
  int mid = 0;  // ... into [lo, mid) and [mid, hi)
  int hi = 0;
  std::optional<int> send_to;     // where this process's other-half updates go (none: it holds none)
  std::vector<int> receive_from;  // who hands it updates at this stage: 0, 1 or 2 processes

  bool in_lower(int process) const noexcept { return process < mid; }
  // Whether an update owned by `owner`, held by `holder` of this group, leaves it at this stage.
  bool moves(int holder, std::uint64_t owner) const noexcept {
    return (owner < static_cast<std::uint64_t>(mid)) != in_lower(holder);
  }
};

// Process `rank`'s stages among `ranks` processes, first to last; none for one
// process. Throws std::invalid_argument unless 0 <= rank < ranks.
std::vector<HypercubeStage> hypercube_stages(int rank, int ranks);

// The most stages any process of `ranks` goes through: ceil(log2(ranks)).
int hypercube_stage_count(int ranks);

}  // namespace gups
