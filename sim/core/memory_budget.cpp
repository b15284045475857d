#include "sim/core/memory_budget.hpp"

#include <fmt/format.h>

#include <iterator>

#include "sim/core/errors.hpp"

namespace zng {

namespace {
// Three significant figures in the largest binary unit that leaves at least 1.
std::string readable(double bytes) {
    const char* names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    size_t i = 0;
    while (i + 1 < std::size(names) && bytes >= 1024) {
        bytes /= 1024;
        ++i;
    }
    return i == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.3g} {}", bytes, names[i]);
}
}  // namespace

void MemoryBudget::set_limit(uint64_t limit, std::string where) {
    limit_ = limit;
    where_ = std::move(where);
}

size_t MemoryBudget::reserve(size_t count, size_t bytes_each, std::string_view what) {
    // In doubles: count * bytes_each may not fit 64 bits.
    const double bytes = static_cast<double>(count) * static_cast<double>(bytes_each);
    // Looked up by view: only a kind charged for the first time makes its key.
    auto it = by_what_.find(what);
    if (it == by_what_.end()) it = by_what_.emplace(std::string(what), 0).first;
    uint64_t& mine = it->second;
    if (limit_ != 0 && static_cast<double>(charged_) + bytes > static_cast<double>(limit_))
        throw SimError(fmt::format("the {} need {} more of host memory ({} of them built so far), and with the {} "
                                   "already allocated up front that passes run.memory_limit = {} ({})",
                                   what, readable(bytes), readable(static_cast<double>(mine)),
                                   readable(static_cast<double>(charged_)), readable(static_cast<double>(limit_)),
                                   where_));
    charged_ += count * bytes_each;
    mine += count * bytes_each;
    return count;
}

}  // namespace zng
