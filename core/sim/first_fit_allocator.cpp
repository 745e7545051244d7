#include "core/sim/first_fit_allocator.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

namespace spillway::sim {

FirstFitAllocator::FirstFitAllocator(std::int64_t pages) : totalPages_(pages), freePages_(pages) {
    if (pages < 0) throw std::invalid_argument("an allocator needs a non-negative number of pages");
    if (pages > 0) free_.emplace(0, pages);
}

std::optional<std::int64_t> FirstFitAllocator::allocateFromLeft(std::int64_t pages) {
    if (pages <= 0) return 0;
    for (auto it = free_.begin(); it != free_.end(); ++it) {
        if (it->second < pages) continue;
        const std::int64_t first = it->first, length = it->second;
        free_.erase(it);
        if (length > pages) free_.emplace(first + pages, length - pages);
        freePages_ -= pages;
        return first;
    }
    return std::nullopt;
}

std::optional<std::int64_t> FirstFitAllocator::allocateFromRight(std::int64_t pages) {
    if (pages <= 0) return 0;
    for (auto it = free_.rbegin(); it != free_.rend(); ++it) {
        if (it->second < pages) continue;
        it->second -= pages;
        const std::int64_t first = it->first + it->second;
        if (it->second == 0) free_.erase(std::next(it).base());
        freePages_ -= pages;
        return first;
    }
    return std::nullopt;
}

void FirstFitAllocator::release(std::int64_t firstPage, std::int64_t pages) {
    if (pages <= 0) return;
    if (firstPage < 0 || firstPage + pages > totalPages_)
        throw std::logic_error("release of pages " + std::to_string(firstPage) + "+" + std::to_string(pages) +
                               " outside the allocator");
    auto next = free_.lower_bound(firstPage);
    if (next != free_.end() && next->first < firstPage + pages) throw std::logic_error("release of free pages");
    std::int64_t first = firstPage, length = pages;
    if (next != free_.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second > firstPage) throw std::logic_error("release of free pages");
        if (prev->first + prev->second == firstPage) {
            first = prev->first;
            length += prev->second;
            free_.erase(prev);
        }
    }
    if (next != free_.end() && next->first == firstPage + pages) {
        length += next->second;
        free_.erase(next);
    }
    free_.emplace(first, length);
    freePages_ += pages;
}

std::int64_t FirstFitAllocator::largestFreeRun() const {
    std::int64_t largest = 0;
    for (const auto& [first, length] : free_) largest = std::max(largest, length);
    return largest;
}

}  // namespace spillway::sim
