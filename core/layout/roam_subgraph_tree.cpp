#include "core/layout/roam_subgraph_tree.h"

#include "core/layout/order_memory_model.h"
#include "core/layout/roam_graph.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <stdexcept>

namespace spillway {

namespace {

// Range maximum over ticks (a sparse table): the last use of the buffers created in a tick range.
class RangeMax {
public:
    explicit RangeMax(std::vector<std::int64_t> values) {
        table_.push_back(std::move(values));
        const size_t n = table_[0].size();
        for (size_t w = 1; 2 * w <= n; w *= 2) {
            const auto& prev = table_.back();
            std::vector<std::int64_t> next(n - 2 * w + 1);
            for (size_t i = 0; i < next.size(); ++i) next[i] = std::max(prev[i], prev[i + w]);
            table_.push_back(std::move(next));
        }
    }
    // Max over [a, b]; lowest() when empty.
    std::int64_t operator()(std::int64_t a, std::int64_t b) const {
        if (a > b) return std::numeric_limits<std::int64_t>::lowest();
        const auto len = std::uint64_t(b - a + 1);
        const int level = 63 - __builtin_clzll(len);
        return std::max(table_[level][size_t(a)], table_[level][size_t(b - (std::int64_t(1) << level) + 1)]);
    }

private:
    std::vector<std::vector<std::int64_t>> table_;
};

}  // namespace

RoamSubgraphTree nestRoamSpans(const AllocationProblem& problem, std::int64_t turn, std::vector<std::int64_t> forwardCuts,
                               std::vector<std::int64_t> backwardCuts, std::int64_t leafTicks,
                               std::int64_t minRegionTicks) {
    RoamSubgraphTree tree;
    tree.turn = turn;
    if (problem.buffers.empty() || turn < 0) return tree;
    std::int64_t ticks = 0;
    for (const Buffer& b : problem.buffers) ticks = std::max(ticks, b.upper);
    std::sort(forwardCuts.begin(), forwardCuts.end(), std::greater<>());
    std::sort(backwardCuts.begin(), backwardCuts.end());
    std::erase_if(forwardCuts, [&](std::int64_t t) { return t < 0 || t >= turn; });
    std::erase_if(backwardCuts, [&](std::int64_t t) { return t < turn || t >= ticks; });
    forwardCuts.erase(std::unique(forwardCuts.begin(), forwardCuts.end()), forwardCuts.end());
    backwardCuts.erase(std::unique(backwardCuts.begin(), backwardCuts.end()), backwardCuts.end());
    tree.forwardCuts = std::int64_t(forwardCuts.size());
    tree.backwardCuts = std::int64_t(backwardCuts.size());

    // Last use (inclusive tick) of the buffers created at each tick.
    std::vector<std::int64_t> lastUseByLower(size_t(ticks), std::numeric_limits<std::int64_t>::lowest());
    for (const Buffer& b : problem.buffers)
        lastUseByLower[size_t(b.lower)] = std::max(lastUseByLower[size_t(b.lower)], b.upper - 1);
    const RangeMax lastUse(std::move(lastUseByLower));
    // The first backward cut at or after `tick`; -1 when none.
    auto cutFrom = [&](std::int64_t tick) -> std::int64_t {
        auto it = std::lower_bound(backwardCuts.begin(), backwardCuts.end(), tick);
        return it == backwardCuts.end() ? -1 : *it;
    };
    // The smallest backward cut L >= from such that every buffer created in [F, L) is freed by
    // L (the forward boundary kernel's outputs belong to the span); -1 when none.
    auto closeFrom = [&](std::int64_t f, std::int64_t from) -> std::int64_t {
        std::int64_t l = cutFrom(from);
        while (l >= 0) {
            const std::int64_t reach = lastUse(f, l - 1);
            if (reach <= l) return l;
            l = cutFrom(reach);
        }
        return -1;
    };
    // The earliest last use of buffers created before F and used after it: the span may not end
    // past it (they would be freed inside). One ascending sweep gives it for every tick.
    std::vector<std::int64_t> capAt(size_t(ticks) + 1, std::numeric_limits<std::int64_t>::max());
    {
        std::vector<std::pair<std::int64_t, std::int64_t>> byLower;  // (lower, last use)
        for (const Buffer& b : problem.buffers) byLower.emplace_back(b.lower, b.upper - 1);
        std::sort(byLower.begin(), byLower.end());
        std::priority_queue<std::int64_t, std::vector<std::int64_t>, std::greater<>> lastUses;
        size_t next = 0;
        for (std::int64_t f = 0; f <= ticks; ++f) {
            for (; next < byLower.size() && byLower[next].first < f; ++next) lastUses.push(byLower[next].second);
            while (!lastUses.empty() && lastUses.top() <= f) lastUses.pop();
            if (!lastUses.empty()) capAt[size_t(f)] = lastUses.top();
        }
    }
    auto capOf = [&](std::int64_t f) { return capAt[size_t(f)]; };

    struct Found {
        std::int64_t f, l;
        size_t skippedFrom, skippedTo;  // forward cuts tried without success before this one
    };
    std::vector<Found> independent;
    std::int64_t innerF = turn, innerL = turn;
    size_t firstSkipped = 0;
    for (size_t i = 0; i < forwardCuts.size(); ++i) {
        const std::int64_t f = forwardCuts[i];
        if (f >= innerF) continue;
        const std::int64_t l = closeFrom(f, innerL);
        if (l < 0 || l > capOf(f)) continue;
        independent.push_back({f, l, firstSkipped, i});
        innerF = f, innerL = l;
        firstSkipped = i + 1;
    }

    // Dependent spans inside large independent ones, at the forward cuts that did not close.
    std::int64_t prevF = turn, prevL = turn - 1;
    for (const Found& ig : independent) {
        const std::int64_t region = (prevF - ig.f) + (ig.l - prevL);
        if (leafTicks > 0 && region > leafTicks) {
            std::int64_t lastF = prevF, lastL = prevL;
            for (size_t j = ig.skippedFrom; j < ig.skippedTo; ++j) {
                const std::int64_t f = forwardCuts[j];
                std::int64_t l = closeFrom(f, std::max(lastL, turn));
                if (l < 0 || l > ig.l) l = ig.l;
                if ((lastF - f) + (l - lastL) < leafTicks || (f - ig.f) + (ig.l - l) < leafTicks / 2)
                    continue;  // too little on one side or the other to be worth a leaf
                tree.spans.push_back({f, l + 1, false});
                lastF = f, lastL = l;
            }
        }
        tree.spans.push_back({ig.f, ig.l + 1, true});
        prevF = ig.f, prevL = ig.l;
    }
    // Spans whose own region (ticks outside the next inner kept span) is below minRegionTicks
    // are merged into the next outer one: nested still, with fewer, larger leaves.
    if (minRegionTicks > 1 && !tree.spans.empty()) {
        std::vector<RoamSpan> kept;
        for (size_t i = 0; i < tree.spans.size(); ++i) {
            const RoamSpan& s = tree.spans[i];
            const std::int64_t inner = kept.empty() ? 0 : kept.back().end - kept.back().begin;
            const bool last = i + 1 == tree.spans.size();
            if ((s.end - s.begin) - inner >= minRegionTicks || last) kept.push_back(s);
        }
        tree.spans = std::move(kept);
    }
    // The root is the whole order: a span covering it adds nothing.
    while (!tree.spans.empty() && tree.spans.back().begin == 0 && tree.spans.back().end >= ticks) tree.spans.pop_back();
    return tree;
}

RoamSubgraphTree roamSubgraphTree(const Profile& profile, const std::vector<std::int64_t>& order,
                                  const AllocationProblem& problem, std::int64_t leafTicks) {
    const std::int64_t n = std::int64_t(profile.kernels.size());
    std::vector<std::int64_t> tickOf(size_t(n), -1);
    if (order.empty()) {
        for (std::int64_t k = 0; k < n; ++k) tickOf[size_t(k)] = k;
    } else {
        if (std::int64_t(order.size()) != n) throw std::invalid_argument("roam subgraph tree: the order is not a permutation of the kernels");
        for (std::int64_t t = 0; t < n; ++t) tickOf[size_t(order[t])] = t;
    }
    const DependencyGraph graph = DependencyGraph::derive(profile);
    const RoamGraphParts parts = splitForRoam(profile, graph, programFirstTopologicalOrder(graph));
    std::int64_t turn = -1;
    for (std::int64_t k = 0; k < n; ++k) {
        const auto phase = profile.kernels[size_t(k)].phase;
        if (phase == KernelPhase::Loss || phase == KernelPhase::Backward)
            if (turn < 0 || tickOf[size_t(k)] < turn) turn = tickOf[size_t(k)];
    }
    std::vector<std::int64_t> forward, backward;
    for (auto p : parts.insensitive) {
        const std::int64_t tick = tickOf[size_t(parts.mainOrder[size_t(p)])];
        (tick < turn ? forward : backward).push_back(tick);
    }
    RoamSubgraphTree tree = nestRoamSpans(problem, turn, forward, backward, leafTicks);
    if (!tree.spans.empty() || turn < 0) return tree;
    // No pair closed at the memory-insensitive kernels (none in the forward pass when its data
    // flow is not recorded, as in the torch captures, or when micro-batches run side by side, as
    // in GPT-2 XL): every tick is a candidate and closedness alone decides; leaves of fewer than
    // n/32 ticks (at least 16) are merged outward so the layout has a few dozen leaves at most.
    forward.clear(), backward.clear();
    for (std::int64_t t = 0; t < n; ++t) (t < turn ? forward : backward).push_back(t);
    RoamSubgraphTree everyTick = nestRoamSpans(problem, turn, std::move(forward), std::move(backward), leafTicks,
                                               std::max<std::int64_t>(16, n / 32));
    everyTick.forwardCuts = tree.forwardCuts, everyTick.backwardCuts = tree.backwardCuts;
    everyTick.everyTickCandidates = true;
    return everyTick;
}

}  // namespace spillway
