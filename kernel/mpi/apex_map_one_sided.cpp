// Apex-Map's one-sided implementation, the SHMEM paradigm of the authors'
// Cray X1 study on MPI-3: every process's share is exposed in a window
// under a passive-target epoch, and each remote block is fetched with
// MPI_Get and completed (MPI_Win_flush) before it is summed, as
// shmem_double_get returns with the data.
#include <algorithm>

#include "apex_map_probe.hpp"

namespace gups::apex_map {
namespace {

class OneSided final : public Accessor {
 public:
  OneSided(MPI_Comm comm, const Parameters& p, std::vector<std::uint64_t>& memory)
      : comm_(comm), p_(p), block_(p.block_words) {
    MPI_Comm_rank(comm, &rank_);
    int ranks = 0;
    MPI_Comm_size(comm, &ranks);
    share_ = share_words(p, static_cast<std::uint64_t>(ranks));
    // The window's memory from MPI (MPI_Win_allocate), which every one-sided
    // component can expose, filled with the process's share.
    std::uint64_t* exposed = nullptr;
    MPI_Win_allocate(static_cast<MPI_Aint>(memory.size() * sizeof(std::uint64_t)), sizeof(std::uint64_t),
                     MPI_INFO_NULL, comm, &exposed, &window_);
    std::copy(memory.begin(), memory.end(), exposed);
    local_ = exposed;
    MPI_Win_lock_all(MPI_MODE_NOCHECK, window_);
  }

  ~OneSided() override {
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
  }

  OneSided(const OneSided&) = delete;
  OneSided& operator=(const OneSided&) = delete;

  Totals run(const std::vector<std::uint64_t>& starts) override {
    Totals totals;
    for (const auto start : starts) {
      const auto owner = static_cast<int>(owner_of(start, share_));
      const auto offset = offset_in_owner(start, share_);
      if (owner == rank_) {
        totals.sum += block_sum(local_ + offset, p_.block_words);
        continue;
      }
      MPI_Get(block_.data(), static_cast<int>(p_.block_words), MPI_UINT64_T, owner, static_cast<MPI_Aint>(offset),
              static_cast<int>(p_.block_words), MPI_UINT64_T, window_);
      MPI_Win_flush(owner, window_);
      totals.sum += block_sum(block_.data(), p_.block_words);
      ++totals.remote;
    }
    // Passive target: nobody needs to serve; finishing is waiting for the others.
    MPI_Barrier(comm_);
    return totals;
  }

 private:
  MPI_Comm comm_;
  const Parameters& p_;
  const std::uint64_t* local_ = nullptr;  // the window's copy of the share
  std::vector<std::uint64_t> block_;
  int rank_ = 0;
  std::uint64_t share_ = 0;
  MPI_Win window_ = MPI_WIN_NULL;
};

}  // namespace

std::unique_ptr<Accessor> make_one_sided(MPI_Comm comm, const Parameters& parameters,
                                         std::vector<std::uint64_t>& memory) {
  return std::make_unique<OneSided>(comm, parameters, memory);
}

}  // namespace gups::apex_map
