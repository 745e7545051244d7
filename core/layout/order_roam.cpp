// ROAM's operator ordering (Shu et al., section IV-A and IV-C). Steps:
//  1. Weight-update kernels (optimizer phase, feeding nothing but other weight-update kernels)
//     are set aside: they are what makes a training graph hard to cut.
//  2. On the rest, memory-insensitive kernels - those at the same position in every
//     topological order - cut the order into independent segments (equation 1: the peak is the
//     max over segments, so each segment is optimised alone).
//  3. The weight-update scheduler assigns every weight-update branch to a segment: right after
//     its gradient, or later when the activations estimated live there plus alpha gradient-sized
//     layers exceed the estimated peak (equations 4-6, delay radius r).
//  4. Each segment (its own kernels and its branches) is solved exactly; segments above
//     node_limit are split into windows (dependent subgraphs). Leaves run in parallel (TBB) and
//     their orders are concatenated (equation 3).
// docs/layout-order.md records where the paper is vague and what was decided.
#include "core/layout/operator_order.h"
#include "core/layout/order_memory_model.h"
#include "core/layout/order_window_solver.h"
#include "core/layout/profile_allocation.h"
#include "core/layout/roam_graph.h"
#include "core/layout/roam_subgraph_tree.h"

#include <fmt/format.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace spillway {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

struct Leaf {
    std::int64_t begin = 0, end = 0;  // slice of the order
    size_t segment = 0;
};

// Solves every leaf of `order` (windows of at most nodeLimit inside each segment
// [segmentStarts[i], segmentStarts[i+1])), in parallel, and writes the leaves' orders back.
// Pass 0 cuts windows from each segment's start, later passes shift them by half a window.
void optimizeLeaves(const OrderMemoryModel& model, const DependencyGraph& graph, std::vector<std::int64_t>& order,
                    const std::vector<std::int64_t>& segmentStarts, const OrderOptions& options,
                    std::vector<OrderSegmentStats>& stats) {
    const std::int64_t limit = std::clamp(options.nodeLimit, 2, 64);
    const std::int64_t n = std::int64_t(order.size());
    for (int pass = 0; pass < std::max(1, options.windowPasses); ++pass) {
        std::vector<Leaf> leaves;
        for (size_t s = 0; s < segmentStarts.size(); ++s) {
            const std::int64_t begin = segmentStarts[s];
            const std::int64_t end = s + 1 < segmentStarts.size() ? segmentStarts[s + 1] : n;
            if (pass > 0 && end - begin <= limit) continue;  // solved whole in pass 0
            std::int64_t at = begin;
            if (pass > 0) at = begin + (limit / 2) * pass % limit;
            if (at > begin) leaves.push_back({begin, at, s});
            for (; at < end; at += limit) leaves.push_back({at, std::min(end, at + limit), s});
        }
        std::erase_if(leaves, [](const Leaf& l) { return l.end - l.begin < 2; });
        if (pass == 0)
            for (auto& l : leaves) stats[l.segment].windows += 1;
        // The state before each leaf, from one run of the current order.
        std::vector<OrderMemoryModel::State> before(leaves.size());
        {
            auto state = model.initialState();
            std::int64_t at = 0;
            for (size_t i = 0; i < leaves.size(); ++i) {
                for (; at < leaves[i].begin; ++at) model.step(state, size_t(order[at]));
                before[i] = state;
            }
        }
        std::vector<WindowSolution> solutions(leaves.size());
        auto solve = [&](size_t i) {
            const std::vector<std::int64_t> window(order.begin() + leaves[i].begin, order.begin() + leaves[i].end);
            solutions[i] = solveWindowExactly(model, graph, before[i], window, options.timeLimitSecondsPerSegment);
        };
        tbb::task_arena arena(options.threads == 0 ? tbb::task_arena::automatic : int(options.threads));
        arena.execute([&] {
            tbb::parallel_for(size_t(0), leaves.size(), [&](size_t i) { solve(i); }, tbb::simple_partitioner());
        });
        for (size_t i = 0; i < leaves.size(); ++i) {
            std::copy(solutions[i].order.begin(), solutions[i].order.end(), order.begin() + leaves[i].begin);
            auto& st = stats[leaves[i].segment];
            st.seconds += solutions[i].seconds;
            if (pass == 0 && st.windows == 1) st.provenOptimal = solutions[i].provenOptimal;
        }
    }
}

