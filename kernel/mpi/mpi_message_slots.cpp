// Message slots over MPI: one request per slot, a tag per channel, and all
// requests in one array so that an idle core waits on all in one call.
#include <stdexcept>

#include "kernel/mpi/idle_wait.hpp"
#include "kernel/mpi/message_slots.hpp"
#include "kernel/mpi/simulation.hpp"

namespace gups {

namespace {

constexpr int kDataTag = 1;  // + channel

class MpiMessageSlots final : public MessageSlots {
 public:
  MpiMessageSlots(MPI_Comm comm, int rank, std::size_t slots, RealSends real_sends)
      : comm_(comm),
        rank_(rank),
        real_sends_(real_sends),
        requests_(slots, MPI_REQUEST_NULL),
        posted_channel_(slots, -1) {}

  std::uint64_t send(std::size_t slot, const std::uint64_t* data, std::size_t count, int rank,
                     int channel) override {
    if (simulated_) {
      // smpi/send-is-detached-thresh:0 makes every SMPI send complete once received.
      MPI_Isend(data, static_cast<int>(count), MPI_UINT64_T, rank, kDataTag + channel, comm_, &requests_[slot]);
      return count * sizeof(std::uint64_t) + kSmpiEnvelopeBytes;
    }
    if (real_sends_ == RealSends::standard) {
      MPI_Isend(data, static_cast<int>(count), MPI_UINT64_T, rank, kDataTag + channel, comm_, &requests_[slot]);
      return count * sizeof(std::uint64_t);
    }
    // Synchronous, as the simulation's sends: a bucket stays in flight, and
    // its updates counted by the sender, until the receiver has taken them.
    // A small standard send would complete at once (eager) and leave them in
    // MPI's queues, counted by no one and held back by no budget.
    MPI_Issend(data, static_cast<int>(count), MPI_UINT64_T, rank, kDataTag + channel, comm_, &requests_[slot]);
    return count * sizeof(std::uint64_t);
  }

  void post(std::size_t slot, std::uint64_t* data, std::size_t capacity, int channel) override {
    MPI_Irecv(data, static_cast<int>(capacity), MPI_UINT64_T, MPI_ANY_SOURCE, kDataTag + channel, comm_,
              &requests_[slot]);
    posted_channel_[slot] = channel;
  }

  // An idle real rank polls (kernel/mpi/idle_wait.hpp). A simulated rank
  // blocks in SMPI's own wait: its polls would not let simulated time pass.
  Completion wait_any() override {
    int index = MPI_UNDEFINED;
    MPI_Status status;
    if (simulated_) {
      MPI_Waitany(static_cast<int>(requests_.size()), requests_.data(), &index, &status);
    } else {
      poll_until([&] {
        int flag = 0;
        MPI_Testany(static_cast<int>(requests_.size()), requests_.data(), &index, &flag, &status);
        return flag != 0;
      });
    }
    if (index == MPI_UNDEFINED) throw std::logic_error("routing core blocked with no message outstanding");
    const auto slot = static_cast<std::size_t>(index);
    return {slot, completed(slot, status)};
  }

  std::optional<Completion> test_any() override {
    int index = MPI_UNDEFINED, flag = 0;
    MPI_Status status;
    MPI_Testany(static_cast<int>(requests_.size()), requests_.data(), &index, &flag, &status);
    if (!flag || index == MPI_UNDEFINED) return std::nullopt;
    const auto slot = static_cast<std::size_t>(index);
    return Completion{slot, completed(slot, status)};
  }

  Completion wait(std::size_t slot) override {
    MPI_Status status;
    if (simulated_) {
      MPI_Wait(&requests_[slot], &status);
    } else {
      poll_until([&] {
        int flag = 0;
        MPI_Test(&requests_[slot], &flag, &status);
        return flag != 0;
      });
    }
    return {slot, completed(slot, status)};
  }

  void send_done(int rank, int channel) override {
    done_requests_.push_back(MPI_REQUEST_NULL);
    MPI_Isend(nullptr, 0, MPI_UINT64_T, rank, kDataTag + channel, comm_, &done_requests_.back());
  }

  // Leftover receives are completed with messages to self rather than
  // cancelled. A message to self matches the oldest posted receive of its
  // channel, whichever that is, so all are sent before any is waited for.
  void finish() override {
    MPI_Waitall(static_cast<int>(done_requests_.size()), done_requests_.data(), MPI_STATUSES_IGNORE);
    std::vector<MPI_Request> wakes;
    for (auto& channel : posted_channel_) {
      if (channel < 0) continue;
      wakes.push_back(MPI_REQUEST_NULL);
      MPI_Isend(nullptr, 0, MPI_UINT64_T, rank_, kDataTag + channel, comm_, &wakes.back());
      channel = -1;
    }
    MPI_Waitall(static_cast<int>(wakes.size()), wakes.data(), MPI_STATUSES_IGNORE);
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  }

 private:
  std::size_t completed(std::size_t slot, const MPI_Status& status) {
    if (posted_channel_[slot] < 0) return 0;
    posted_channel_[slot] = -1;
    int count = 0;
    MPI_Get_count(&status, MPI_UINT64_T, &count);
    return static_cast<std::size_t>(count);
  }

  MPI_Comm comm_;
  int rank_;
  RealSends real_sends_;
  bool simulated_ = simulation::active();
  std::vector<MPI_Request> requests_;
  std::vector<int> posted_channel_;  // -1: not a posted receive
  std::vector<MPI_Request> done_requests_;
};

}  // namespace

std::unique_ptr<MessageSlots> make_message_slots(const std::string& layer, MPI_Comm comm, int rank,
                                                 std::size_t slots, SimulatedMessages simulated,
                                                 RealSends real_sends) {
  if (layer == "s4u" || layer == "s4u-comms") {
    if (auto s4u = simulation::s4u_message_slots(rank, slots, std::move(simulated), layer == "s4u")) return s4u;
  }
  if (layer == "mpi") return std::make_unique<MpiMessageSlots>(comm, rank, slots, real_sends);
  throw std::invalid_argument("no message layer '" + layer + "' in this build");
}

}  // namespace gups
