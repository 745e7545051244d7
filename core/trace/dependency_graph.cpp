#include "core/trace/dependency_graph.h"

#include <algorithm>

namespace spillway {

DependencyGraph DependencyGraph::derive(const Profile& profile) {
    const ProfileIndex index(profile);
    const size_t n = profile.kernels.size();
    std::vector<std::vector<std::int32_t>> writers(profile.tensors.size());
    std::vector<std::vector<std::int32_t>> readers(profile.tensors.size());
    for (size_t k = 0; k < n; ++k) {
        for (TensorId id : profile.kernels[k].outputs)
            if (auto pos = index.tensorPos(id); pos >= 0) writers[pos].push_back(std::int32_t(k));
        for (TensorId id : profile.kernels[k].inputs)
            if (auto pos = index.tensorPos(id); pos >= 0) readers[pos].push_back(std::int32_t(k));
    }
    DependencyGraph g;
    g.successors_.resize(n);
    g.predecessors_.resize(n);
    for (size_t t = 0; t < profile.tensors.size(); ++t) {
        if (profile.tensors[t].persistent) continue;
        for (auto w : writers[t])
            for (auto r : readers[t])
                if (w != r) g.successors_[w].push_back(r);
    }
    for (auto& s : g.successors_) {
        std::sort(s.begin(), s.end());
        s.erase(std::unique(s.begin(), s.end()), s.end());
    }
    for (size_t k = 0; k < n; ++k)
        for (auto s : g.successors_[k]) g.predecessors_[s].push_back(std::int32_t(k));
    return g;
}

std::vector<std::int32_t> DependencyGraph::findCycle() const {
    // Iterative depth-first search with colours; the grey stack is the current path.
    const size_t n = successors_.size();
    std::vector<std::uint8_t> colour(n, 0);  // 0 white, 1 grey (on path), 2 black
    std::vector<std::pair<std::int32_t, size_t>> stack;
    for (size_t root = 0; root < n; ++root) {
        if (colour[root]) continue;
        stack.push_back({std::int32_t(root), 0});
        colour[root] = 1;
        while (!stack.empty()) {
            auto& [node, next] = stack.back();
            if (next < successors_[node].size()) {
                const auto succ = successors_[node][next++];
                if (colour[succ] == 0) {
                    colour[succ] = 1;
                    stack.push_back({succ, 0});
                } else if (colour[succ] == 1) {
                    std::vector<std::int32_t> cycle;
                    auto it = std::find_if(stack.begin(), stack.end(),
                                           [&](const auto& e) { return e.first == succ; });
                    for (; it != stack.end(); ++it) cycle.push_back(it->first);
                    return cycle;
                }
            } else {
                colour[node] = 2;
                stack.pop_back();
            }
        }
    }
    return {};
}

}  // namespace spillway
