// How the 2^n words of the global table are spread over P owners, exactly as
// the HPCC reference does it: the first `rem` owners hold mlts+1 words, the
// rest mlts words. Owners are processes (direct) or nodes (routed, multicore).
#pragma once

#include <cstdint>
#include <string>

namespace gups {

enum class OwnerMode { division, predict };

std::string to_string(OwnerMode mode);

class TableLayout {
 public:
  // Throws std::invalid_argument when the table has fewer words than owners
  // or log2_words is outside [0, 62].
  TableLayout(unsigned log2_words, std::uint64_t owners);

  std::uint64_t total_words() const noexcept { return total_words_; }
  std::uint64_t owners() const noexcept { return owners_; }
  std::uint64_t min_local_words() const noexcept { return mlts_; }

  std::uint64_t local_words(std::uint64_t owner) const noexcept { return owner < rem_ ? mlts_ + 1 : mlts_; }
  std::uint64_t global_start(std::uint64_t owner) const noexcept {
    return owner * mlts_ + (owner < rem_ ? owner : rem_);
  }
  std::uint64_t index_of(std::uint64_t random) const noexcept {
    return random & (total_words_ - 1);
  }

  // The reference formula: a shift for power-of-two owner counts, else
  // one integer division. Inline: every update asks.
  std::uint64_t owner_by_division(std::uint64_t g) const noexcept {
    if (owner_shift_ >= 0) return g >> owner_shift_;
    return g < top_ ? g / (mlts_ + 1) : (g - rem_) / mlts_;
  }

  // Theorem 4.1 of Aggarwal et al.: (g * P) >> n is the owner or one past
  // it when P < mlts; one comparison with that owner's first index fixes it.
  // Only valid when prediction_valid().
  std::uint64_t owner_by_prediction(std::uint64_t g) const noexcept {
    // g < 2^62 and P <= 2^62: the product needs up to 124 bits.
    const auto product = static_cast<unsigned __int128>(g) * owners_;
    const auto predicted = static_cast<std::uint64_t>(product >> log2_words_);
    return g < global_start(predicted) ? predicted - 1 : predicted;
  }

  // The theorem's assumption P < mlts.
  bool prediction_valid() const noexcept { return owners_ < mlts_; }

 private:
  unsigned log2_words_;
  std::uint64_t total_words_;
  std::uint64_t owners_;
  std::uint64_t mlts_;
  std::uint64_t rem_;
  std::uint64_t top_;
  int owner_shift_;  // log2(words per owner) when owners is a power of two, else -1
};

// Finds owners with the mode the user asked for, falling back to division
// where prediction's assumption fails (effective() tells which is used).
// It holds the layout by value: a loop's copy then keeps the layout in
// registers, where through a pointer every table write (a uint64_t, as the
// layout's fields) would make the compiler read them again.
class OwnerFinder {
 public:
  OwnerFinder(const TableLayout& layout, OwnerMode requested);

  std::uint64_t operator()(std::uint64_t global_index) const noexcept {
    return effective_ == OwnerMode::predict ? layout_.owner_by_prediction(global_index)
                                            : layout_.owner_by_division(global_index);
  }
  OwnerMode effective() const noexcept { return effective_; }
  bool fell_back() const noexcept { return requested_ != effective_; }

 private:
  TableLayout layout_;
  OwnerMode requested_;
  OwnerMode effective_;
};

}  // namespace gups
