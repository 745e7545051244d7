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

bool liveAtSameTime(const Buffer& a, const Buffer& b) {
    if (a.upper <= b.lower || b.upper <= a.lower) return false;
    if (a.spans.empty() && b.spans.empty()) return true;
    // Both span lists ascending (a buffer without spans is its one hull span): walk them together.
    const TickSpan hullA{a.lower, a.upper}, hullB{b.lower, b.upper};
    const TickSpan* sa = a.spans.empty() ? &hullA : a.spans.data();
    const TickSpan* sb = b.spans.empty() ? &hullB : b.spans.data();
    const size_t na = a.spans.empty() ? 1 : a.spans.size(), nb = b.spans.empty() ? 1 : b.spans.size();
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        if (sa[i].lower < sb[j].upper && sb[j].lower < sa[i].upper) return true;
        if (sa[i].upper <= sb[j].upper) ++i;
        else ++j;
    }
    return false;
}

std::int64_t liveTicks(const Buffer& b) {
    std::int64_t ticks = 0;
    forEachLiveSpan(b, [&](std::int64_t lower, std::int64_t upper) { ticks += upper - lower; });
    return ticks;
}

Bytes loadLowerBound(const AllocationProblem& problem) {
    totalBufferBytes(problem);  // the live bytes below never exceed it
    // Sweep the interval ends: at equal ticks an end (upper) comes before a start (lower),
    // because [lower, upper) is half-open.
    std::vector<std::pair<std::int64_t, Bytes>> events;
    events.reserve(problem.buffers.size() * 2);
    for (const Buffer& b : problem.buffers) {
        if (b.size <= 0 || b.upper <= b.lower) continue;  // empty: holds nothing (the verifier says so)
        forEachLiveSpan(b, [&](std::int64_t lower, std::int64_t upper) {
            if (upper <= lower) return;
            events.emplace_back(lower, b.size);
            events.emplace_back(upper, -b.size);
        });
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
