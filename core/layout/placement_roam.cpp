// roam: ROAM's memory layout (Shu et al., section IV-B and IV-C) over the subgraph tree of the
// run order (roam_subgraph_tree.h): nested tick spans, innermost first, the root (everything)
// last. Every buffer belongs to the innermost span that holds its whole lifetime; so a leaf's
// buffers are its forward and backward segments' temporaries, the activations its forward
// segment saves for its backward one, and tensors shared with inner spans.
// Leaves are laid out from the innermost outward. A leaf sees the span inside it as one block
// buffer, live over that span and as high as that span's layout: so the inner layout lands on
// top of whatever the leaf keeps live across it (its activations: the paper's "activations at
// the bottom", Figure 5) and the leaf's temporaries reuse that space before and after (Figure 8).
// Concatenating (equation 9) is then adding the block's offset to the inner leaf's offsets, and
// no address conflict (Figure 9) can arise. What the paper does after concatenating (re-assign
// the short-lived temporaries) becomes a compaction pass: every buffer, in ascending offset
// order, moves to the lowest offset that fits, which closes the room a block reserved but its
// span did not use at every tick.
// Each leaf: the best of the greedy orders (placeBest: whole-run buffers stacked at the bottom,
// eight greedy orders, a local search), then, for a leaf small enough, exact search, and with
// PlacementOptions::ilpLeaves the offsets ILP on CBC as the paper solves leaves; the smallest
// arena kept, each solver's result per leaf in PlacementResult::leaves. If the result is still above LOAD, the whole
// problem is laid out as one leaf too and the smaller is returned (the note says which).
// docs/layout-heuristics.md and docs/layout-order.md record the decisions.
#include "core/layout/greedy_placer.h"
#include "core/layout/ilp_offsets.h"
#include "core/layout/placement.h"
#include "core/layout/placement_result.h"
#include "core/layout/roam_subgraph_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <stdexcept>

