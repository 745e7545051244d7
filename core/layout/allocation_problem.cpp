#include "core/layout/allocation_problem.h"

#include "core/trace/number_limits.h"

#include <algorithm>
#include <utility>

namespace spillway {

Bytes totalBufferBytes(const AllocationProblem& problem) {
    constexpr std::string_view what = "the total size of the allocation problem's buffers";
    const Bytes alignment = std::max<Bytes>(1, problem.alignment);
    Bytes total = 0;
    for (const Buffer& b : problem.buffers) {
        // Rounded up to the alignment, as a method places it.
        const Bytes size = std::max<Bytes>(0, b.size);
        const Bytes padding = (alignment - size % alignment) % alignment;
        total = checkedAdd(total, checkedAdd(size, padding, what), what);
    }
    return total;
}

Bytes loadLowerBound(const AllocationProblem& problem) {
    totalBufferBytes(problem);  // the live bytes below never exceed it
    // Sweep the interval ends: at equal ticks an end (upper) comes before a start (lower),
    // because [lower, upper) is half-open.
    std::vector<std::pair<std::int64_t, Bytes>> events;
    events.reserve(problem.buffers.size() * 2);
    for (const Buffer& b : problem.buffers) {
        if (b.size <= 0 || b.upper <= b.lower) continue;  // empty: holds nothing (the verifier says so)
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
    for (size_t i = 0; i < n; ++i)
        arena = std::max(arena, checkedAdd(layout.offsets[i], problem.buffers[i].size, "a buffer's end in the arena"));
    return arena;
}

}  // namespace spillway
