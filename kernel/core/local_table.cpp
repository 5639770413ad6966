#include "kernel/core/local_table.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <new>

#include "kernel/core/hpcc_stream.hpp"
#include "kernel/core/table_layout.hpp"

namespace gups {

namespace {

// Every update touches a random word: with 4 KiB pages nearly every one also
// misses the TLB. Where the kernel gives huge pages only on request
// (transparent_hugepage=madvise, Debian's default), the table asks for them.
constexpr std::size_t kHugePage = std::size_t{2} << 20;

// Smaller tables (a simulation's thousands of ranks in one process) keep
// small pages: a huge page each would multiply their memory.
constexpr std::size_t kHugePagesFrom = 8 * kHugePage;
constexpr std::size_t kCacheLine = 64;

std::uint64_t* allocate_words(std::uint64_t words) {
  const std::size_t needed = words * sizeof(std::uint64_t);
  const std::size_t alignment = needed >= kHugePagesFrom ? kHugePage : kCacheLine;
  const std::size_t bytes = (std::max<std::size_t>(needed, 1) + alignment - 1) / alignment * alignment;
  void* memory = std::aligned_alloc(alignment, bytes);
  if (memory == nullptr) throw std::bad_alloc();
  if (alignment == kHugePage) madvise(memory, bytes, MADV_HUGEPAGE);  // advice: none given is no error
  return static_cast<std::uint64_t*>(memory);
}

}  // namespace

void LocalTable::FreeWords::operator()(std::uint64_t* words) const noexcept {
  if (owned) std::free(words);
}

LocalTable::LocalTable(std::uint64_t global_start, std::uint64_t words, std::uint64_t* memory) noexcept
    : global_start_(global_start), words_(words), data_(memory, FreeWords{false}) {}

LocalTable::LocalTable(std::uint64_t global_start, std::uint64_t words)
    : global_start_(global_start), words_(words), data_(allocate_words(words), FreeWords{true}) {}

void LocalTable::initialise() noexcept {
  for (std::uint64_t i = 0; i < words_; ++i) {
    data_[i] = global_start_ + i;
  }
}

TableChecksums LocalTable::checksums() const noexcept {
  TableChecksums result;
  for (const auto word : words()) {
    result.add(word);
  }
  return result;
}

std::uint64_t LocalTable::count_errors() const noexcept {
  std::uint64_t errors = 0;
  for (std::uint64_t i = 0; i < words_; ++i) {
    errors += data_[i] != global_start_ + i ? 1 : 0;
  }
  return errors;
}

void apply_stream_segment(LocalTable& table, const TableLayout& layout, std::uint64_t first_step,
                          std::uint64_t count) noexcept {
  std::uint64_t random = starts(first_step);
  for (std::uint64_t step = 0; step < count; ++step) {
    random = next_random(random);
    const std::uint64_t index = layout.index_of(random);
    if (table.owns(index)) {
      table.apply(index, random);
    }
  }
}

TableChecksums serial_checksums(const TableLayout& layout, std::uint64_t first_step, std::uint64_t count) {
  LocalTable table(0, layout.total_words());
  table.initialise();
  apply_stream_segment(table, layout, first_step, count);
  return table.checksums();
}

bool verification_passed(std::uint64_t errors, std::uint64_t total_words) noexcept {
  return static_cast<unsigned __int128>(errors) * 100 <= total_words;
}

}  // namespace gups
