#include "kernel/mpi/routing/updater.hpp"

#include <cassert>

namespace gups::routing {

void Updater::apply_here(std::uint64_t update) noexcept {
  if (core_.context.config.slow_update_ns) spin_for(core_.context.config.slow_update_ns);
  core_.table.apply(core_.context.layout.index_of(update), update);
  core_.note_applied(1);
  core_.costs.applied(1);
}

void Updater::apply_all_here(const std::uint64_t* updates, std::size_t count) noexcept {
  apply_words(updates, count);
  core_.note_applied(count);
  core_.costs.applied(count);
}

void Updater::apply_arrivals_here(const std::uint64_t* updates, std::size_t count) noexcept {
  apply_words(updates, count);
  for (std::size_t i = 0; i < count; ++i) {
    core_.costs.owner_found();
    core_.costs.applied();
  }
  core_.note_applied(count);
}

void Updater::apply_words(const std::uint64_t* updates, std::size_t count) noexcept {
  const TableLayout layout = core_.context.layout;
  const LocalTable::View table = core_.table.view();
  for (std::size_t i = 0; i < count; ++i) {
    if (i + kPrefetchAhead < count) table.prefetch(layout.index_of(updates[i + kPrefetchAhead]));
    assert(core_.table.owns(layout.index_of(updates[i])));
    table.apply(layout.index_of(updates[i]), updates[i]);
  }
}

}  // namespace gups::routing
