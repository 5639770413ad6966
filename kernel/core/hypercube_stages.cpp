#include "kernel/core/hypercube_stages.hpp"

#include <stdexcept>
#include <string>

namespace gups {

std::vector<HypercubeStage> hypercube_stages(int rank, int ranks) {
  if (ranks < 1 || rank < 0 || rank >= ranks) {
    throw std::invalid_argument("hypercube stages: rank " + std::to_string(rank) + " of " + std::to_string(ranks));
  }
  std::vector<HypercubeStage> stages;
  int lo = 0;
  int hi = ranks;
  while (hi - lo > 1) {
    const int lower = (hi - lo + 1) / 2;
    const int upper = (hi - lo) / 2;
    HypercubeStage stage{lo, lo + lower, hi, std::nullopt, {}};
    if (stage.in_lower(rank)) {
      const int j = rank - lo;
      stage.send_to = j < upper ? stage.mid + j : stage.mid;  // the odd one out sends to upper process 0
      if (j < upper) stage.receive_from.push_back(stage.mid + j);
      hi = stage.mid;
    } else {
      const int k = rank - stage.mid;
      stage.send_to = lo + k;
      stage.receive_from.push_back(lo + k);
      if (k == 0 && lower > upper) stage.receive_from.push_back(lo + upper);
      lo = stage.mid;
    }
    stages.push_back(std::move(stage));
  }
  return stages;
}

int hypercube_stage_count(int ranks) {
  int stages = 0;
  while ((1LL << stages) < ranks) ++stages;
  return stages;
}

}  // namespace gups