namespace spillway {

namespace {

using Clock = std::chrono::steady_clock;

// Leaves up to this many buffers also get the exact search (ResNet-18's whole problem, 1,600
// buffers, is solved exactly in 0.04 s; the limit keeps GPT-2-sized leaves out of it).
constexpr size_t kExactLeafBuffers = 2000;

// Our search on a leaf: best, then exact when the leaf is small and best did not reach LOAD.
PlacementResult searchLeaf(const AllocationProblem& leaf, double seconds, unsigned threads) {
    PlacementOptions o;
    o.timeLimitSeconds = seconds;
    o.threads = threads;
    PlacementResult best = placeBest(leaf, o);
    if (best.arena > best.lowerBound && leaf.buffers.size() <= kExactLeafBuffers) {
        PlacementResult exact = placeExact(leaf, o);
        if (exact.fits && exact.layout.offsets.size() == leaf.buffers.size() && exact.arena < best.arena) return exact;
    }
    return best;
}

// A leaf by our search and, when asked and small enough, by the offsets ILP on CBC started from
// the search's layout (the paper's solver); the smaller arena kept, both recorded in `report`.
PlacementResult solveLeaf(const AllocationProblem& leaf, double seconds, const PlacementOptions& options,
                          LeafReport& report) {
    const auto started = Clock::now();
    PlacementResult found = searchLeaf(leaf, seconds, options.threads);
    report.part = "layout";
    report.size = std::int64_t(leaf.buffers.size());
    report.branchAndBound = {true, found.provenOptimal, found.arena, found.provenOptimal ? found.arena : found.lowerBound,
                             found.seconds, found.method + (found.provenOptimal ? ": optimal" : ": not proven")};
    report.kept = "branch-and-bound";
    if (!options.ilpLeaves || found.layout.offsets.size() != leaf.buffers.size()) return found;
    IlpOffsetsOptions o;
    o.timeLimitSeconds = options.ilpSecondsPerLeaf;
    o.start = found.layout;
    o.maxPairs = options.ilpLeafMaxPairs;
    const IlpOffsetsResult ilp = solveOffsetsIlp(leaf, o);
    const bool proven = ilp.status == MipStatus::Optimal;
    report.ilp = {ilp.status != MipStatus::NotRun, proven, ilp.arena, ilp.bound, ilp.seconds,
                  ilp.status == MipStatus::NotRun ? ilp.note : mipStatusName(ilp.status)};
    report.kept = keptSolver(report.branchAndBound, report.ilp);
    if (ilp.arena < found.arena) return makePlacementResult("ilp", leaf, ilp.layout, started);
    if (proven && ilp.arena == found.arena) found.provenOptimal = true;
    return found;
}

std::vector<std::pair<std::int64_t, std::int64_t>> spansFromSegmentStarts(const AllocationProblem& problem,
                                                                          const std::vector<std::int64_t>& starts) {
    if (starts.empty()) return {};
    // The turn: the first tick where LOAD is reached (training peaks where forward turns into
    // backward); sweep the interval ends.
    std::vector<std::pair<std::int64_t, Bytes>> events;
    for (const Buffer& b : problem.buffers) events.emplace_back(b.lower, b.size), events.emplace_back(b.upper, -b.size);
    std::sort(events.begin(), events.end());
    Bytes live = 0, peak = -1;
    std::int64_t turn = 0;
    for (size_t i = 0; i < events.size();) {
        const std::int64_t tick = events[i].first;
        for (; i < events.size() && events[i].first == tick; ++i) live += events[i].second;
        if (live > peak) peak = live, turn = tick;
    }
    std::vector<std::int64_t> forward, backward;
    for (auto s : starts) {
        if (s < turn) forward.push_back(s);
        if (s - 1 >= turn) backward.push_back(s - 1);
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> spans;
    for (const RoamSpan& s : nestRoamSpans(problem, turn, forward, backward).spans) spans.emplace_back(s.begin, s.end);
    return spans;
}

}  // namespace

PlacementResult placeRoam(const AllocationProblem& problem, const PlacementOptions& options) {
    const auto started = Clock::now();
    const size_t n = problem.buffers.size();
    if (n == 0) return makePlacementResult("roam", problem, Layout{}, started);
    if (!std::is_sorted(options.segmentStarts.begin(), options.segmentStarts.end()))
        throw std::invalid_argument("roam placement: segment starts must be ascending");
    const auto spans = options.roamSpans.empty() ? spansFromSegmentStarts(problem, options.segmentStarts) : options.roamSpans;
    for (size_t k = 0; k < spans.size(); ++k) {
        const auto [b, e] = spans[k];
        if (b >= e) throw std::invalid_argument(fmt::format("roam placement: span {} [{}, {}) is empty", k, b, e));
        if (k > 0 && (b > spans[k - 1].first || e < spans[k - 1].second))
            throw std::invalid_argument(fmt::format("roam placement: span {} [{}, {}) does not hold span {} [{}, {}): "
                                                    "spans must be nested, innermost first",
                                                    k, b, e, k - 1, spans[k - 1].first, spans[k - 1].second));
    }
    const size_t leaves = spans.size() + 1;  // the last is the root
    // The innermost span holding each buffer: spans are nested, so those holding it are a suffix.
    std::vector<std::vector<std::int32_t>> members(leaves);
    for (size_t i = 0; i < n; ++i) {
        const Buffer& b = problem.buffers[i];
        const auto it = std::partition_point(spans.begin(), spans.end(), [&](const auto& s) {
            return !(s.first <= b.lower && b.upper <= s.second);
        });
        members[size_t(it - spans.begin())].push_back(std::int32_t(i));
    }

    // Bottom-up: each leaf with the inner span as a block.
    const double leafSeconds = std::clamp(options.timeLimitSeconds / double(leaves), 0.02, 1.0);
    std::vector<std::vector<Bytes>> leafOffsets(leaves);
    std::vector<Bytes> height(leaves, 0), blockOffset(leaves, -1);
    size_t exactLeaves = 0, ilpWins = 0;
    std::vector<LeafReport> leafReports;
    for (size_t k = 0; k < leaves; ++k) {
        AllocationProblem leaf;
        leaf.alignment = problem.alignment;
        for (auto i : members[k]) leaf.buffers.push_back(problem.buffers[size_t(i)]);
        const bool hasBlock = k > 0 && height[k - 1] > 0;
        if (hasBlock) {
            Buffer block;
            block.id = fmt::format("span{}", k - 1);
            block.lower = spans[k - 1].first;
            block.upper = spans[k - 1].second;
            block.size = height[k - 1];
            leaf.buffers.push_back(block);
        }
        if (leaf.buffers.empty()) continue;
        LeafReport report;
        const PlacementResult r = solveLeaf(leaf, leafSeconds, options, report);
        report.index = std::int64_t(k);
        leafReports.push_back(std::move(report));
        if (r.layout.offsets.size() != leaf.buffers.size())
            throw std::logic_error(fmt::format("roam placement: leaf {} found no layout: {}", k, r.note));
        exactLeaves += r.method == "exact";
        ilpWins += r.method == "ilp";
        height[k] = (r.arena + problem.alignment - 1) / std::max<Bytes>(1, problem.alignment) * std::max<Bytes>(1, problem.alignment);
        leafOffsets[k] = r.layout.offsets;
        if (hasBlock) blockOffset[k] = r.layout.offsets.back();
    }
    // Top-down: concatenation (equation 9), each inner leaf at its block's offset.
    std::vector<Bytes> base(leaves, 0), offsets(n, 0);
    for (size_t k = leaves - 1; k > 0; --k) base[k - 1] = base[k] + std::max<Bytes>(0, blockOffset[k]);
    for (size_t k = 0; k < leaves; ++k)
        for (size_t j = 0; j < members[k].size(); ++j) offsets[size_t(members[k][j])] = base[k] + leafOffsets[k][j];
    const Bytes concatenated = arenaBytes(problem, Layout{offsets});
    // Repair and local improvement: a block reserves its span's highest point over the whole
    // span, so buffers of the outer leaf live at the span's ends sit higher than they need to.
    // Re-placing every buffer in ascending offset order at the lowest offset that fits never
    // moves one up (its old place stays free: whatever overlapped it in time lay below it and
    // only moves down), so this pass only closes gaps; it stops when a pass gains nothing.
    std::vector<std::int32_t> byOffset(n);
    for (int pass = 0; pass < 4; ++pass) {
        std::iota(byOffset.begin(), byOffset.end(), 0);
        std::stable_sort(byOffset.begin(), byOffset.end(), [&](auto a, auto b) { return offsets[a] < offsets[b]; });
        GreedyPlacer gravity(problem, problem.alignment);
        gravity.placeAll(byOffset, GapFit::Lowest);
        const bool gained = gravity.top() < arenaBytes(problem, Layout{offsets});
        offsets = gravity.offsets();
        if (!gained) break;
    }
    std::string note = fmt::format("{} leaves ({} nested spans), {} solved exactly, {} smaller by the ILP; "
                                   "concatenated {} bytes, compacted {} bytes",
                                   leaves, spans.size(), exactLeaves, ilpWins, concatenated,
                                   arenaBytes(problem, Layout{offsets}));
    PlacementResult result = makePlacementResult("roam", problem, Layout{std::move(offsets)}, started, note);
    result.leaves = std::move(leafReports);

    // Fallback: a result still above LOAD is compared with the whole problem laid out as one leaf
    // (the blocks' edges can leave gaps that a flat layout does not).
    if (result.arena > result.lowerBound && !spans.empty()) {
        PlacementOptions o;
        o.timeLimitSeconds = std::clamp(options.timeLimitSeconds / 4, 0.05, 2.0);
        o.threads = options.threads;
        // The same leaf solver on the whole problem: best, and exact when small enough.
        const PlacementResult flat = searchLeaf(problem, o.timeLimitSeconds, options.threads);
        if (flat.arena < result.arena) {
            auto leavesSoFar = std::move(result.leaves);
            result = makePlacementResult("roam", problem, flat.layout, started,
                                         note + fmt::format("; the whole problem laid out as one leaf ({}) was "
                                                            "smaller ({} < {} bytes) and is returned",
                                                            flat.method, flat.arena, result.arena));
            result.leaves = std::move(leavesSoFar);
        }
    }
    return result;
}

}  // namespace spillway
