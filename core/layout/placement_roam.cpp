// roam: ROAM's memory layout (Section III-B of the paper), on an allocation problem whose ticks
// are a run order split into independent segments (PlacementOptions::segmentStarts).
// 1. Buffers live over the whole run (weights, optimizer states) are stacked at the bottom:
//    every layout must hold them all at once.
// 2. Buffers live across a segment boundary (long-lived activations, gradients) come next,
//    long-lived first, best fit: the paper's "activations at lower offsets" constraint, which
//    keeps them from interleaving with short-lived temporaries (its Figure 5a).
// 3. Each segment's own buffers (created and freed inside it) are laid out independently, in
//    parallel, on top of what steps 1-2 left live in that segment's window: the two greedy orders
//    of `best` (size / lowest fit, lifetime / best fit), the smaller peak kept per segment.
// The paper concatenates per-segment layouts at base offsets (eq. 9) and then re-assigns the
// temporaries that collide (its Figure 9). Placing each segment against the fixed long-lived
// buffers gives the concatenation and the repair in one step: no conflicts can arise, and a
// segment's buffers sink into whatever room the long-lived ones leave. Docs: docs/layout-heuristics.md.
#include "core/layout/greedy_placer.h"
#include "core/layout/placement.h"
#include "core/layout/placement_result.h"

#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <thread>

namespace spillway {

PlacementResult placeRoam(const AllocationProblem& problem, const PlacementOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    const size_t n = problem.buffers.size();
    if (n == 0) return makePlacementResult("roam", problem, Layout{}, started);
    std::int64_t first = problem.buffers[0].lower, last = problem.buffers[0].upper;
    for (const Buffer& b : problem.buffers) {
        first = std::min(first, b.lower);
        last = std::max(last, b.upper);
    }
    std::vector<std::int64_t> starts = options.segmentStarts;
    if (!std::is_sorted(starts.begin(), starts.end()))
        throw std::invalid_argument("roam placement: segment starts must be ascending");
    auto segmentOf = [&](std::int64_t tick) -> std::int64_t {
        return std::upper_bound(starts.begin(), starts.end(), tick) - starts.begin();  // 0 = before the first start
    };
    const std::int64_t segmentCount = std::int64_t(starts.size()) + 1;

    std::vector<std::int32_t> whole, crossing;
    std::vector<std::vector<std::int32_t>> local(segmentCount);
    for (size_t i = 0; i < n; ++i) {
        const Buffer& b = problem.buffers[i];
        const auto s = segmentOf(b.lower);
        if (b.lower == first && b.upper == last)
            whole.push_back(std::int32_t(i));
        else if (s != segmentOf(b.upper - 1))
            crossing.push_back(std::int32_t(i));
        else
            local[s].push_back(std::int32_t(i));
    }

    // 1 and 2: the bottom stack and the long-lived buffers.
    GreedyPlacer base(problem, problem.alignment);
    auto byLifetime = [&](std::vector<std::int32_t>& ids) {
        std::stable_sort(ids.begin(), ids.end(), [&](auto a, auto b) {
            const Buffer &x = problem.buffers[a], &y = problem.buffers[b];
            return std::pair(x.upper - x.lower, x.size) > std::pair(y.upper - y.lower, y.size);
        });
    };
    byLifetime(whole);
    byLifetime(crossing);
    base.stackAtBottom(whole);
    base.placeAll(crossing, GapFit::Best);
    std::vector<Bytes> offsets = base.offsets();
    std::vector<std::pair<std::int32_t, Bytes>> crossingByOffset;
    for (auto i : crossing) crossingByOffset.emplace_back(i, offsets[i]);
    std::sort(crossingByOffset.begin(), crossingByOffset.end(),
              [](const auto& a, const auto& b) { return a.second < b.second; });

    // 3: each segment against the fixed buffers live in its window.
    auto solveSegment = [&](std::int64_t s) {
        const auto& ids = local[s];
        if (ids.empty()) return std::vector<std::pair<std::int32_t, Bytes>>{};
        const std::int64_t from = s == 0 ? first : starts[s - 1];
        const std::int64_t to = s == segmentCount - 1 ? last : starts[s];
        std::vector<std::pair<std::int32_t, Bytes>> bestPlacement;
        Bytes bestTop = -1;
        for (int variant = 0; variant < 2; ++variant) {
            GreedyPlacer placer(problem, problem.alignment);
            placer.stackAtBottom(whole);
            std::vector<std::pair<std::int32_t, Bytes>> obstacles;
            for (const auto& [i, offset] : crossingByOffset)
                if (problem.buffers[i].lower < to && problem.buffers[i].upper > from) obstacles.emplace_back(i, offset);
            placer.fixSorted(obstacles);
            std::vector<std::int32_t> order = ids;
            std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
                const Buffer &x = problem.buffers[a], &y = problem.buffers[b];
                return variant == 0 ? std::pair(x.size, x.upper - x.lower) > std::pair(y.size, y.upper - y.lower)
                                    : std::pair(x.upper - x.lower, x.size) > std::pair(y.upper - y.lower, y.size);
            });
            placer.placeAll(order, variant == 0 ? GapFit::Lowest : GapFit::Best);
            if (bestTop < 0 || placer.top() < bestTop) {
                bestTop = placer.top();
                bestPlacement.clear();
                for (auto i : ids) bestPlacement.emplace_back(i, placer.offsets()[i]);
            }
        }
        return bestPlacement;
    };
    const unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    for (std::int64_t s0 = 0; s0 < segmentCount; s0 += threads) {
        std::vector<std::future<std::vector<std::pair<std::int32_t, Bytes>>>> running;
        for (std::int64_t s = s0; s < std::min<std::int64_t>(segmentCount, s0 + threads); ++s)
            running.push_back(std::async(std::launch::async, solveSegment, s));
        for (auto& f : running)
            for (auto [i, offset] : f.get()) offsets[i] = offset;
    }
    return makePlacementResult("roam", problem, Layout{std::move(offsets)}, started,
                               fmt::format("{} segments, {} whole-run, {} long-lived buffers", segmentCount,
                                           whole.size(), crossing.size()));
}

}  // namespace spillway
