#include "core/layout/execution_windows.h"

#include <bit>
#include <cstddef>

namespace spillway {

namespace {

// For each kernel, how many kernels reach it (ancestors) when walking `order` forwards with
// `into` giving each kernel's direct predecessors in that direction.
template <typename Predecessors>
std::vector<std::int64_t> reachCounts(size_t n, const std::vector<std::int64_t>& order, Predecessors into) {
    const size_t words = (n + 63) / 64;
    std::vector<std::uint64_t> bits(n * words, 0);
    std::vector<std::int64_t> count(n, 0);
    for (auto k : order) {
        std::uint64_t* row = &bits[size_t(k) * words];
        for (auto p : into(size_t(k))) {
            const std::uint64_t* from = &bits[size_t(p) * words];
            for (size_t w = 0; w < words; ++w) row[w] |= from[w];
            row[size_t(p) / 64] |= std::uint64_t(1) << (size_t(p) % 64);
        }
        std::int64_t c = 0;
        for (size_t w = 0; w < words; ++w) c += std::popcount(row[w]);
        count[size_t(k)] = c;
    }
    return count;
}

}  // namespace

ExecutionWindows executionWindows(const DependencyGraph& graph, const std::vector<std::int64_t>& topological) {
    const size_t n = graph.size();
    ExecutionWindows w;
    w.earliest = reachCounts(n, topological, [&](size_t k) -> const auto& { return graph.predecessors(k); });
    const std::vector<std::int64_t> backwards(topological.rbegin(), topological.rend());
    const auto descendants = reachCounts(n, backwards, [&](size_t k) -> const auto& { return graph.successors(k); });
    w.latest.resize(n);
    for (size_t k = 0; k < n; ++k) w.latest[k] = std::int64_t(n) - 1 - descendants[k];
    return w;
}

}  // namespace spillway
