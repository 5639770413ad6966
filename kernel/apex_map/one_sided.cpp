// Apex-Map's one-sided implementation, the SHMEM paradigm of the authors'
// Cray X1 study on MPI-3: every process's share is exposed in a window,
// and each remote block is fetched in a passive-target epoch of its own
// (a shared lock of its owner, MPI_Get, unlock), so that it is complete
// before it is summed, as shmem_double_get returns with the data. Not one
// epoch over all owners (MPI_Win_lock_all): SMPI 3.32 opens and closes it
// with a flush of every owner by every process, all at once, which grows
// with the square of the processes a simulation holds.
#include <algorithm>

#include "kernel/apex_map/probe.hpp"

namespace gups::apex_map {
namespace {

class OneSided final : public Accessor {
 public:
  OneSided(MPI_Comm comm, const Parameters& p, std::vector<std::uint64_t>& memory, AccessCosts& costs)
      : comm_(comm), p_(p), costs_(costs), block_(p.block_words) {
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
    // Every process's share is in place before any is read.
    MPI_Barrier(comm);
  }

  ~OneSided() override {
    MPI_Win_free(&window_);
  }

  OneSided(const OneSided&) = delete;
  OneSided& operator=(const OneSided&) = delete;

  Totals run(const std::vector<std::uint64_t>& starts) override {
    Totals totals;
    for (const auto start : starts) {
      const auto owner = static_cast<int>(owner_of(start, share_));
      const auto offset = offset_in_owner(start, share_);
      costs_.block_read(p_.block_words);
      if (owner == rank_) {
        totals.sum += block_sum(local_ + offset, p_.block_words);
        continue;
      }
      costs_.sent();
      costs_.pay();
      MPI_Win_lock(MPI_LOCK_SHARED, owner, MPI_MODE_NOCHECK, window_);
      MPI_Get(block_.data(), static_cast<int>(p_.block_words), MPI_UINT64_T, owner, static_cast<MPI_Aint>(offset),
              static_cast<int>(p_.block_words), MPI_UINT64_T, window_);
      MPI_Win_unlock(owner, window_);
      costs_.polled();  // the look that finds the get complete
      totals.sum += block_sum(block_.data(), p_.block_words);
      ++totals.remote;
    }
    // Passive target: nobody needs to serve; finishing is waiting for the others.
    costs_.pay();
    MPI_Barrier(comm_);
    return totals;
  }

 private:
  MPI_Comm comm_;
  const Parameters& p_;
  AccessCosts& costs_;
  const std::uint64_t* local_ = nullptr;  // the window's copy of the share
  std::vector<std::uint64_t> block_;
  int rank_ = 0;
  std::uint64_t share_ = 0;
  MPI_Win window_ = MPI_WIN_NULL;
};

}  // namespace

std::unique_ptr<Accessor> make_one_sided(MPI_Comm comm, const Parameters& parameters,
                                         std::vector<std::uint64_t>& memory, AccessCosts& costs,
                                         const std::string&) {
  return std::make_unique<OneSided>(comm, parameters, memory, costs);
}

}  // namespace gups::apex_map
