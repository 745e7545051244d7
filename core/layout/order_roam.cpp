// ROAM's operator ordering (Shu et al., section IV-A and IV-C). Steps:
//  1. Weight-update kernels (optimizer phase, feeding nothing but other weight-update kernels)
//     are set aside: they are what makes a training graph hard to cut.
//  2. On the rest, memory-insensitive kernels - those at the same position in every
//     topological order - cut the order into independent segments (equation 1: the peak is the
//     max over segments, so each segment is optimised alone).
//  3. The weight-update scheduler assigns every weight-update branch to a segment: right after
//     its gradient, or later when the activations estimated live there plus alpha gradient-sized
//     layers exceed the estimated peak (equations 4-6, delay radius r).
//  4. Each segment (its own kernels and its branches) is solved exactly (branch and bound and,
//     with OrderOptions::ilpLeaves, the order ILP on CBC as in the paper; the better kept);
//     segments above node_limit are split into windows (dependent subgraphs). Leaves run in
//     parallel (TBB) and their orders are concatenated (equation 3).
// docs/layout-order.md records where the paper is vague and what was decided.
#include "core/layout/execution_windows.h"
#include "core/layout/ilp_order.h"
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

// One leaf by branch and bound and, when asked, by the order ILP on CBC (the paper's solver);
// the lower peak is kept (on a tie, branch and bound's order), proven if either proved it.
WindowSolution solveLeafBothWays(const OrderMemoryModel& model, const DependencyGraph& graph,
                                 const OrderMemoryModel::State& before, const std::vector<std::int64_t>& window,
                                 const OrderOptions& options, LeafReport& report) {
    WindowSolution bb = solveWindowExactly(model, graph, before, window, options.timeLimitSecondsPerSegment);
    report.part = "order";
    report.size = std::int64_t(window.size());
    report.branchAndBound = {true, bb.provenOptimal, bb.peak, bb.provenOptimal ? bb.peak : 0, bb.seconds,
                             bb.provenOptimal ? "optimal" : "time limit"};
    if (!options.ilpLeaves) {
        report.ilp.status = "not run";
        report.kept = "branch-and-bound";
        return bb;
    }
    IlpOrderOptions ilpOptions;
    ilpOptions.timeLimitSeconds = options.ilpSecondsPerLeaf;
    const IlpOrderSolution ilp = solveOrderIlp(model, graph, before, window, ilpOptions);
    const bool ilpProven = ilp.status == MipStatus::Optimal;
    report.ilp = {ilp.status != MipStatus::NotRun, ilpProven, ilp.peak, ilp.bound, ilp.seconds, mipStatusName(ilp.status)};
    report.kept = keptSolver(report.branchAndBound, report.ilp);
    if (ilp.peak < bb.peak) {
        bb.order = ilp.order;
        bb.peak = ilp.peak;
        bb.provenOptimal = ilpProven;
    } else if (ilp.peak == bb.peak) {
        bb.provenOptimal = bb.provenOptimal || ilpProven;
    }
    return bb;
}

