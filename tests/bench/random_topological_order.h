#pragma once
// A random topological order of a profile's dependency graph (Kahn, a random ready kernel at
// each step): scrambled lifetimes, a harder layout problem than program order. The layout
// benchmarks share it.
#include "core/trace/dependency_graph.h"
#include "core/trace/profile.h"

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace spillway::bench {

inline std::vector<std::int64_t> randomTopologicalOrder(const Profile& profile, std::uint64_t seed) {
    const DependencyGraph g = DependencyGraph::derive(profile);
    std::vector<size_t> waiting(g.size());
    std::vector<std::int64_t> ready, order;
    for (size_t k = 0; k < g.size(); ++k)
        if ((waiting[k] = g.predecessors(k).size()) == 0) ready.push_back(std::int64_t(k));
    std::mt19937_64 rng(seed);
    while (!ready.empty()) {
        std::swap(ready[rng() % ready.size()], ready.back());
        const std::int64_t k = ready.back();
        ready.pop_back();
        order.push_back(k);
        for (auto s : g.successors(size_t(k)))
            if (--waiting[s] == 0) ready.push_back(s);
    }
    return order;
}

}  // namespace spillway::bench
