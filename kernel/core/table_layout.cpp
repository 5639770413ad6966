#include "kernel/core/table_layout.hpp"

#include <bit>
#include <stdexcept>

namespace gups {

std::string to_string(OwnerMode mode) {
  return mode == OwnerMode::predict ? "predict" : "division";
}

TableLayout::TableLayout(unsigned log2_words, std::uint64_t owners)
    : log2_words_(log2_words), owners_(owners) {
  if (log2_words > 62) {
    throw std::invalid_argument("table of 2^" + std::to_string(log2_words) +
                                " words is beyond the supported 2^62");
  }
  total_words_ = std::uint64_t{1} << log2_words;
  if (owners == 0) {
    throw std::invalid_argument("the table needs at least one owner");
  }
  if (total_words_ < owners) {
    throw std::invalid_argument("table of " + std::to_string(total_words_) +
                                " words is smaller than the " + std::to_string(owners) +
                                " owners it is spread over");
  }
  mlts_ = total_words_ / owners;
  rem_ = total_words_ - mlts_ * owners;
  top_ = (mlts_ + 1) * rem_;
  owner_shift_ = std::has_single_bit(owners)
                     ? static_cast<int>(log2_words) - std::countr_zero(owners)
                     : -1;
}

OwnerFinder::OwnerFinder(const TableLayout& layout, OwnerMode requested)
    : layout_(layout),
      requested_(requested),
      effective_(requested == OwnerMode::predict && !layout.prediction_valid()
                     ? OwnerMode::division
                     : requested) {}

}  // namespace gups
