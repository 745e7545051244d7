#include "core/layout/allocation_problem.h"

#include <algorithm>
#include <utility>

namespace spillway {

Bytes loadLowerBound(const AllocationProblem& problem) {
    // Sweep the interval ends: at equal ticks an end (upper) comes before a start (lower),
    // because [lower, upper) is half-open.
    std::vector<std::pair<std::int64_t, Bytes>> events;
    events.reserve(problem.buffers.size() * 2);
    for (const Buffer& b : problem.buffers) {
        events.emplace_back(b.lower, b.size);
        events.emplace_back(b.upper, -b.size);
    }
    std::sort(events.begin(), events.end());
    Bytes live = 0, peak = 0;
    for (const auto& [tick, delta] : events) {
        live += delta;
        peak = std::max(peak, live);
    }
    return peak;
}

Bytes arenaBytes(const AllocationProblem& problem, const Layout& layout) {
    Bytes arena = 0;
    const size_t n = std::min(problem.buffers.size(), layout.offsets.size());
    for (size_t i = 0; i < n; ++i) arena = std::max(arena, layout.offsets[i] + problem.buffers[i].size);
    return arena;
}

}  // namespace spillway
