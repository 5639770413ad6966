#include "local_table.hpp"

#include "hpcc_stream.hpp"
#include "table_layout.hpp"

namespace gups {

LocalTable::LocalTable(std::uint64_t global_start, std::uint64_t words)
    : global_start_(global_start), words_(words), data_(new std::uint64_t[words]) {}

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