// Peak per segment of a finished order.
void fillSegmentPeaks(const OrderMemoryModel& model, const std::vector<std::int64_t>& order,
                      std::vector<OrderSegmentStats>& stats) {
    auto state = model.initialState();
    size_t s = 0;
    for (std::int64_t t = 0; t < std::int64_t(order.size()); ++t) {
        while (s + 1 < stats.size() && stats[s + 1].startTick <= t) ++s;
        stats[s].peak = std::max(stats[s].peak, model.step(state, size_t(order[t])));
    }
}

std::vector<OrderSegmentStats> statsFor(const std::vector<std::int64_t>& starts, std::int64_t n) {
    std::vector<OrderSegmentStats> stats(starts.size());
    for (size_t s = 0; s < starts.size(); ++s) {
        stats[s].startTick = starts[s];
        stats[s].kernels = (s + 1 < starts.size() ? starts[s + 1] : n) - starts[s];
    }
    return stats;
}

}  // namespace

OrderResult roamOrder(const Profile& profile, const OrderOptions& options) {
    const auto start = Clock::now();
    if (options.nodeLimit < 2 || options.nodeLimit > 64)
        throw std::invalid_argument(fmt::format("node limit {}: expected 2 to 64 kernels", options.nodeLimit));
    if (!(options.timeLimitSecondsPerSegment >= 0))
        throw std::invalid_argument("the time limit per segment must be zero or more seconds");
    const DependencyGraph graph = DependencyGraph::derive(profile);
    const std::vector<std::int64_t> topo = programFirstTopologicalOrder(graph);  // throws on a cycle
    const OrderMemoryModel model(profile);
    const std::int64_t n = std::int64_t(graph.size());

    // 1-2. Set aside what floats (weight-update branches, kernels feeding only them or nothing:
    // "tails"; kernels with no predecessor: "sources") and cut the rest ("main") at its
    // memory-insensitive kernels (roam_graph.h).
    RoamGraphParts parts = splitForRoam(profile, graph, topo);
    const std::vector<char>& isW = parts.weightUpdate;
    enum : char { Main, Tail, Source };
    std::vector<char> kind(n);
    for (std::int64_t k = 0; k < n; ++k) kind[k] = char(parts.kind[k]);
    const std::vector<std::int64_t>& mainOrder = parts.mainOrder;
    const std::vector<std::int64_t>& posMain = parts.posMain;
    std::vector<std::int64_t> cuts = parts.insensitive;
    if (cuts.empty() || cuts.front() != 0) cuts.insert(cuts.begin(), 0);
    if (mainOrder.empty()) cuts.clear();
    std::vector<std::int64_t> segOfMain(mainOrder.size(), 0);
    for (size_t c = 0; c < cuts.size(); ++c) {
        const std::int64_t end = c + 1 < cuts.size() ? cuts[c + 1] : std::int64_t(mainOrder.size());
        for (std::int64_t p = cuts[c]; p < end; ++p) segOfMain[p] = std::int64_t(c);
    }
    const std::int64_t segmentCount = std::max<std::int64_t>(1, std::int64_t(cuts.size()));

    // 3. Branches: connected groups of tail kernels; those holding weight updates go through
    // the scheduler, the others run right after their last main predecessor.
    std::vector<std::int64_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](std::int64_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    for (std::int64_t k = 0; k < n; ++k)
        if (kind[k] == Tail)
            for (auto s : graph.successors(size_t(k)))
                if (kind[s] == Tail) parent[find(s)] = find(k);
    struct Branch {
        std::vector<std::int64_t> kernels;  // topological order
        std::int64_t earliest = 0;          // segment of its latest main predecessor
        std::int64_t lastMainPred = -1;     // kernel position
        std::int64_t segment = 0;           // where the scheduler puts it
        bool updatesWeights = false;
        Bytes gradBytes = 0;
    };
    std::vector<Branch> branches;
    std::vector<std::int64_t> branchOf(n, -1);
    std::vector<std::vector<std::int64_t>> before(n);  // sources, run right before a main kernel
    std::vector<std::int64_t> anchor(n, -1);  // main kernel a source runs before; main kernels: themselves
    for (auto k : mainOrder) anchor[k] = k;
    std::int64_t lastMainSeen = -1;
    for (auto k : topo) {
        if (kind[k] == Main) {
            lastMainSeen = k;
            continue;
        }
        if (kind[k] == Source) {
            std::int64_t first = -1;
            for (auto s : graph.successors(size_t(k)))
                if (kind[s] == Main && (first < 0 || posMain[s] < posMain[first])) first = s;
            before[first].push_back(k);  // a source has a main successor, else it is a tail
            anchor[k] = first;
            continue;
        }
        const auto root = find(k);
        if (branchOf[root] < 0) {
            branchOf[root] = std::int64_t(branches.size());
            Branch b;
            // Without a main predecessor, it stays where the program put it.
            b.earliest = lastMainSeen >= 0 ? segOfMain[posMain[lastMainSeen]] : 0;
            branches.push_back(b);
        }
        auto& b = branches[branchOf[root]];
        b.kernels.push_back(k);
        b.updatesWeights = b.updatesWeights || isW[k];
        // A source predecessor runs right before its anchor, so the branch must follow that.
        for (auto p : graph.predecessors(size_t(k)))
            if (const auto a = anchor[p]; a >= 0 && (b.lastMainPred < 0 || posMain[a] > posMain[b.lastMainPred]))
                b.lastMainPred = a;
    }
    // Tensors: which the main graph touches, which are activations (touched in forward and in
    // backward), and the segments an activation may be live in.
    const size_t tensorCount = model.tensorCount();
    std::vector<char> nonWTouches(tensorCount, 0), fwd(tensorCount, 0), bwd(tensorCount, 0);
    for (std::int64_t k = 0; k < n; ++k)
        if (!isW[k])
            for (auto t : model.touched(size_t(k))) nonWTouches[t] = 1;
    std::vector<std::int64_t> firstSeg(tensorCount, segmentCount), lastSeg(tensorCount, -1);
    for (std::int64_t p = 0; p < std::int64_t(mainOrder.size()); ++p) {
        const auto k = size_t(mainOrder[p]);
        const auto phase = profile.kernels[k].phase;
        for (auto t : model.touched(k)) {
            fwd[t] |= phase == KernelPhase::Forward;
            bwd[t] |= phase == KernelPhase::Backward || phase == KernelPhase::Loss;
            firstSeg[t] = std::min(firstSeg[t], segOfMain[p]);
            lastSeg[t] = std::max(lastSeg[t], segOfMain[p]);
        }
    }
    Bytes estimatedPeak = 0, totalBytes = 0;  // equation 4
    std::vector<Bytes> activationsLive(segmentCount + 1, 0);  // equation 5, as a difference array
    for (size_t t = 0; t < tensorCount; ++t) {
        totalBytes += model.size(std::int32_t(t));
        if (!(fwd[t] && bwd[t])) continue;
        estimatedPeak += model.size(std::int32_t(t));
        activationsLive[firstSeg[t]] += model.size(std::int32_t(t));
        activationsLive[lastSeg[t] + 1] -= model.size(std::int32_t(t));
    }
    for (std::int64_t s = 1; s <= segmentCount; ++s) activationsLive[s] += activationsLive[s - 1];
    const double averageTensor = tensorCount ? double(totalBytes) / double(tensorCount) : 0.0;
    std::int64_t delayed = 0;
    for (auto& b : branches) {
        if (b.lastMainPred >= 0) b.earliest = segOfMain[posMain[b.lastMainPred]];
        // The gradient: what the branch's weight-update kernels share with other kernels.
        std::vector<std::int32_t> shared;
        for (auto k : b.kernels)
            if (isW[k])
                for (auto t : model.touched(size_t(k)))
                    if (nonWTouches[t]) shared.push_back(t);
        std::sort(shared.begin(), shared.end());
        shared.erase(std::unique(shared.begin(), shared.end()), shared.end());
        for (auto t : shared) b.gradBytes += model.size(t);
        b.segment = b.earliest;
        const double used = double(activationsLive[b.earliest]) + options.optimizerAlpha * double(b.gradBytes);  // eq. 6
        if (b.updatesWeights && averageTensor > 0 && double(b.gradBytes) / averageTensor > options.delayRadius && used > double(estimatedPeak)) {
            // Delay to the first later segment where the estimate fits (the last one at worst).
            while (b.segment + 1 < segmentCount &&
                   double(activationsLive[b.segment]) + options.optimizerAlpha * double(b.gradBytes) > double(estimatedPeak))
                ++b.segment;
            delayed += b.segment != b.earliest;
        }
    }

    // 4. The initial order: each segment's kernels, each branch right after its gradient's
    // producer (or first in a later segment it was delayed to); then the leaves are solved.
    std::vector<std::vector<std::int64_t>> after(n), atSegmentStart(segmentCount);
    for (auto& b : branches) {
        auto& into = (b.segment == b.earliest && b.lastMainPred >= 0) ? after[b.lastMainPred] : atSegmentStart[b.segment];
        into.insert(into.end(), b.kernels.begin(), b.kernels.end());
    }
    std::vector<std::int64_t> order, segmentStarts;
    for (std::int64_t s = 0; s < segmentCount; ++s) {
        segmentStarts.push_back(std::int64_t(order.size()));
        order.insert(order.end(), atSegmentStart[s].begin(), atSegmentStart[s].end());
        const std::int64_t begin = cuts.empty() ? 0 : cuts[s];
        const std::int64_t end = s + 1 < std::int64_t(cuts.size()) ? cuts[s + 1] : std::int64_t(mainOrder.size());
        for (std::int64_t p = begin; p < end; ++p) {
            order.insert(order.end(), before[mainOrder[p]].begin(), before[mainOrder[p]].end());
            order.push_back(mainOrder[p]);
            order.insert(order.end(), after[mainOrder[p]].begin(), after[mainOrder[p]].end());
        }
    }
    // Segments that end up empty (everything delayed out of nothing) are dropped.
    segmentStarts.erase(std::unique(segmentStarts.begin(), segmentStarts.end()), segmentStarts.end());
    while (!segmentStarts.empty() && segmentStarts.back() >= n && n > 0) segmentStarts.pop_back();
    if (segmentStarts.empty()) segmentStarts.push_back(0);
    std::string why;
    if (!isTopologicalOrder(graph, order, &why)) throw std::logic_error("roam assembled an invalid order: " + why);

    std::vector<OrderSegmentStats> stats = statsFor(segmentStarts, n);
    for (auto& st : stats)
        for (std::int64_t t = st.startTick; t < st.startTick + st.kernels; ++t) st.weightUpdates += isW[order[t]];
    optimizeLeaves(model, graph, order, segmentStarts, options, stats);
    fillSegmentPeaks(model, order, stats);

    OrderResult result;
    result.method = "roam";
    result.notes = fmt::format("{} segments from {} memory-insensitive kernels; {} weight-update branches, {} delayed",
                               segmentStarts.size(), cuts.size(), branches.size(), delayed);

    // Guard (not in the paper): the program and lescea orders, improved by the same leaf
    // search, can only get better than they were; when one beats the segment order, it is
    // returned instead, so roam is never worse than either baseline (the notes say so).
    Bytes bestPeak = model.peak(order);
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> baselines;
    {
        std::vector<std::int64_t> program(n);
        std::iota(program.begin(), program.end(), std::int64_t(0));
        if (isTopologicalOrder(graph, program, nullptr)) baselines.emplace_back("program", std::move(program));
        baselines.emplace_back("lescea", lesceaOrder(profile).order);
    }
    for (auto& [name, candidate] : baselines) {
        if (model.peak(candidate) >= bestPeak) continue;
        std::vector<std::int64_t> starts = {0};
        auto candidateStats = statsFor(starts, n);
        optimizeLeaves(model, graph, candidate, starts, options, candidateStats);
        fillSegmentPeaks(model, candidate, candidateStats);
        const Bytes peak = model.peak(candidate);
        if (peak >= bestPeak) continue;
        result.notes += fmt::format("; the segment order peaked at {} B, above the {} order, so the {} order improved "
                                    "window by window ({} B) is returned",
                                    bestPeak, name, name, peak);
        bestPeak = peak;
        order = std::move(candidate);
        segmentStarts = std::move(starts);
        stats = std::move(candidateStats);
    }
    if (!isTopologicalOrder(graph, order, &why)) throw std::logic_error("roam produced an invalid order: " + why);
    result.order = std::move(order);
    result.segmentStarts = std::move(segmentStarts);
    result.segments = std::move(stats);
    result.provenOptimal = std::all_of(result.segments.begin(), result.segments.end(), [](const OrderSegmentStats& s) {
        return s.provenOptimal || s.kernels < 2;
    });
    result.theoreticalPeak = theoreticalPeakOf(profile, result.order);
    // ROAM's subgraph tree of the final order (Algorithm 1): forward segments paired with the
    // backward segments that free their activations. The leaves above were the segments one by
    // one: by equation 1 a pair's two segments are independent for the peak, so pairing them
    // changes nothing here; the roam layout lays out the pairs (placement_roam.cpp).
    {
        const auto tree = roamSubgraphTree(profile, result.order, allocationProblemFromProfile(profile, result.order));
        result.subgraphSpans.clear();
        for (const auto& s : tree.spans) result.subgraphSpans.emplace_back(s.begin, s.end);
        result.notes += fmt::format("; subgraph tree: {} nested forward/backward pairs", tree.spans.size());
    }
    result.seconds = secondsSince(start);
    return result;
}

}  // namespace spillway
