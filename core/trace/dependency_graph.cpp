#include "core/trace/dependency_graph.h"

#include <algorithm>

namespace spillway {

DependencyGraph DependencyGraph::derive(const Profile& profile) {
    const ProfileIndex index(profile);
    const size_t n = profile.kernels.size();
    const size_t tensorCount = profile.tensors.size();
    DependencyGraph g;
    g.successors_.resize(n);
    g.predecessors_.resize(n);
    auto edge = [&](std::int64_t from, size_t to) {
        if (from >= 0 && static_cast<size_t>(from) != to) g.successors_[from].push_back(std::int32_t(to));
    };

    std::vector<std::int64_t> firstWriter(tensorCount, -1);
    for (size_t k = 0; k < n; ++k)
        for (TensorId id : profile.kernels[k].outputs)
            if (auto pos = index.tensorPos(id); pos >= 0 && firstWriter[pos] < 0) firstWriter[pos] = std::int64_t(k);

    // Walk the kernels in program order, tracking per tensor which write a read sees. A tensor
    // written by several kernels (in-place ops, gradient accumulation, a reused buffer) has
    // versions: a read depends on the latest earlier write, and a write must wait for the
    // readers of the version it overwrites and for the write before it. Linking every writer
    // to every reader instead reports false cycles (read at 1, rewritten at 3 after 1 -> 2 -> 3).
    std::vector<std::int64_t> lastWriter(tensorCount, -1);
    std::vector<std::vector<std::int32_t>> readersSinceWrite(tensorCount);
    for (size_t k = 0; k < n; ++k) {
        const auto& kernel = profile.kernels[k];
        for (TensorId id : kernel.inputs) {
            const auto pos = index.tensorPos(id);
            if (pos < 0 || profile.tensors[pos].persistent) continue;
            if (lastWriter[pos] >= 0) {
                edge(lastWriter[pos], k);
                readersSinceWrite[pos].push_back(std::int32_t(k));
            } else {
                // Read before any write (validateProfile reports it): the value can only come
                // from the first writer, so keep that edge; if the profile's order contradicts
                // the data flow both ways, findCycle() shows it.
                edge(firstWriter[pos], k);
            }
        }
        for (TensorId id : kernel.outputs) {
            const auto pos = index.tensorPos(id);
            if (pos < 0 || profile.tensors[pos].persistent) continue;
            if (lastWriter[pos] >= 0) {
                for (auto reader : readersSinceWrite[pos]) edge(reader, k);
                edge(lastWriter[pos], k);
            }
            lastWriter[pos] = std::int64_t(k);
            readersSinceWrite[pos].clear();
        }
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
