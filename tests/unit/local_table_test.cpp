#include "kernel/core/local_table.hpp"

#include <gtest/gtest.h>

#include "kernel/core/table_layout.hpp"

namespace gups {
namespace {

LocalTable serial_reference(unsigned log2_words) {
  const TableLayout layout(log2_words, 1);
  LocalTable table(0, layout.total_words());
  table.initialise();
  apply_stream_segment(table, layout, 0, 4 * layout.total_words());
  return table;
}

// What the run's MPI_Reduce does with the slices' checksums (MPI_SUM, MPI_BXOR).
void combine(TableChecksums& into, const TableChecksums& slice) {
  into.sum += slice.sum;
  into.xor_all ^= slice.xor_all;
}

TEST(LocalTable, SerialReferenceChecksumsMatchTheKnownTables) {
  const auto small = serial_reference(10).checksums();
  EXPECT_EQ(small.sum, 0xac384cb84247d355ULL);
  EXPECT_EQ(small.xor_all, 0xffffffffffffffe1ULL);
  const auto larger = serial_reference(16).checksums();
  EXPECT_EQ(larger.sum, 0xe8954eb03f1991abULL);
  EXPECT_EQ(larger.xor_all, 0xfffffffffffffe19ULL);
}

TEST(LocalTable, SlicesUpdatedSeparatelyEqualTheSerialTable) {
  const auto reference = serial_reference(10);
  const TableLayout layout(10, 3);
  TableChecksums combined;
  for (std::uint64_t p = 0; p < 3; ++p) {
    LocalTable slice(layout.global_start(p), layout.local_words(p));
    slice.initialise();
    // Each owner's stream segment, applied to every slice, as the
    // distributed run does it.
    for (std::uint64_t q = 0; q < 3; ++q) {
      apply_stream_segment(slice, layout, 4 * layout.global_start(q), 4 * layout.local_words(q));
    }
    for (std::uint64_t i = 0; i < slice.size(); ++i) {
      ASSERT_EQ(slice.words()[i], reference.words()[slice.global_start() + i]);
    }
    combine(combined, slice.checksums());
  }
  EXPECT_EQ(combined, reference.checksums());
}

// The checksum verification of large simulations: a serial pass over the
// stream from an offset gives the checksums of the table that the owners'
// slices reach, whoever generated which updates.
TEST(Verification, SerialChecksumsEqualTheSlicesOfADistributedRun) {
  EXPECT_EQ(serial_checksums(TableLayout(10, 3), 0, 4 * 1024), serial_reference(10).checksums());
  const TableLayout layout(11, 5);
  const std::uint64_t offset = 123456789012345;
  const std::uint64_t updates = 3 * layout.total_words();
  TableChecksums combined;
  for (std::uint64_t p = 0; p < 5; ++p) {
    LocalTable slice(layout.global_start(p), layout.local_words(p));
    slice.initialise();
    apply_stream_segment(slice, layout, offset, updates / 2);
    apply_stream_segment(slice, layout, offset + updates / 2, updates - updates / 2);
    combine(combined, slice.checksums());
  }
  const auto serial = serial_checksums(layout, offset, updates);
  EXPECT_EQ(combined, serial);
  EXPECT_NE(serial, serial_checksums(layout, offset + 1, updates));
  EXPECT_NE(serial, serial_checksums(layout, offset, updates - 1));
}

TEST(Verification, ReapplyingTheStreamRestoresTheTable) {
  auto table = serial_reference(12);
  EXPECT_GT(table.count_errors(), 0u);
  const TableLayout layout(12, 1);
  apply_stream_segment(table, layout, 0, 4 * layout.total_words());
  EXPECT_EQ(table.count_errors(), 0u);
  EXPECT_TRUE(verification_passed(0, layout.total_words()));
}

TEST(Verification, CountsFlippedWordsAndFailsPastOnePercent) {
  const TableLayout layout(12, 1);  // 4096 words: 1% is 40.96
  auto table = serial_reference(12);
  // Corrupt 40 distinct words, then undo the updates: exactly those stay wrong.
  for (std::uint64_t i = 0; i < 40; ++i) table.apply(i * 97, 0x5a5a);
  apply_stream_segment(table, layout, 0, 4 * layout.total_words());
  EXPECT_EQ(table.count_errors(), 40u);
  EXPECT_TRUE(verification_passed(table.count_errors(), layout.total_words()));

  table.apply(4095, 1);
  EXPECT_EQ(table.count_errors(), 41u);
  EXPECT_FALSE(verification_passed(table.count_errors(), layout.total_words()));

  // Flipping a word twice restores it.
  table.apply(4095, 1);
  EXPECT_EQ(table.count_errors(), 40u);
}

}  // namespace
}  // namespace gups
