// One owner's slice of the global table, and the operations on it that need
// no communication: initialisation, re-applying a stretch of the stream,
// counting wrong words, checksums.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace gups {

class TableLayout;

// How far ahead of its write a word is asked for when updates come in a
// run (a batch, a received message): about as many cache misses as a core
// keeps in flight (its line fill buffers).
inline constexpr std::size_t kPrefetchAhead = 16;

struct TableChecksums {
  std::uint64_t sum = 0;  // all words added, mod 2^64
  std::uint64_t xor_all = 0;

  void add(std::uint64_t word) noexcept {
    sum += word;
    xor_all ^= word;
  }
  bool operator==(const TableChecksums&) const = default;
};

class LocalTable {
 public:
  // Allocates without touching the memory; call initialise() before use.
  LocalTable(std::uint64_t global_start, std::uint64_t words);
  // A slice of memory owned elsewhere (a node's table in a shared window).
  LocalTable(std::uint64_t global_start, std::uint64_t words, std::uint64_t* memory) noexcept;

  // T[i] = global index, the benchmark's untimed starting state.
  void initialise() noexcept;

  std::uint64_t global_start() const noexcept { return global_start_; }
  std::uint64_t size() const noexcept { return words_; }
  bool owns(std::uint64_t global_index) const noexcept {
    return global_index - global_start_ < words_;
  }
  void apply(std::uint64_t global_index, std::uint64_t random) noexcept {
    data_[global_index - global_start_] ^= random;
  }
  // Asks for the word's cache line ahead of apply(), so that a batch of
  // updates waits for its cache misses together rather than one by one.
  void prefetch(std::uint64_t global_index) const noexcept {
    __builtin_prefetch(&data_[global_index - global_start_], 1);
  }
  // The words and their first global index as a value, for a loop to keep
  // in registers: through the table, each word written (a uint64_t, as the
  // table's own fields) would make the compiler read the fields again.
  struct View {
    std::uint64_t* data;
    std::uint64_t start;
    std::uint64_t words;
    void apply(std::uint64_t global_index, std::uint64_t random) const noexcept { data[global_index - start] ^= random; }
    void prefetch(std::uint64_t global_index) const noexcept { __builtin_prefetch(&data[global_index - start], 1); }
    // The same for a word that may be another's: then the first word, in
    // cache. Without a branch: whose a random update is cannot be predicted,
    // and each mispredicted branch costs as much as the rest of the update.
    void prefetch_if_owned(std::uint64_t global_index) const noexcept {
      const std::uint64_t offset = global_index - start;
      __builtin_prefetch(&data[offset & -static_cast<std::uint64_t>(offset < words)], 1);
    }
  };
  View view() noexcept { return {data_.get(), global_start_, words_}; }
  std::span<std::uint64_t> words() noexcept { return {data_.get(), words_}; }
  std::span<const std::uint64_t> words() const noexcept { return {data_.get(), words_}; }

  TableChecksums checksums() const noexcept;
  // Words whose value differs from their global index.
  std::uint64_t count_errors() const noexcept;

 private:
  std::uint64_t global_start_;
  std::uint64_t words_;
  struct FreeWords {
    bool owned = true;
    void operator()(std::uint64_t* words) const noexcept;
  };
  std::unique_ptr<std::uint64_t[], FreeWords> data_;
};

// Applies steps first_step+1 ... first_step+count of the stream (each step
// taken before use, as the reference does) to the words this table owns.
void apply_stream_segment(LocalTable& table, const TableLayout& layout, std::uint64_t first_step,
                          std::uint64_t count) noexcept;

// The checksums of the whole table after steps first_step+1 ... +count,
// computed in this process alone: O(count) time, the whole table in memory.
TableChecksums serial_checksums(const TableLayout& layout, std::uint64_t first_step, std::uint64_t count);

// The HPCC rule: a run passes when at most 1% of the table's words are wrong.
bool verification_passed(std::uint64_t errors, std::uint64_t total_words) noexcept;

}  // namespace gups
