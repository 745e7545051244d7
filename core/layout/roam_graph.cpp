#include "core/layout/roam_graph.h"

#include <algorithm>
#include <limits>

namespace spillway {

namespace {

// Weight-update kernels: optimizer-phase kernels whose successors are all weight-update kernels
// too (a reverse topological sweep, so successors are decided first).
std::vector<char> weightUpdateKernels(const Profile& profile, const DependencyGraph& graph,
                                      const std::vector<std::int64_t>& topo) {
    std::vector<char> isW(graph.size(), 0);
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
        const auto k = size_t(*it);
        if (profile.kernels[k].phase != KernelPhase::Optimizer) continue;
        bool onlyW = true;
        for (auto s : graph.successors(k)) onlyW = onlyW && isW[s];
        isW[k] = onlyW;
    }
    return isW;
}

// Positions (in `order`, a topological order of the subgraph it lists) of the memory-insensitive
// kernels: every kernel before is an ancestor, every kernel after a descendant. In a topological
// order that holds at p exactly when every earlier kernel has a successor at or before p and
// every later kernel a predecessor at or after p, so two prefix/suffix sweeps find them all.
std::vector<std::int64_t> memoryInsensitivePositions(const DependencyGraph& graph, const std::vector<std::int64_t>& order,
                                                     const std::vector<std::int64_t>& posOf) {
    const std::int64_t m = std::int64_t(order.size());
    const std::int64_t inf = std::numeric_limits<std::int64_t>::max();
    std::vector<std::int64_t> minSucc(m, inf), maxPred(m, -1);
    for (std::int64_t p = 0; p < m; ++p) {
        for (auto s : graph.successors(size_t(order[p])))
            if (posOf[s] >= 0) minSucc[p] = std::min(minSucc[p], posOf[s]);
        for (auto q : graph.predecessors(size_t(order[p])))
            if (posOf[q] >= 0) maxPred[p] = std::max(maxPred[p], posOf[q]);
    }
    std::vector<std::int64_t> suffixMinPred(m + 1, inf);
    for (std::int64_t p = m - 1; p >= 0; --p) suffixMinPred[p] = std::min(suffixMinPred[p + 1], maxPred[p]);
    std::vector<std::int64_t> fixed;
    std::int64_t prefixMaxSucc = -1;
    for (std::int64_t p = 0; p < m; ++p) {
        if (prefixMaxSucc <= p && suffixMinPred[p + 1] >= p) fixed.push_back(p);
        prefixMaxSucc = std::max(prefixMaxSucc, minSucc[p]);
    }
    return fixed;
}

}  // namespace

RoamGraphParts splitForRoam(const Profile& profile, const DependencyGraph& graph, const std::vector<std::int64_t>& topo) {
    const std::int64_t n = std::int64_t(graph.size());
    RoamGraphParts parts;
    parts.weightUpdate = weightUpdateKernels(profile, graph, topo);
    parts.kind.assign(n, RoamKernelKind::Main);
    // Set aside what floats: weight-update branches (and the gradient kernels that feed only
    // them, and kernels nothing reads: "tails"), and kernels with no predecessor ("sources").
    // Either kind would otherwise stop every kernel on one side of it from being
    // memory-insensitive.
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
        const auto k = size_t(*it);
        bool allW = true, allTail = true;
        for (auto s : graph.successors(k))
            allW = allW && parts.weightUpdate[s], allTail = allTail && parts.kind[s] == RoamKernelKind::Tail;
        if (parts.weightUpdate[k] || allW) parts.kind[k] = RoamKernelKind::Tail;
        else if (graph.predecessors(k).empty()) parts.kind[k] = allTail ? RoamKernelKind::Tail : RoamKernelKind::Source;
    }
    parts.posMain.assign(n, -1);
    for (auto k : topo)
        if (parts.kind[k] == RoamKernelKind::Main)
            parts.posMain[k] = std::int64_t(parts.mainOrder.size()), parts.mainOrder.push_back(k);
    parts.insensitive = memoryInsensitivePositions(graph, parts.mainOrder, parts.posMain);
    return parts;
}

}  // namespace spillway