// Solves every leaf of `order` (windows of at most nodeLimit inside each segment
// [segmentStarts[i], segmentStarts[i+1])), in parallel, and writes the leaves' orders back.
// Pass 0 cuts windows from each segment's start, later passes shift them by half a window.
void optimizeLeaves(const OrderMemoryModel& model, const DependencyGraph& graph, std::vector<std::int64_t>& order,
                    const std::vector<std::int64_t>& segmentStarts, const OrderOptions& options,
                    std::vector<OrderSegmentStats>& stats, std::vector<LeafReport>* reports) {
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
        std::vector<LeafReport> passReports(leaves.size());
        auto solve = [&](size_t i) {
            const std::vector<std::int64_t> window(order.begin() + leaves[i].begin, order.begin() + leaves[i].end);
            solutions[i] = solveLeafBothWays(model, graph, before[i], window, options, passReports[i]);
            passReports[i].pass = pass;
            passReports[i].index = std::int64_t(i);
        };
        tbb::task_arena arena(options.threads == 0 ? tbb::task_arena::automatic : int(options.threads));
        arena.execute([&] {
            tbb::parallel_for(size_t(0), leaves.size(), [&](size_t i) { solve(i); }, tbb::simple_partitioner());
        });
        if (reports) reports->insert(reports->end(), passReports.begin(), passReports.end());
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

// Union-find over kernel positions, halving paths as it finds.
class DisjointSets {
public:
    explicit DisjointSets(std::int64_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
    std::int64_t find(std::int64_t x) {
        while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
        return x;
    }
    void join(std::int64_t x, std::int64_t into) {
        const std::int64_t root = find(into);
        parent_[find(x)] = root;
    }

private:
    std::vector<std::int64_t> parent_;
};

// A connected group of tail kernels and where it runs.
struct Branch {
    std::vector<std::int64_t> kernels;  // topological order
    std::int64_t earliest = 0;          // segment of its latest main predecessor
    std::int64_t lastMainPred = -1;     // kernel position
    std::int64_t segment = 0;           // where the scheduler puts it
    bool updatesWeights = false;
    Bytes gradBytes = 0;
};

// What the weight-update scheduler estimates of the main graph's activations.
struct ActivationEstimate {
    Bytes estimatedPeak = 0;        // equation 4: every activation at once
    // Equation 5, ActivationLiveness::Segment: per segment, the activations that may be live in it.
    std::vector<Bytes> live;
    // Equation 5, ActivationLiveness::Operator: per operator timestep, the activations that may be
    // alive then; a segment is asked at its first kernel's earliest step, a branch right after
    // its last main predecessor's.
    std::vector<Bytes> liveAtStep;
    std::vector<std::int64_t> earliestStep, segmentStep;
    double averageTensor = 0;       // bytes
    std::vector<char> nonWTouches;  // per tensor: a kernel other than a weight update touches it

    bool perOperator() const { return !liveAtStep.empty(); }
    Bytes atSegment(std::int64_t s) const { return perOperator() ? liveAtStep[size_t(segmentStep[size_t(s)])] : live[size_t(s)]; }
    Bytes rightAfter(std::int64_t lastMainPred, std::int64_t segment) const {
        if (!perOperator()) return live[size_t(segment)];
        const std::int64_t step = lastMainPred < 0 ? 0 : earliestStep[size_t(lastMainPred)] + 1;
        return liveAtStep[size_t(std::min<std::int64_t>(step, std::int64_t(liveAtStep.size()) - 1))];
    }
};

// The steps of roamOrder (see the top of the file), in the order run() takes them, over the
// graph and the order they build.
class RoamOrdering {
public:
    RoamOrdering(const Profile& profile, const OrderOptions& options)
        : profile_(profile),
          options_(options),
          graph_(DependencyGraph::derive(profile)),
          topo_(programFirstTopologicalOrder(graph_)),  // throws on a cycle
          model_(profile),
          n_(std::int64_t(graph_.size())),
          parts_(splitForRoam(profile, graph_, topo_)) {}

    OrderResult run() {
        cutMainIntoSegments();
        collectBranches();
        scheduleBranches();
        assembleOrder();
        solveSegments();
        OrderResult result;
        result.method = "roam";
        result.notes =
            fmt::format("{} segments from {} memory-insensitive kernels; {} weight-update branches, {} delayed",
                        segmentStarts_.size(), cuts_.size(), branches_.size(), delayed_);
        keepBetterBaseline(result);
        finish(result);
        return result;
    }

private:
    void cutMainIntoSegments();
    void collectBranches();
    ActivationEstimate estimateActivations() const;
    void estimatePerOperator(ActivationEstimate& e, const std::vector<char>& activation) const;
    void scheduleBranches();
    Bytes gradientBytes(const Branch& b, const std::vector<char>& nonWTouches) const;
    void assembleOrder();
    void solveSegments();
    void keepBetterBaseline(OrderResult& result);
    void finish(OrderResult& result);
    bool isMain(std::int64_t k) const { return parts_.kind[k] == RoamKernelKind::Main; }
    bool isTail(std::int64_t k) const { return parts_.kind[k] == RoamKernelKind::Tail; }

    const Profile& profile_;
    const OrderOptions& options_;
    const DependencyGraph graph_;
    const std::vector<std::int64_t> topo_;
    const OrderMemoryModel model_;
    const std::int64_t n_;
    const RoamGraphParts parts_;
    std::vector<std::int64_t> cuts_;       // positions in mainOrder where segments start
    std::vector<std::int64_t> segOfMain_;  // position in mainOrder -> segment
    std::int64_t segmentCount_ = 1;
    std::vector<Branch> branches_;
    std::vector<std::vector<std::int64_t>> before_;  // sources, run right before a main kernel
    std::int64_t delayed_ = 0;                       // branches the scheduler moved to a later segment
    std::vector<std::int64_t> order_, segmentStarts_;
    std::vector<OrderSegmentStats> stats_;
    std::vector<LeafReport> leafReports_;  // of the leaves of the order returned
};

// 1-2. Set aside what floats (weight-update branches, kernels feeding only them or nothing:
// "tails"; kernels with no predecessor: "sources") and cut the rest ("main") at its
// memory-insensitive kernels (roam_graph.h).
void RoamOrdering::cutMainIntoSegments() {
    const std::vector<std::int64_t>& mainOrder = parts_.mainOrder;
    cuts_ = parts_.insensitive;
    if (cuts_.empty() || cuts_.front() != 0) cuts_.insert(cuts_.begin(), 0);
    if (mainOrder.empty()) cuts_.clear();
    segOfMain_.assign(mainOrder.size(), 0);
    for (size_t c = 0; c < cuts_.size(); ++c) {
        const std::int64_t end = c + 1 < cuts_.size() ? cuts_[c + 1] : std::int64_t(mainOrder.size());
        for (std::int64_t p = cuts_[c]; p < end; ++p) segOfMain_[p] = std::int64_t(c);
    }
    segmentCount_ = std::max<std::int64_t>(1, std::int64_t(cuts_.size()));
}

// 3. Branches: connected groups of tail kernels; those holding weight updates go through
// the scheduler, the others run right after their last main predecessor.
void RoamOrdering::collectBranches() {
    const std::vector<std::int64_t>& posMain = parts_.posMain;
    DisjointSets groups(n_);
    for (std::int64_t k = 0; k < n_; ++k)
        if (isTail(k))
            for (auto s : graph_.successors(size_t(k)))
                if (isTail(s)) groups.join(s, k);
    std::vector<std::int64_t> branchOf(n_, -1);
    before_.assign(n_, {});
    std::vector<std::int64_t> anchor(n_, -1);  // main kernel a source runs before; main kernels: themselves
    for (auto k : parts_.mainOrder) anchor[k] = k;
    std::int64_t lastMainSeen = -1;
    for (auto k : topo_) {
        if (isMain(k)) {
            lastMainSeen = k;
            continue;
        }
        if (parts_.kind[k] == RoamKernelKind::Source) {
            std::int64_t first = -1;
            for (auto s : graph_.successors(size_t(k)))
                if (isMain(s) && (first < 0 || posMain[s] < posMain[first])) first = s;
            before_[first].push_back(k);  // a source has a main successor, else it is a tail
            anchor[k] = first;
            continue;
        }
        const auto root = groups.find(k);
        if (branchOf[root] < 0) {
            branchOf[root] = std::int64_t(branches_.size());
            Branch b;
            // Without a main predecessor, it stays where the program put it.
            b.earliest = lastMainSeen >= 0 ? segOfMain_[posMain[lastMainSeen]] : 0;
            branches_.push_back(b);
        }
        auto& b = branches_[branchOf[root]];
        b.kernels.push_back(k);
        b.updatesWeights = b.updatesWeights || parts_.weightUpdate[k];
        // A source predecessor runs right before its anchor, so the branch must follow that.
        for (auto p : graph_.predecessors(size_t(k)))
            if (const auto a = anchor[p]; a >= 0 && (b.lastMainPred < 0 || posMain[a] > posMain[b.lastMainPred]))
                b.lastMainPred = a;
    }
}

// Tensors: which the main graph touches, which are activations (touched in forward and in
// backward), and the segments an activation may be live in.
ActivationEstimate RoamOrdering::estimateActivations() const {
    const std::vector<char>& isW = parts_.weightUpdate;
    const std::vector<std::int64_t>& mainOrder = parts_.mainOrder;
    const size_t tensorCount = model_.tensorCount();
    ActivationEstimate e;
    e.nonWTouches.assign(tensorCount, 0);
    std::vector<char> fwd(tensorCount, 0), bwd(tensorCount, 0);
    for (std::int64_t k = 0; k < n_; ++k)
        if (!isW[k])
            for (auto t : model_.touched(size_t(k))) e.nonWTouches[t] = 1;
    std::vector<std::int64_t> firstSeg(tensorCount, segmentCount_), lastSeg(tensorCount, -1);
    for (std::int64_t p = 0; p < std::int64_t(mainOrder.size()); ++p) {
        const auto k = size_t(mainOrder[p]);
        const auto phase = profile_.kernels[k].phase;
        for (auto t : model_.touched(k)) {
            fwd[t] |= phase == KernelPhase::Forward;
            bwd[t] |= phase == KernelPhase::Backward || phase == KernelPhase::Loss;
            firstSeg[t] = std::min(firstSeg[t], segOfMain_[p]);
            lastSeg[t] = std::max(lastSeg[t], segOfMain_[p]);
        }
    }
    Bytes totalBytes = 0;
    e.live.assign(segmentCount_ + 1, 0);  // a difference array until the prefix sum below
    std::vector<char> activation(tensorCount, 0);
    for (size_t t = 0; t < tensorCount; ++t) {
        totalBytes += model_.size(std::int32_t(t));
        if (!(fwd[t] && bwd[t])) continue;
        activation[t] = 1;
        e.estimatedPeak += model_.size(std::int32_t(t));
        e.live[firstSeg[t]] += model_.size(std::int32_t(t));
        e.live[lastSeg[t] + 1] -= model_.size(std::int32_t(t));
    }
    for (std::int64_t s = 1; s <= segmentCount_; ++s) e.live[s] += e.live[s - 1];
    e.averageTensor = tensorCount ? double(totalBytes) / double(tensorCount) : 0.0;
    if (options_.activationLiveness == ActivationLiveness::Operator) estimatePerOperator(e, activation);
    return e;
}

// Equation 5 as the paper has it: an activation may be alive from the earliest step of its first
// main toucher to the latest step of its last (execution_windows.h).
void RoamOrdering::estimatePerOperator(ActivationEstimate& e, const std::vector<char>& activation) const {
    const ExecutionWindows windows = executionWindows(graph_, topo_);
    std::vector<std::int64_t> from(activation.size(), n_), to(activation.size(), -1);
    for (auto k : parts_.mainOrder)
        for (auto t : model_.touched(size_t(k))) {
            from[size_t(t)] = std::min(from[size_t(t)], windows.earliest[size_t(k)]);
            to[size_t(t)] = std::max(to[size_t(t)], windows.latest[size_t(k)]);
        }
    std::vector<Bytes> diff(size_t(n_) + 1, 0);
    for (size_t t = 0; t < activation.size(); ++t)
        if (activation[t] && from[t] <= to[t]) {
            diff[size_t(from[t])] += model_.size(std::int32_t(t));
            diff[size_t(to[t]) + 1] -= model_.size(std::int32_t(t));
        }
    e.liveAtStep.assign(size_t(std::max<std::int64_t>(n_, 1)), 0);
    Bytes running = 0;
    for (std::int64_t step = 0; step < n_; ++step) e.liveAtStep[size_t(step)] = running += diff[size_t(step)];
    e.earliestStep = windows.earliest;
    e.segmentStep.assign(size_t(segmentCount_), 0);
    for (std::int64_t s = 0; s < segmentCount_ && !cuts_.empty(); ++s)
        e.segmentStep[size_t(s)] = windows.earliest[size_t(parts_.mainOrder[size_t(cuts_[size_t(s)])])];
}

// The weight-update scheduler: each branch right after its gradient, unless the activations
// estimated live there plus alpha gradient-sized layers exceed the estimated peak (eq. 6).
void RoamOrdering::scheduleBranches() {
    const ActivationEstimate e = estimateActivations();
    const double estimatedPeak = double(e.estimatedPeak);
    for (auto& b : branches_) {
        if (b.lastMainPred >= 0) b.earliest = segOfMain_[parts_.posMain[b.lastMainPred]];
        b.gradBytes = gradientBytes(b, e.nonWTouches);
        b.segment = b.earliest;
        // Equation 6.
        const double layers = options_.optimizerAlpha * double(b.gradBytes);
        const double used = double(e.rightAfter(b.lastMainPred, b.earliest)) + layers;
        if (b.updatesWeights && e.averageTensor > 0 && double(b.gradBytes) / e.averageTensor > options_.delayRadius &&
            used > estimatedPeak) {
            // Delay to the first later segment where the estimate fits (the last one at worst).
            do ++b.segment;
            while (b.segment + 1 < segmentCount_ && double(e.atSegment(b.segment)) + layers > estimatedPeak);
            b.segment = std::min(b.segment, segmentCount_ - 1);
            delayed_ += b.segment != b.earliest;
        }
    }
}

// The gradient: what the branch's weight-update kernels share with other kernels.
Bytes RoamOrdering::gradientBytes(const Branch& b, const std::vector<char>& nonWTouches) const {
    std::vector<std::int32_t> shared;
    for (auto k : b.kernels)
        if (parts_.weightUpdate[k])
            for (auto t : model_.touched(size_t(k)))
                if (nonWTouches[t]) shared.push_back(t);
    std::sort(shared.begin(), shared.end());
    shared.erase(std::unique(shared.begin(), shared.end()), shared.end());
    Bytes bytes = 0;
    for (auto t : shared) bytes += model_.size(t);
    return bytes;
}

// 4. The initial order: each segment's kernels, each branch right after its gradient's
// producer (or first in a later segment it was delayed to).
void RoamOrdering::assembleOrder() {
    const std::vector<std::int64_t>& mainOrder = parts_.mainOrder;
    std::vector<std::vector<std::int64_t>> after(n_), atSegmentStart(segmentCount_);
    for (auto& b : branches_) {
        auto& into = (b.segment == b.earliest && b.lastMainPred >= 0) ? after[b.lastMainPred] : atSegmentStart[b.segment];
        into.insert(into.end(), b.kernels.begin(), b.kernels.end());
    }
    for (std::int64_t s = 0; s < segmentCount_; ++s) {
        segmentStarts_.push_back(std::int64_t(order_.size()));
        order_.insert(order_.end(), atSegmentStart[s].begin(), atSegmentStart[s].end());
        const std::int64_t begin = cuts_.empty() ? 0 : cuts_[s];
        const std::int64_t end = s + 1 < std::int64_t(cuts_.size()) ? cuts_[s + 1] : std::int64_t(mainOrder.size());
        for (std::int64_t p = begin; p < end; ++p) {
            order_.insert(order_.end(), before_[mainOrder[p]].begin(), before_[mainOrder[p]].end());
            order_.push_back(mainOrder[p]);
            order_.insert(order_.end(), after[mainOrder[p]].begin(), after[mainOrder[p]].end());
        }
    }
    // Segments that end up empty (everything delayed out of nothing) are dropped.
    segmentStarts_.erase(std::unique(segmentStarts_.begin(), segmentStarts_.end()), segmentStarts_.end());
    while (!segmentStarts_.empty() && segmentStarts_.back() >= n_ && n_ > 0) segmentStarts_.pop_back();
    if (segmentStarts_.empty()) segmentStarts_.push_back(0);
    std::string why;
    if (!isTopologicalOrder(graph_, order_, &why)) throw std::logic_error("roam assembled an invalid order: " + why);
}

// Every segment's leaves solved exactly, then the segments' peaks.
void RoamOrdering::solveSegments() {
    stats_ = statsFor(segmentStarts_, n_);
    for (auto& st : stats_)
        for (std::int64_t t = st.startTick; t < st.startTick + st.kernels; ++t)
            st.weightUpdates += parts_.weightUpdate[order_[t]];
    optimizeLeaves(model_, graph_, order_, segmentStarts_, options_, stats_, &leafReports_);
    fillSegmentPeaks(model_, order_, stats_);
}

// Guard (not in the paper): the program and lescea orders, improved by the same leaf
// search, can only get better than they were; when one beats the segment order, it is
// returned instead, so roam is never worse than either baseline (the notes say so).
void RoamOrdering::keepBetterBaseline(OrderResult& result) {
    Bytes bestPeak = model_.peak(order_);
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> baselines;
    {
        std::vector<std::int64_t> program(n_);
        std::iota(program.begin(), program.end(), std::int64_t(0));
        if (isTopologicalOrder(graph_, program, nullptr)) baselines.emplace_back("program", std::move(program));
        baselines.emplace_back("lescea", lesceaOrder(profile_).order);
    }
    for (auto& [name, candidate] : baselines) {
        if (model_.peak(candidate) >= bestPeak) continue;
        std::vector<std::int64_t> starts = {0};
        auto candidateStats = statsFor(starts, n_);
        std::vector<LeafReport> candidateReports;
        optimizeLeaves(model_, graph_, candidate, starts, options_, candidateStats, &candidateReports);
        fillSegmentPeaks(model_, candidate, candidateStats);
        const Bytes peak = model_.peak(candidate);
        if (peak >= bestPeak) continue;
        result.notes += fmt::format("; the segment order peaked at {} B, above the {} order, so the {} order improved "
                                    "window by window ({} B) is returned",
                                    bestPeak, name, name, peak);
        bestPeak = peak;
        order_ = std::move(candidate);
        segmentStarts_ = std::move(starts);
        stats_ = std::move(candidateStats);
        leafReports_ = std::move(candidateReports);
    }
}

// The order, its segments and peak, and ROAM's subgraph tree of it.
void RoamOrdering::finish(OrderResult& result) {
    std::string why;
    if (!isTopologicalOrder(graph_, order_, &why)) throw std::logic_error("roam produced an invalid order: " + why);
    result.order = std::move(order_);
    result.segmentStarts = std::move(segmentStarts_);
    result.segments = std::move(stats_);
    result.leaves = std::move(leafReports_);
    result.provenOptimal = std::all_of(result.segments.begin(), result.segments.end(), [](const OrderSegmentStats& s) {
        return s.provenOptimal || s.kernels < 2;
    });
    result.theoreticalPeak = theoreticalPeakOf(profile_, result.order);
    // ROAM's subgraph tree of the final order (Algorithm 1): forward segments paired with the
    // backward segments that free their activations. The leaves above were the segments one by
    // one: by equation 1 a pair's two segments are independent for the peak, so pairing them
    // changes nothing here; the roam layout lays out the pairs (placement_roam.cpp).
    const auto tree = roamSubgraphTree(profile_, result.order, allocationProblemFromProfile(profile_, result.order));
    result.subgraphSpans.clear();
    for (const auto& s : tree.spans) result.subgraphSpans.emplace_back(s.begin, s.end);
    result.notes += fmt::format("; subgraph tree: {} nested forward/backward pairs", tree.spans.size());
}

}  // namespace

OrderResult roamOrder(const Profile& profile, const OrderOptions& options) {
    const auto start = Clock::now();
    if (options.nodeLimit < 2 || options.nodeLimit > 64)
        throw std::invalid_argument(fmt::format("node limit {}: expected 2 to 64 kernels", options.nodeLimit));
    if (!(options.timeLimitSecondsPerSegment >= 0))
        throw std::invalid_argument("the time limit per segment must be zero or more seconds");
    OrderResult result = RoamOrdering(profile, options).run();
    result.seconds = secondsSince(start);
    return result;
}

}  // namespace spillway
